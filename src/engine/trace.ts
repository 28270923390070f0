/**
 * The story of each action of one chunk, for the action timeline: every call, attempt and
 * execution, as the engine simulated them. The engine itself runs the chunk with these
 * hooks, so the chunk's numbers are exactly those of a run (the tests compare them). A coupled
 * scenario's chunk is traced in the coupled engine (trace-coupled.ts); `traceActions` picks.
 */
import {
  ChunkSimulator, CONFLICT_409, ERR_5XX, STORE_503, FROM_STORE, HANDLER, NO_REPLY, OK, type ChunkOutput,
} from './engine.js';
import type { Scope } from '../model/enums.js';
import { isCoupled } from '../model/capacity.js';
import type { GuardStop } from '../model/guards.js';
import type { EngineHooks } from './hooks.js';
import { MAX_TRACED_WORK, RunawayWork } from './runaway.js';
import type { ChunkPlan } from './plan.js';
import { chunkRng, type Rng } from '../random/rng.js';
import type { Scenario } from '../model/types.js';
import { triggerOf } from '../model/trigger.js';
import { KINDS, keyText, markDuplicates, STATUS } from './trace-keys.js';
import { traceCoupled } from './trace-coupled.js';

export type CallKind = 'original' | 'replan' | 'replay';

/**
 * What the client saw of an attempt, which is the colour of its bar: a reply (`ok`, `error`
 * for a 5xx, `conflict_409`, `mismatch_422`), `timeout` (no reply in time: slow handler,
 * crash or lost request) or `reply_lost` (the server answered in time, the reply was lost).
 * Under capacity (docs/model.md, "Capacity") also `shed` (a 503 from a full queue) and
 * `expired` (the client timed out while the request waited, and a worker dropped it unrun).
 */
export type AttemptOutcome = 'ok' | 'error' | 'conflict_409' | 'mismatch_422' | 'timeout' | 'reply_lost' | 'shed' | 'expired';

export interface TracedAttempt {
  /** Index of the call (in `TracedAction.calls`) this attempt belongs to. */
  call: number;
  /** 1 for the first attempt of a call. */
  number: number;
  /** Send time and the time the client stopped waiting (reply or timeout), ms from the group's arrival. */
  sent: number;
  ended: number;
  outcome: AttemptOutcome;
  /**
   * Who produced the server's answer; `store` for 409s, 422s and replayed results (cyan rings);
   * `queue` when no worker took the request: shed by a full queue, or dropped expired.
   */
  answeredBy: 'nobody' | 'store' | 'handler' | 'queue';
  /** The server's answer, whether or not it reached the client; null for a lost request or a crash. */
  status: 'ok' | '5xx' | '409' | '422' | '503' | null;
  /** Handler run time (ms) when the handler ran. */
  handlerMs?: number;
  /** When the server's answer left it (ms from the group's arrival), whether or not it arrived; absent without one. */
  answeredAt?: number;
  /** The handler crashed: no reply was sent. */
  crashed?: boolean;
  /** The idempotency key sent, or null without one. */
  key: string | null;
  /** Under capacity: how long the request waited for a worker (ms; 0 when one was free), absent when none took it. */
  waitMs?: number;
}

export interface TracedCall {
  kind: CallKind;
  /** First send and the tool's return to the model, ms from the group's arrival. */
  start: number;
  end: number;
  result: 'success' | 'failure' | 'unknown';
  /** Why the client sent no (further) attempt: the client guard that stopped it (model/guards.ts: the open breaker, the empty budget, the throttle). */
  stopped?: GuardStop;
}

export interface TracedExecution {
  /** When the side effect happened, ms from the group's arrival. */
  at: number;
  call: number;
  /** Every execution after an action's first (in time) is a duplicate, as in docs/model.md. */
  duplicate: boolean;
  /** The idempotency key its request carried, as the attempts' (`scope:action.key`), or null without one. */
  key: string | null;
}

export interface TracedAction {
  /** Index of the group in the chunk (its primary action), and whether this is the twin. */
  group: number;
  twin: boolean;
  /** Arrival of the group in the chunk (ms); the action's times are relative to it. */
  groupArrival: number;
  /** The action's own arrival, ms from the group's arrival (0 unless a twin); with a trigger, its run's delivery. */
  arrival: number;
  /**
   * With a trigger (docs/model.md, "Inbound delivery"): which delivery started this run of the
   * action (0 the first); each run is traced as an action of its own. Absent without a trigger.
   */
  delivery?: number;
  calls: TracedCall[];
  attempts: TracedAttempt[];
  executions: TracedExecution[];
}


/** Hooks that record every action of a chunk. */
class Tracer implements EngineHooks {
  readonly traced: TracedAction[] = [];
  private group = -1;
  private groupArrival = 0;
  /** Each actor's story in the group: 0 the primary, 1 its twin; with a trigger, 2k + either for delivery k's run (engine/delivery.ts). */
  private current: (TracedAction | null)[] = [];
  /** How many attempts each actor's current call has sent. */
  private readonly callAttempts: number[] = [];
  private readonly scope: Scope;
  private readonly timeout: number;
  private readonly triggered: boolean;
  constructor(scenario: Scenario) {
    this.scope = scenario.idempotency.scope;
    this.timeout = scenario.client.timeout;
    this.triggered = triggerOf(scenario) !== null;
  }

  /** A delivery's run is traced from its first call (onCall); one that started none shows as its action's missing row. */
  onDelivery(): void { /* see above */ }

  onGroup(arrival: number): void {
    this.group++;
    this.groupArrival = arrival;
    this.current = [];
  }

  onCall(i: number, kind: number, at: number): void {
    let action = this.current[i];
    if (!action) {
      action = {
        group: this.group, twin: (i & 1) === 1, groupArrival: this.groupArrival, arrival: at - this.groupArrival, calls: [], attempts: [], executions: [],
        ...(this.triggered ? { delivery: i >> 1 } : {}),
      };
      this.current[i] = action;
      this.traced.push(action);
    }
    const t = at - this.groupArrival;
    action.calls.push({ kind: KINDS[kind] as CallKind, start: t, end: t, result: 'unknown' });
    this.callAttempts[i] = 0;
  }

  onAttempt(i: number, s: number, key: number, delay: number, status: number, answeredBy: number, received: boolean): void {
    const action = this.current[i] as TracedAction;
    const call = action.calls.length - 1;
    const number = ++this.callAttempts[i]!;
    const sent = s - this.groupArrival;
    const crashed = answeredBy === HANDLER && status === NO_REPLY;
    let outcome: AttemptOutcome;
    if (received) outcome = status === OK ? 'ok' : status === ERR_5XX || status === STORE_503 ? 'error' : status === CONFLICT_409 ? 'conflict_409' : 'mismatch_422';
    else outcome = status !== NO_REPLY && delay <= this.timeout ? 'reply_lost' : 'timeout';
    action.attempts.push({
      call, number, sent, ended: sent + (received ? delay : this.timeout), outcome,
      answeredBy: answeredBy === HANDLER ? 'handler' : answeredBy === FROM_STORE ? 'store' : 'nobody',
      status: STATUS[status + 1] ?? null,
      ...(answeredBy === HANDLER ? { handlerMs: delay } : {}), ...(crashed ? { crashed } : {}),
      ...(status !== NO_REPLY ? { answeredAt: sent + delay } : {}),
      key: keyText(this.scope, this.group, i, key, `${call}.${number}`),
    });
  }

  onExecution(i: number, at: number, key: number): void {
    const action = this.current[i] as TracedAction;
    const call = action.calls.length - 1;
    // The attempt being served is the call's next (onAttempt comes after the server's answer).
    const text = keyText(this.scope, this.group, i, key, `${call}.${(this.callAttempts[i] ?? 0) + 1}`);
    action.executions.push({ at: at - this.groupArrival, call, duplicate: false, key: text });
  }

  onServe(): void { /* the chunk engine has no queue */ }

  onCallEnd(i: number, at: number, success: boolean, unknown: boolean): void {
    const call = (this.current[i] as TracedAction).calls.at(-1) as TracedCall;
    call.end = at - this.groupArrival;
    call.result = success ? 'success' : unknown ? 'unknown' : 'failure';
  }
}

/**
 * Simulates one chunk exactly as a run does, and returns its output with every action's story,
 * refused (RunawayWork) past MAX_TRACED_WORK attempts and deliveries: a trace keeps each of them
 * (a chunk of 4 million attempts took 4.4 GB and minutes no signal stopped).
 */
export function traceChunk(scenario: Scenario, gridStep: number, rng: Rng, plan: ChunkPlan): { output: ChunkOutput; actions: TracedAction[] } {
  const tracer = new Tracer(scenario);
  // Every group through the general model, where the hooks are called (a counted group's story too: story-path.ts).
  const simulator = new ChunkSimulator(scenario, gridStep, true, tracer);
  simulator.maxWork = MAX_TRACED_WORK;
  const output = simulator.run(rng, plan);
  markDuplicates(tracer.traced);
  return { output, actions: tracer.traced };
}

/**
 * The actions of the run's chunk `plan` (of `scenario` run from `seed`), as the timeline draws
 * them: the chunk simulated again with its own stream, or, in a coupled scenario, the run up to
 * the chunk after it simulated again in the coupled engine (trace-coupled.ts says why). Null when
 * that would trace more than MAX_TRACED_WORK attempts and deliveries: the timeline then shows none
 * (the run itself, under the run's bound, went on).
 */
export function traceActions(scenario: Scenario, gridStep: number, seed: string, plan: ChunkPlan): TracedAction[] | null {
  try {
    if (isCoupled(scenario)) return traceCoupled(scenario, gridStep, seed, plan).actions;
    return traceChunk(scenario, gridStep, chunkRng(seed, plan.index), plan).actions;
  } catch (e) {
    if (e instanceof RunawayWork) return null;
    throw e;
  }
}
