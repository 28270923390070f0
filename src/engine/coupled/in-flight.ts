/**
 * What a coupled run may hold in flight at once (docs/security-and-limits.md). Its memory follows
 * the work in flight, not the run's length, so a storm whose queue never drains, or whose retries
 * keep adding to it, would grow without bound. The structures that grow with the work are counted
 * as the run goes, and the run stops with a message before one would pass its limit:
 * - actions in flight (state.ts: each group's per-actor state, and with a key scope its own key
 *   store and rows, about 2.8 KB of heap; without one the groups share an empty store);
 * - requests at the server, running or waiting for a worker (server.ts; requests.ts keeps 42
 *   bytes each, the queue's place included).
 * The others follow from these: the client's pending timeouts keep one live entry per actor
 * (heap.ts drops those whose attempt was answered), and the event heap holds at most one send or
 * reply per actor, one worker's end per running request or simple group (at most the workers,
 * 10^6) and the incident windows' edges.
 */

export interface InFlightLimits {
  /** Actions in flight at once without a key scope, and with one (powers of 2: the groups' slots grow by doubling up to them). */
  readonly actions: number;
  readonly keyedActions: number;
  /** Requests at the server at once, running or waiting. */
  readonly requests: number;
}

/**
 * 262,144 actions (65,536 with a key scope, whose stores take about 180 MB then) and 2,097,152
 * requests (88 MB), eight an action: a storm makes 4 to 6 attempts an action and its queue holds
 * most of them. capacity-storm.yaml holds some 47,000 actions and at most 294,220 requests; run
 * for three hours it reaches the actions' limit first, with 1.6 million requests waiting.
 */
export const IN_FLIGHT_LIMITS: InFlightLimits = { actions: 1 << 18, keyedActions: 1 << 16, requests: 1 << 21 };

/** How an error of a run past a limit begins (an error from a worker thread keeps only its message). */
export const IN_FLIGHT_OVERFLOW = 'the coupled run holds too much work in flight:';

/** The error of a run about to hold more than `limit` of `what` (actions in flight, requests at the server) at run time `now` (ms). */
export function inFlightOverflow(limit: number, what: string, now: number): Error {
  return new Error(`${IN_FLIGHT_OVERFLOW} more than ${limit.toLocaleString('en-US')} ${what} at once at minute ${Math.floor(now / 60_000)} of the run`);
}
