/**
 * The action timeline of a coupled scenario (docs/model.md, "Capacity"): its actions share the
 * workers, the queue, the retry budget and the breaker with every other, so a chunk cannot be
 * simulated alone. The run is simulated again in the coupled engine from its start through the
 * chunk after the traced one (so the traced actions meet the run's load), then drained, and only
 * the traced chunk's groups are recorded. Until the arrivals of the chunk after that one would
 * come, every traced event is the run's own; an action still going then (a crash replay minutes
 * later, a storm) meets no more arrivals, so its story may part from the run's there.
 *
 * The hooks say when each request waited and was served; what they do not say the tracer reads
 * from the simulator, in a subclass that changes nothing it simulates: the server's answer to a
 * request whose client stopped waiting (its handler ran anyway), a shed 503 whose reply was
 * lost, and a call a client guard stopped.
 */
import { CONFLICT_409, ERR_5XX, FROM_STORE, HANDLER, NO_REPLY, OK, SHED_503, STORE_503 } from './attempt.js';
import { detachedOutput, type ChunkOutput } from './chunk-output.js';
import { CoupledSimulator, type CoupledSpec } from './coupled/coupled.js';
import { drive } from './coupled/drive.js';
import type { EngineHooks } from './hooks.js';
import { KeyGrid } from './peak.js';
import { chunkCount, CHUNK_ACTIONS, runPlans, type ChunkPlan } from './plan.js';
import { withPrimaries } from '../model/clock.js';
import { GUARDS, type GuardName, type GuardStop } from '../model/guards.js';
import type { Scenario } from '../model/types.js';
import { streamRng } from '../random/rng.js';
import type { AttemptOutcome, CallKind, TracedAction, TracedAttempt, TracedCall } from './trace.js';
import { KINDS, keyText, markDuplicates, STATUS } from './trace-keys.js';
import { RunawayWork, tracedWorkBound } from './runaway.js';

/** One request of a traced actor that reached the server: what became of it, as it becomes known. */
interface Note {
  /** The call (index in the action's calls) that sent it. */
  call: number;
  /** The attempt's record once the client learned its outcome (a request may be served after that). */
  rec: TracedAttempt | null;
  /** The reply the client got in time (status, who answered, ms after the send), or null. */
  reply: { status: number; by: number; delay: number } | null;
  /** Shed by a full queue (its 503 leaves `shedAfter` ms after the send); dropped expired by the worker that reached it. */
  shed: boolean;
  shedAfter: number;
  expired: boolean;
  /** Ms it waited for a worker. */
  wait?: number;
  /** The server's answer when a worker ran it: status (NO_REPLY: a crash), who answered, when it left (ms after the send), the handler's time. */
  server: { status: number; by: number; after: number; handlerMs: number } | null;
}

interface ActorTrace {
  action: TracedAction;
  /** Attempts the current call has sent; its requests by send time (ms of the run). */
  attempts: number;
  notes: Map<number, Note>;
  /** Why the call about to end sent nothing more: the guard that stopped it. */
  stop: TracedCall['stopped'] | undefined;
}

/** A slot's group; with a trigger, the delivery its runs are (a redelivered run has a slot of its own, acting for its group: coupled/state.ts). */
interface SlotTrace { group: number; arrival: number; actors: [ActorTrace | null, ActorTrace | null]; delivery?: number }

/** A reply the client got, as its bar's colour. */
function receivedOutcome(status: number): AttemptOutcome {
  switch (status) {
    case OK: return 'ok';
    case ERR_5XX: case STORE_503: return 'error';
    case CONFLICT_409: return 'conflict_409';
    case SHED_503: return 'shed';
    default: return 'mismatch_422';
  }
}

/** Hooks that record the groups of one chunk of a coupled run, whose groups interleave in slots. */
class CoupledTracer implements EngineHooks {
  readonly traced: TracedAction[] = [];
  private readonly slots: (SlotTrace | null)[] = [];
  /** Groups arrived so far (the run's group numbers), and the request a worker is serving. */
  private seen = 0;
  private serving: { i: number; note: Note } | null = null;

  /** Attempts and calls kept, and the most it may keep (`tracedWorkBound`): past it, RunawayWork. */
  private kept = 0;
  private readonly most: number;

  constructor(private readonly scenario: Scenario, private readonly plan: ChunkPlan) {
    this.most = tracedWorkBound(plan.actions);
  }

  /** One more attempt or call kept: a trace holds each one (runaway.ts). */
  private keep(): void {
    if (++this.kept > this.most) throw new RunawayWork(this.most, 'kept');
  }

  /** With a trigger: delivery `k` of action `a` starts a run as actor `run` (-1: none), in its group's slot or, redelivered, in a slot of its own. */
  onDelivery(a: number, k: number, _at: number, run: number): void {
    const home = this.slots[a >> 1];
    if (run < 0 || !home) return;
    if (run >> 1 === a >> 1) { home.delivery = k; return; }
    this.slots[run >> 1] = { group: home.group, arrival: home.arrival, actors: [null, null], delivery: k };
  }

  private actor(i: number): ActorTrace | null {
    return this.slots[i >> 1]?.actors[i & 1] ?? null;
  }

  onGroup(arrival: number, slot: number): void {
    const k = this.seen++ - this.plan.index * CHUNK_ACTIONS;
    this.slots[slot] = k >= 0 && k < this.plan.actions ? { group: k, arrival, actors: [null, null] } : null;
  }

  onCall(i: number, kind: number, at: number): void {
    const slot = this.slots[i >> 1];
    if (!slot) return;
    let a = slot.actors[i & 1];
    if (!a) {
      const action: TracedAction = {
        group: slot.group, twin: (i & 1) === 1, groupArrival: slot.arrival - this.plan.offset, arrival: at - slot.arrival, calls: [], attempts: [], executions: [],
        ...(slot.delivery === undefined ? {} : { delivery: slot.delivery }),
      };
      this.traced.push(action);
      a = slot.actors[i & 1] = { action, attempts: 0, notes: new Map(), stop: undefined };
    }
    const t = at - slot.arrival;
    this.keep();
    a.action.calls.push({ kind: KINDS[kind] as CallKind, start: t, end: t, result: 'unknown' });
    a.attempts = 0;
  }

  /** Actor `i`'s attempt sent at `s` reaches the server (before it starts, waits or is shed). */
  reaching(i: number, s: number): void {
    const a = this.actor(i);
    if (a) a.notes.set(s, { call: a.action.calls.length - 1, rec: null, reply: null, shed: false, shedAfter: 0, expired: false, server: null });
  }

  /** That request was shed; its 503 leaves `after` ms later. */
  shedAt(i: number, s: number, after: number): void {
    const note = this.actor(i)?.notes.get(s);
    if (note) { note.shed = true; note.shedAfter = after; }
  }

  onServe(i: number, s: number, t: number, expired: boolean): void {
    const note = this.actor(i)?.notes.get(s);
    this.serving = note && !expired ? { i, note } : null;
    if (!note) return;
    note.wait = t - s;
    note.expired = expired;
    if (note.rec) this.settle(note);
  }

  /** The server's answer to the request being served (the subclass reads it after the shared rule ran). */
  served(i: number, status: number, by: number, after: number, handlerMs: number): void {
    const serving = this.serving;
    if (!serving || serving.i !== i) return;
    serving.note.server = { status, by, after, handlerMs };
    if (serving.note.rec) this.settle(serving.note);
    this.serving = null;
  }

  onAttempt(i: number, s: number, key: number, delay: number, status: number, answeredBy: number, received: boolean): void {
    const slot = this.slots[i >> 1];
    const a = this.actor(i);
    if (!slot || !a) return;
    const call = a.action.calls.length - 1;
    const number = ++a.attempts;
    const sent = s - slot.arrival;
    const rec: TracedAttempt = {
      call, number, sent, ended: sent + (received ? delay : this.scenario.client.timeout), outcome: 'timeout', answeredBy: 'nobody', status: null,
      key: keyText(this.scenario.idempotency.scope, slot.group, i & 1, key, `${call}.${number}`),
    };
    this.keep();
    a.action.attempts.push(rec);
    const note = a.notes.get(s);
    if (!note) return; // the request was lost on the way
    note.rec = rec;
    if (received) note.reply = { status, by: answeredBy, delay };
    this.settle(note);
  }

  /** The attempt's record from all that is known of its request (again when the server acts after the client gave up). */
  private settle(note: Note): void {
    const rec = note.rec as TracedAttempt;
    const timeout = this.scenario.client.timeout;
    if (note.wait !== undefined) rec.waitMs = note.wait;
    const { reply, server } = note;
    if (note.shed || note.expired) {
      rec.answeredBy = 'queue';
      rec.status = note.shed ? '503' : null;
      if (note.shed) rec.answeredAt = rec.sent + note.shedAfter;
      rec.outcome = note.expired ? 'expired' : reply ? 'shed' : note.shedAfter <= timeout ? 'reply_lost' : 'timeout';
    } else if (server) {
      const handler = server.by === HANDLER;
      rec.answeredBy = handler ? 'handler' : server.by === FROM_STORE ? 'store' : 'nobody';
      rec.status = STATUS[server.status + 1] ?? null;
      if (handler) rec.handlerMs = server.handlerMs;
      if (handler && server.status === NO_REPLY) rec.crashed = true;
      if (server.status !== NO_REPLY) rec.answeredAt = rec.sent + server.after;
      rec.outcome = reply ? receivedOutcome(reply.status) : server.status !== NO_REPLY && server.after <= timeout ? 'reply_lost' : 'timeout';
    }
  }

  onExecution(i: number, at: number, key: number): void {
    const slot = this.slots[i >> 1];
    const a = this.actor(i);
    if (!slot || !a) return;
    // A request served after its client gave up belongs to the call that sent it.
    const call = this.serving?.i === i ? this.serving.note.call : a.action.calls.length - 1;
    const text = keyText(this.scenario.idempotency.scope, slot.group, i, key, `${call}.e${a.action.executions.length + 1}`);
    a.action.executions.push({ at: at - slot.arrival, call, duplicate: false, key: text });
  }

  /** A client guard stopped actor `i`'s retry or attempt: its call ends. */
  stopped(i: number, why: GuardStop): void {
    const a = this.actor(i);
    if (a) a.stop = why;
  }

  onCallEnd(i: number, at: number, success: boolean, unknown: boolean): void {
    const slot = this.slots[i >> 1];
    const a = this.actor(i);
    if (!slot || !a) return;
    const call = a.action.calls.at(-1) as TracedCall;
    call.end = at - slot.arrival;
    call.result = success ? 'success' : unknown ? 'unknown' : 'failure';
    if (a.stop !== undefined) call.stopped = a.stop;
    a.stop = undefined;
  }
}

/** The coupled engine, telling the tracer what its hooks do not: it overrides only to look, then does what the engine does. */
class TracingSimulator extends CoupledSimulator {
  constructor(spec: CoupledSpec, private readonly tracer: CoupledTracer) {
    super({ ...spec, hooks: tracer });
  }

  protected override arriveAtServer(i: number, g: number, key: number, x: number): void {
    const shed = this.side.shed[i];
    this.tracer.reaching(i, x);
    super.arriveAtServer(i, g, key, x);
    if (this.side.shed[i] !== shed) this.tracer.shedAt(i, x, this.p.fastReply);
  }

  protected override serve(i: number, key: number, fp: number, kind: number, storeDown: boolean): number {
    const status = super.serve(i, key, fp, kind, storeDown);
    this.tracer.served(i, status, this.answeredBy, this.replyAfter[i] as number, this.handlerDelay[i] as number);
    return status;
  }

  protected override guardStopped(i: number, name: GuardName): void {
    this.tracer.stopped(i, GUARDS[name].stop);
  }
}

/**
 * The actions of chunk `plan` of the coupled run of `scenario` from `seed` (see above), and the
 * outputs of that simulation (the run's own blocks while no later arrival is missing); the run
 * is driven through `upTo` chunks (the whole run: every group's actions, `plan` spanning them).
 */
export function traceCoupled(scenario: Scenario, gridStep: number, seed: string, plan: ChunkPlan, upTo = plan.index + 2): { actions: TracedAction[]; outputs: ChunkOutput[] } {
  const bound = withPrimaries(scenario, seed);
  const tracer = new CoupledTracer(bound, plan);
  const outputs: ChunkOutput[] = [];
  const sim = new TracingSimulator({
    scenario: bound, rng: streamRng(seed, 'coupled'), grid: new KeyGrid(gridStep), seriesStep: null, loadEnd: bound.load.duration ?? Infinity,
    emit: (out) => outputs.push(detachedOutput(out)),
  }, tracer);
  drive(sim, seed, runPlans(bound, seed, 0, Math.min(upTo, chunkCount(bound.actions))));
  markDuplicates(tracer.traced);
  return { actions: tracer.traced, outputs };
}
