/** The decisions every store makes the same way, whatever holds its records. */
import { HandlerCrash, type Handler, type HandlerContext, type KeyRecord, type Reply, type StoredResponse } from './types.js';

/** What a live record (or none) means for a request (docs/model.md, in this order). */
export type Decision = 'claim' | 'mismatch' | 'conflict' | 'replay';

/** `found` must be live: not expired, and if running, its lease not lapsed. */
export function decide(found: KeyRecord | null, fingerprint: string, checkFingerprint: boolean): Decision {
  if (found === null) return 'claim';
  if (checkFingerprint && found.fingerprint !== fingerprint) return 'mismatch';
  return found.status === 'running' ? 'conflict' : 'replay';
}

/** The reply for a decision other than `claim`. */
export function answer(decision: Exclude<Decision, 'claim'>, found: KeyRecord): Reply {
  if (decision === 'mismatch') return { kind: 'mismatch' };
  if (decision === 'conflict' || found.response === null) return { kind: 'conflict' };
  return { kind: 'replayed', response: found.response };
}

/** How a handler ended. */
export type HandlerOutcome =
  | { kind: 'ok'; response: StoredResponse }
  /** A 5xx, returned or (as `error`) thrown: the store releases or stores it, then rethrows `error`. */
  | { kind: 'failed'; response: StoredResponse; error?: unknown }
  | { kind: 'crashed' };

/** Runs the handler and sorts its ending; never throws. */
export async function runHandler(handler: Handler, ctx: HandlerContext): Promise<HandlerOutcome> {
  try {
    const response = await handler(ctx);
    return response.status >= 500 ? { kind: 'failed', response } : { kind: 'ok', response };
  } catch (error) {
    if (error instanceof HandlerCrash) return { kind: 'crashed' };
    return { kind: 'failed', response: { status: 500, body: '' }, error };
  }
}

/** The reply for a finished handler, rethrowing an unexpected error once the store has cleaned up. */
export function finish(outcome: HandlerOutcome): Reply {
  if (outcome.kind === 'crashed') return { kind: 'crashed' };
  if (outcome.kind === 'ok') return { kind: 'executed', response: outcome.response };
  if ('error' in outcome) throw outcome.error;
  return { kind: 'failed', response: outcome.response };
}
