/**
 * BROKEN ON PURPOSE, for demonstration: the protocol on Redis as the guide warns not to write
 * it. GET the key; if there is no record, run the handler, then SET the result. Nothing is
 * claimed, so a retry that arrives while the first request is still running finds no record
 * and executes again: a duplicate side effect that no 409 prevented. Use `RedisAtomicStore`.
 */
import { answer, decide, finish, runHandler } from '../protocol.js';
import type { Handler, KeyRecord, KeyStore, Reply, StoreRequest } from '../types.js';
import { RedisNamespace } from './records.js';

export class RedisCheckThenActStore extends RedisNamespace implements KeyStore {
  readonly variant = 'check_then_act';

  async handle(req: StoreRequest, handler: Handler): Promise<Reply> {
    const found = await this.lookup(req.key);
    const decision = decide(found, req.fingerprint, this.opts.checkFingerprint);
    if (decision !== 'claim') return answer(decision, found as KeyRecord);
    // The race: between the GET above and the SET below, anyone else also finds no record.
    const outcome = await runHandler(handler, { effect: (id) => this.commitEffect(id) });
    if (outcome.kind === 'ok' || (outcome.kind === 'failed' && this.opts.onError === 'store')) {
      await this.storeResult(req.key, req.fingerprint, outcome.response.status, outcome.response.body);
    }
    return finish(outcome);
  }
}
