/**
 * The state of the engine's general model: the group's key store, the chunk's totals, and
 * each actor's state (index 0 = the primary action, 1 = its twin) in preallocated typed
 * arrays; nothing is allocated per action.
 *
 * The engine is one class split into layers, one per file, each using only those below it:
 * Draws (draws.ts) < EngineState < CallModel (calls.ts) < AttemptModel (attempt.ts) <
 * GroupModel (group.ts) < DeliveryModel (delivery.ts) < RetryServer (retry-server.ts) <
 * RetryPath (retry-path.ts) < ReplyPath (reply-path.ts) < StoryPath (story-path.ts) < CountPath (count-path.ts) < ChunkSimulator (engine.ts);
 * the coupled engine's layers stand on DeliveryModel. One class,
 * not plain functions over a state object: the optimiser inlines a method after one check of
 * the receiver's map, which the field accesses around it need anyway, but checks an inlined
 * function's identity at every call. With the steps as plain functions the general model ran 3
 * to 5% slower than as this class, which is within about 2% of the single-file engine it was
 * split from (lab defaults, fast path off, one-thread runs of both builds in turns).
 */
import { ChunkTotals } from './chunk-output.js';
import type { Params } from './compile.js';
import { Draws } from './draws.js';
import type { EngineHooks } from './hooks.js';
import type { Regimes } from './regimes.js';
import type { SeriesTally } from './series-tally.js';
import type { LiveRows } from './live-rows.js';
import { WriteLog } from './write-log.js';
import { MAX_CHUNK_WORK, RunawayWork } from './runaway.js';

export class EngineState extends Draws {
  /** The group's key store (cleared per group; the coupled engine switches to the store of the group an event is about). */
  protected log = new WriteLog();
  /** The chunk's totals (a counted group's story is told into totals of its own: story-path.ts). */
  protected totals = new ChunkTotals();
  /** Where the group's key rows go: the chunk's (the coupled engine keeps each group's apart until it ends). */
  protected rows: LiveRows = this.totals.rows;
  /** Arrival times of the chunk's groups (ms from its start; grown as needed). */
  protected arrivals = new Float64Array(0);
  /** The chunk's start in the run's time (ms): chunk times + offset = run times. */
  protected offset = 0;
  /** The incident windows' parameters, or null when the scenario has none. */
  protected regimes: Regimes | null = null;
  /** The chunk's series, or null when the run counts none (docs/model.md, "Time"). */
  protected series: SeriesTally | null = null;

  // Each actor's state. Times go between the steps in these arrays, not as arguments: a call
  // the optimiser does not inline boxes each double argument, megabytes a chunk where most
  // actions retry.
  /** When the actor's next attempt is sent (Infinity: the action is over). */
  protected sendAt = new Float64Array(2);
  /** The current call's kind (ORIGINAL, REPLAN, REPLAY), start, and attempt number (0 = first). */
  protected kind = new Int8Array(2);
  protected callStart = new Float64Array(2);
  protected attempt = new Int32Array(2);
  protected arrival = new Float64Array(2);
  protected lastReturn = new Float64Array(2);
  /**
   * The request being served (`serve`, attempt.ts): when its handler starts (the send time
   * without a queue), the handler's time (set before `execute`), and how long after its send the
   * reply leaves (start - send + the time taken). Read only within `serve` and right after it.
   */
  protected serveStart = new Float64Array(2);
  protected handlerDelay = new Float64Array(2);
  protected replyAfter = new Float64Array(2);
  /** When the client has the current attempt's outcome (before `afterAttempt`). */
  protected attemptEnd = new Float64Array(2);
  /** Who answered the request `serve` handled last: FROM_STORE or HANDLER (attempt.ts). */
  protected answeredBy = 0;
  protected replans = new Int32Array(2);
  protected replays = new Int32Array(2);
  /** The free text the action's current call carries, and the current call's number in the group (its key under scope call). */
  protected text = new Int32Array(2);
  protected callId = new Int32Array(2);
  /** Executions: how many, the first in time and its call's kind, and how many by each kind (`i * 3 + kind`). */
  protected execCount = new Int32Array(2);
  protected execFirst = new Float64Array(2);
  protected execFirstKind = new Int8Array(2);
  protected execByKind = new Int32Array(6);
  protected gotStoredSuccess = new Uint8Array(2);
  /** Per-action tallies of counters (the others derive from executions), added to the chunk's sums when the action ends. */
  protected attemptsSent = new Int32Array(2);
  protected mismatches422 = new Int32Array(2);
  protected conflicts409 = new Int32Array(2);
  protected dedupHits = new Int32Array(2);
  protected unknownOutcomes = new Int32Array(2);
  protected storeUnavailable = new Int32Array(2);
  /** Latency and bin key of each action's last call (most actions make one call). */
  protected lastCallLatency = new Float64Array(2);
  protected lastCallKey = new Int32Array(2);
  /**
   * With a trigger (delivery.ts). Per run: whether the actor is a delivery's run, whether its
   * first step end is still to come (its acknowledgement, ack: after_step), its delivery, and
   * the next run of its action (-1: none).
   */
  protected runStarted = new Uint8Array(2);
  protected acking = new Uint8Array(2);
  protected runDelivery = new Int32Array(2);
  protected nextRun = new Int32Array(2);
  /**
   * Per action, at the actor of its first delivery: its arrival, its current delivery and that
   * delivery's deadline (Infinity once one succeeded or the sender gave up), whether a run started
   * (the consumer's record under dedupe: by_message), the free text of its latest original call,
   * whether it was dead-lettered, and its latest run (-1: none yet).
   */
  protected actArrival = new Float64Array(2);
  protected delivery = new Int32Array(2);
  protected deadline = new Float64Array(2);
  protected runBegun = new Uint8Array(2);
  protected originalText = new Int32Array(2);
  protected deadLettered = new Uint8Array(2);
  protected lastRun = new Int32Array(2);
  /** The group's next call number and next free text. */
  protected nextCall = 0;
  protected nextText = 0;

  /** The most attempts and deliveries a chunk may make (runaway.ts); a trace, which keeps every one, sets it lower. */
  maxWork = MAX_CHUNK_WORK;

  /** One more attempt or delivery of the chunk: past `maxWork`, the run is refused. */
  protected worked(): void {
    if (++this.totals.work > this.maxWork) throw new RunawayWork(this.maxWork, this.maxWork === MAX_CHUNK_WORK ? 'chunk' : 'traced');
  }

  /** Whether a client guard is in force (the coupled engine's: coupled/guards.ts; it overrides the two methods below). */
  protected guarded = false;

  /** `simple` simple groups into the chunk's totals: one action and one handler run each (their other counts are added at the chunk's end: chunk-output.ts `output`). */
  protected countSimple(simple: number): void {
    const t = this.totals;
    t.handlerRuns += simple;
    t.simpleGroups += simple;
    t.actions += simple;
  }

  constructor(p: Params, protected readonly hooks: EngineHooks) {
    super(p);
  }

  /** Whether the client's guards let actor `i` retry after its attempt ended with `status` (past the retry-count and deadline checks). */
  protected retryAllowed(_i: number, _status: number): boolean {
    return true;
  }

  /** Actor `i`'s attempt succeeded: the guards hear it. */
  protected attemptSucceeded(_i: number): void { /* no guard */ }

  /**
   * Room for `actors` actors (a group's actor i is 2g + 0 or 1 in the coupled engine, which has
   * many groups in flight; the chunk engine has one group, actors 0 and 1). Keeps what is there.
   * A trigger's arrays grow only with a trigger (the engine reads them nowhere else): a coupled
   * run holds hundreds of thousands of actors.
   */
  protected resizeActors(actors: number): void {
    const self = this as unknown as Record<ActorArray, Float64Array | Int32Array | Int8Array | Uint8Array>;
    const widths: Readonly<Record<string, number>> = this.base.trigger === null ? ACTOR_WIDTH : { ...ACTOR_WIDTH, ...DELIVERY_WIDTH };
    for (const name of Object.keys(widths) as ActorArray[]) {
      const old = self[name];
      const next = new (old.constructor as new (n: number) => typeof old)(actors * (widths[name] as number));
      next.set(old.subarray(0, Math.min(old.length, next.length)));
      self[name] = next;
    }
  }
}

/** Every per-actor array above with its values per actor: `resizeActors` grows each (test/coupled-engine.test.ts checks that none is left out). */
const ACTOR_WIDTH = {
  sendAt: 1,
  kind: 1,
  callStart: 1,
  attempt: 1,
  arrival: 1,
  lastReturn: 1,
  serveStart: 1,
  handlerDelay: 1,
  replyAfter: 1,
  attemptEnd: 1,
  replans: 1,
  replays: 1,
  text: 1,
  callId: 1,
  execCount: 1,
  execFirst: 1,
  execFirstKind: 1,
  execByKind: 3,
  gotStoredSuccess: 1,
  attemptsSent: 1,
  mismatches422: 1,
  conflicts409: 1,
  dedupHits: 1,
  unknownOutcomes: 1,
  storeUnavailable: 1,
  lastCallLatency: 1,
  lastCallKey: 1,
} as const;
/** The per-actor arrays of delivery.ts, read only with a trigger. */
const DELIVERY_WIDTH = {
  runStarted: 1,
  acking: 1,
  runDelivery: 1,
  nextRun: 1,
  actArrival: 1,
  delivery: 1,
  deadline: 1,
  runBegun: 1,
  originalText: 1,
  deadLettered: 1,
  lastRun: 1,
} as const;
type ActorArray = keyof typeof ACTOR_WIDTH | keyof typeof DELIVERY_WIDTH;
