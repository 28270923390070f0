/**
 * The client's, the agent's and the runtime's decisions of docs/model.md ("Client, model and
 * runtime") as functions of numbers. A random draw is an argument (`u`, uniform on [0, 1)),
 * so each caller keeps its own draw order; a decision never draws. The probe's agent
 * (src/probe/agent.ts, on a stream drawn in advance) and the in-memory store decide with
 * these, and so does the engine's compile.ts (backoffDelay, runningLife, KEY_IDENTITY, and
 * jittered's two coefficients); the engine's hot loop (engine.ts: afterAttempt, endCall, keyOf)
 * still writes the rest of the same arithmetic inline, and test/probe-model.test.ts holds the two to the same counts.
 */
import type { Jitter, Scenario, Scope } from './types.js';

/** `client.backoff`: milliseconds, multiplier ≥ 1. */
export type Backoff = Scenario['client']['backoff'];

/**
 * The delay before retry `j` (1 is the first retry) before jitter, ms:
 * min(max, base · multiplier^(j − 1)). Base 0 stays 0 where multiplier^(j − 1) overflows
 * (0 × Infinity would be NaN).
 */
export function backoffDelay(b: Backoff, j: number): number {
  return b.base === 0 ? 0 : Math.min(b.max, b.base * b.multiplier ** (j - 1));
}

/**
 * The wait for delay `d` under `jitter`, from the draw `u` (not used by `none`): `full` d·u,
 * `equal` d/2 + (d/2)·u (the two of AWS's "Exponential Backoff And Jitter", 2015).
 */
export function jittered(d: number, jitter: Jitter, u: number): number {
  switch (jitter) {
    case 'full': return d * u;
    case 'equal': return d / 2 + (d / 2) * u;
    case 'none': return d;
  }
}

/** The wait before a retry: `wait`, raised to `retryAfter` (idempotency.conflict_retry_after, 0 for none) after a 409. */
export function retryWait(wait: number, conflict: boolean, retryAfter: number): number {
  return conflict && wait < retryAfter ? retryAfter : wait;
}

/** A retry due at `next` is sent if the call, started at `callStart`, is then within `deadline` ms (null: none). */
export function withinDeadline(next: number, callStart: number, deadline: number | null): boolean {
  return next - callStart <= (deadline ?? Infinity);
}

/** A failed call is re-planned if fewer than `max` re-plans came before (since the last replay) and `u` < `p`. */
export function shouldReplan(done: number, max: number, p: number, u: number): boolean {
  return done < max && u < p;
}

/** A step that ended is replayed (the worker crashed) if fewer than `max` replays came before and `u` < `p`. */
export function shouldReplay(done: number, max: number, p: number, u: number): boolean {
  return done < max && u < p;
}

/** How long a running (claimed) record counts, ms: until the lease lapses, without one until retention. */
export function runningLife(lease: number | null, retention: number): number {
  return lease ?? retention;
}

/** What an attempt's key can identify: the attempt itself, its call, its action, its business identity (shared with a twin) or its call's free text. */
export type KeyIdentity = 'attempt' | 'call' | 'action' | 'group' | 'text';

/**
 * What an attempt's key identifies under each scope (docs/model.md's table); null: no key.
 * Two attempts share a key exactly when they share this identity. The engine keys its
 * group-local store by the same identities, numbered within the group (`keyOf`).
 */
export const KEY_IDENTITY: Record<Scope, KeyIdentity | null> = {
  none: null, attempt: 'attempt', call: 'call', intent: 'action', business: 'group', text: 'text',
};

/** Where an attempt stands, for its key's name. */
export interface KeyPlace {
  /** The action, a primary or a twin: unique in the run. */
  action: number;
  /** The business identity, shared by an action and its twin. */
  group: number;
  /** 0-based within the action: its original call, then re-plans and replays. */
  call: number;
  /** 0-based within the call. */
  attempt: number;
  /** The call's free text, unique in the run: it changes only when the arguments drift. */
  text: string;
}

/** A readable name of the key an attempt sends under `scope`, unique to its identity in the run; null: no key. */
export function keyName(scope: Scope, k: KeyPlace): string | null {
  const identity = KEY_IDENTITY[scope];
  switch (identity) {
    case null: return null;
    case 'attempt': return `a${k.action}.${k.call}.${k.attempt}`;
    case 'call': return `c${k.action}.${k.call}`;
    case 'action': return `i${k.action}`;
    case 'group': return `b${k.group}`;
    case 'text': return `t${k.group}.${k.text}`;
  }
}
