/**
 * A client guard of a coupled run (docs/model.md, "Capacity"): what the engine tells and asks
 * each (guards.ts registers them). Statuses are attempt.ts's (NO_REPLY: nothing in time).
 */
export interface ClientGuard {
  /** The client learned, at `x`, the outcome `status` of actor `i`'s attempt `serial`. */
  learned(x: number, i: number, serial: number, status: number): void;
  /** Whether actor `i` may retry after its attempt ended with `status` (past the retry-count and deadline checks); false stops the call. */
  allowsRetry(i: number, status: number): boolean;
  /** Whether actor `i` may send its attempt `serial` at `x`; false: not sent, the call ends as a definite failure. */
  allowsSend(x: number, i: number, serial: number): boolean;
  /** Actor `i`'s attempt succeeded; `first`: it was its call's first. */
  succeeded(i: number, first: boolean): void;
  /** Room for `actors` actors (a guard that keeps something per actor grows it). */
  grow(actors: number): void;
}

/** A guard that hears and stops nothing: each guard overrides what it does. */
export class NoGuard implements ClientGuard {
  learned(_x: number, _i: number, _serial: number, _status: number): void { /* nothing heard */ }
  allowsRetry(_i: number, _status: number): boolean { return true; }
  allowsSend(_x: number, _i: number, _serial: number): boolean { return true; }
  succeeded(_i: number, _first: boolean): void { /* nothing kept */ }
  grow(_actors: number): void { /* nothing per actor */ }
}

