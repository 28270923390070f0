/**
 * The state of the engine's general model: the group's key store, the chunk's totals, and
 * each actor's state (index 0 = the primary action, 1 = its twin) in preallocated typed
 * arrays; nothing is allocated per action.
 *
 * The engine is one class split into layers, one per file, each using only those below it:
 * Draws (draws.ts) < EngineState < CallModel (calls.ts) < AttemptModel (attempt.ts) <
 * GroupModel (group.ts) < ChunkSimulator (engine.ts). One class, not plain functions over a
 * state object: the optimiser inlines a method after one check of the receiver's map, which
 * the field accesses around it need anyway, but checks an inlined function's identity at every
 * call. With the steps as plain functions the general model ran 3 to 5% slower than as this
 * class, which is within about 2% of the single-file engine it was split from (lab defaults,
 * fast path off, one-thread runs of both builds in turns).
 */
import { ChunkTotals } from './chunk-output.js';
import type { Params } from './compile.js';
import { Draws } from './draws.js';
import type { EngineHooks } from './hooks.js';
import type { Regimes } from './regimes.js';
import type { SeriesTally } from './series-tally.js';
import { WriteLog } from './write-log.js';

export class EngineState extends Draws {
  /** The group's key store (cleared per group). */
  protected readonly log = new WriteLog();
  protected readonly totals = new ChunkTotals();
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
  protected readonly sendAt = new Float64Array(2);
  /** The current call's kind (ORIGINAL, REPLAN, REPLAY), start, and attempt number (0 = first). */
  protected readonly kind = new Int8Array(2);
  protected readonly callStart = new Float64Array(2);
  protected readonly attempt = new Int32Array(2);
  protected readonly arrival = new Float64Array(2);
  protected readonly lastReturn = new Float64Array(2);
  /** The current attempt: the handler's time (set before `execute`), and when the client has its outcome (before `afterAttempt`). */
  protected readonly handlerDelay = new Float64Array(2);
  protected readonly attemptEnd = new Float64Array(2);
  protected readonly replans = new Int32Array(2);
  protected readonly replays = new Int32Array(2);
  /** The free text the action's current call carries, and the current call's number in the group (its key under scope call). */
  protected readonly text = new Int32Array(2);
  protected readonly callId = new Int32Array(2);
  /** Executions: how many, the first in time and its call's kind, and how many by each kind (`i * 3 + kind`). */
  protected readonly execCount = new Int32Array(2);
  protected readonly execFirst = new Float64Array(2);
  protected readonly execFirstKind = new Int8Array(2);
  protected readonly execByKind = new Int32Array(6);
  protected readonly gotStoredSuccess = new Uint8Array(2);
  /** Per-action tallies of counters (the others derive from executions), added to the chunk's sums when the action ends. */
  protected readonly attemptsSent = new Int32Array(2);
  protected readonly mismatches422 = new Int32Array(2);
  protected readonly conflicts409 = new Int32Array(2);
  protected readonly dedupHits = new Int32Array(2);
  protected readonly unknownOutcomes = new Int32Array(2);
  protected readonly storeUnavailable = new Int32Array(2);
  /** Latency and bin key of each action's last call (most actions make one call). */
  protected readonly lastCallLatency = new Float64Array(2);
  protected readonly lastCallKey = new Int32Array(2);
  /** The group's next call number and next free text. */
  protected nextCall = 0;
  protected nextText = 0;

  constructor(p: Params, protected readonly hooks: EngineHooks) {
    super(p);
  }
}
