/**
 * What the engine tells an observer as it simulates a chunk (the action timeline, trace.ts).
 * Times are ms from the chunk's start; `i` is the actor, 0 the primary action, 1 its twin.
 * The engine calls these only from its general model: with hooks, a group its fast path would settle
 * goes through it, and a counted group's story is told through it (story-path.ts).
 */
export interface EngineHooks {
  /**
   * A group (a primary action and its possible twin) arrives at `arrival`. `slot`: the group's
   * slot in the coupled engine, whose actors are 2·slot and 2·slot + 1 and whose groups
   * interleave (a slot is reused once its group ended); always 0 in the chunk engine.
   */
  onGroup(arrival: number, slot: number): void;
  /** Actor `i` starts a tool call of `kind` (engine.ts: ORIGINAL, REPLAN, REPLAY) at `at`. */
  onCall(i: number, kind: number, at: number): void;
  /**
   * Actor `i`'s attempt sent at `s` with `key` (the engine's group-local number, or NO_KEY,
   * or FRESH_KEY for a key of its own) was answered by `answeredBy` (LOST_REQUEST, FROM_STORE,
   * HANDLER) after `delay` ms with `status` (a reply code or NO_REPLY); `received` is whether
   * the client got that reply before its timeout.
   */
  onAttempt(i: number, s: number, key: number, delay: number, status: number, answeredBy: number, received: boolean): void;
  /** The handler's side effect for actor `i` happened at `at`, its request carrying `key` (as onAttempt's; NO_KEY when the store was down and the server failed open). */
  onExecution(i: number, at: number, key: number): void;
  /** Actor `i`'s tool call returned to the model at `at`. */
  onCallEnd(i: number, at: number, success: boolean, unknown: boolean): void;
  /**
   * The coupled engine only: a worker took actor `i`'s request sent at `s` at `t` (its wait:
   * t - s), `expired` when drop_expired dropped it then. Called before that request's
   * `onExecution`, and before `onAttempt` of the attempt it belongs to, if the client still waits.
   */
  onServe(i: number, s: number, t: number, expired: boolean): void;
  /**
   * With a trigger (docs/model.md, "Inbound delivery"): delivery `k` of action `o` (0 the
   * primary, 1 its twin) at `at`; `run` is the actor its run is, or -1 when it started none
   * (the consumer died first, or it deduplicated the delivery).
   */
  onDelivery(o: number, k: number, at: number, run: number): void;
}

/** Hooks that do nothing: a run's; the optimiser inlines the empty calls away. */
class NoHooks implements EngineHooks {
  onGroup(): void { /* empty */ }
  onCall(): void { /* empty */ }
  onAttempt(): void { /* empty */ }
  onExecution(): void { /* empty */ }
  onCallEnd(): void { /* empty */ }
  onServe(): void { /* empty */ }
  onDelivery(): void { /* empty */ }
}

export const NO_HOOKS: EngineHooks = new NoHooks();
