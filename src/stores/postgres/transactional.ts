/**
 * The protocol on PostgreSQL with the side effect and the key in one transaction (Brandur
 * Leach's "idempotency keys in Postgres", with the key and the effect in one atomic phase):
 *
 *   BEGIN
 *   SELECT pg_try_advisory_xact_lock(hash of the key)   -- false: someone runs it: 409
 *   SELECT the live record                               -- 422 or the stored result
 *   ... the handler, writing its effect row through this transaction ...
 *   INSERT the done record ... ON CONFLICT (key) DO UPDATE
 *   COMMIT                                               -- effect and key, or neither
 *
 * A crash rolls the transaction back (as PostgreSQL does when a worker's connection dies), so
 * no key is ever stored without its effect nor an effect without its key, and the lock, the
 * only sign that the key is being worked on, goes with it. The lease is therefore the
 * transaction's life: `StoreOptions.leaseMs` is not used. The price: one connection is held
 * for the whole handler.
 */
import type { PoolClient } from 'pg';
import { answer, decide, finish, runHandler, type HandlerOutcome } from '../protocol.js';
import { timed, type Handler, type KeyStore, type Reply, type StoreRequest } from '../types.js';
import { PgNamespace } from './schema.js';

export class PgTransactionalStore extends PgNamespace implements KeyStore {
  readonly variant = 'transactional';

  async handle(req: StoreRequest, handler: Handler): Promise<Reply> {
    const client = await this.pool.connect();
    let result: Reply | { outcome: HandlerOutcome };
    try {
      result = await this.inTransaction(client, req, handler);
    } catch (e) {
      // The connection failed mid-transaction: PostgreSQL rolls it back; do not reuse the client.
      client.release(e as Error);
      throw e;
    }
    client.release();
    return 'outcome' in result ? finish(result.outcome) : result;
  }

  /** A reply without running the handler, or how the handler ended once the transaction has ended. */
  private async inTransaction(client: PoolClient, req: StoreRequest, handler: Handler): Promise<Reply | { outcome: HandlerOutcome }> {
    const observe = this.opts.observe;
    await timed(observe, 'begin', () => client.query('BEGIN'));
    const lock = await timed(observe, 'claim', () => client.query<{ got: boolean }>(
      'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS got', [`${this.keys}:${req.key}`],
    ));
    if (lock.rows[0]?.got !== true) {
      await timed(observe, 'rollback', () => client.query('ROLLBACK'));
      return { kind: 'conflict' };
    }
    const found = await this.lookup(req.key, client);
    const decision = decide(found, req.fingerprint, this.opts.checkFingerprint);
    if (decision !== 'claim' && found !== null) {
      await timed(observe, 'rollback', () => client.query('ROLLBACK'));
      return answer(decision, found);
    }
    const outcome = await runHandler(handler, { effect: (id) => this.commitEffect(id, client) });
    if (outcome.kind === 'crashed' || (outcome.kind === 'failed' && this.opts.onError === 'release')) {
      await timed(observe, 'rollback', () => client.query('ROLLBACK'));
    } else {
      await this.storeResult(req.key, req.fingerprint, outcome.response.status, outcome.response.body, client);
      await timed(observe, 'commit', () => client.query('COMMIT'));
    }
    return { outcome };
  }
}
