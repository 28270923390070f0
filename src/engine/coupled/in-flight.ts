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

/**
 * What an error past a limit says when the scenario has a trigger (docs/triggers.md): each
 * delivery starts a run whose attempts compete for the workers, so redeliveries pile work up as
 * retries do. The error is made where the scenario is not at hand, so the run's driver adds it
 * (`withTriggerNote`); an error from a worker thread keeps only its message, and this with it.
 */
export const IN_FLIGHT_TRIGGERED = ', with a trigger whose every delivery starts a run of its own';

/** `e` as thrown by a coupled run of a scenario with a trigger or none (`triggered`): an error past a limit says so; any other as it is. */
export function withTriggerNote(e: unknown, triggered: boolean): unknown {
  if (!triggered || !(e instanceof Error) || !e.message.startsWith(IN_FLIGHT_OVERFLOW) || e.message.endsWith(IN_FLIGHT_TRIGGERED)) return e;
  return new Error(`${e.message}${IN_FLIGHT_TRIGGERED}`);
}

/** The fix for an error past a limit (its message `message`): a trigger's keys too when its scenario has one. */
export function inFlightFix(message: string): string {
  const triggered = message.endsWith(IN_FLIGHT_TRIGGERED);
  const why = triggered
    ? 'a storm whose queue never drains, and whose retries and redeliveries add to it: each delivery whose step outlasts its deadline is delivered again, and its run joins the queue'
    : 'a storm whose queue never drains, and whose retries add to it';
  const trigger = triggered ? 'give the trigger a longer trigger.ack_timeout or trigger.extend_up_to (fewer steps outlast their deadline), fewer trigger.redeliveries or a later trigger.schedule, ' : '';
  return `Work piles up faster than the workers take it (${why}): bound service.capacity.queue (requests past it are shed), add a guard (drop_expired, a retry budget, a breaker), lower client.retries, ${trigger}or simulate fewer actions (a smaller actions or a shorter load.duration)`;
}
