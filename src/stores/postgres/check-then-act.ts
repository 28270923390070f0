/**
 * BROKEN ON PURPOSE, for demonstration: the protocol on PostgreSQL as the guide warns not to
 * write it. SELECT the key; if there is no row, run the handler, then upsert the result.
 * Nothing is claimed, so a retry that arrives while the first request still runs finds no row
 * and executes again. With `transactional`, the effect and the result commit together (a
 * crash leaves neither), which does nothing for the race. Use `PgAtomicStore` or
 * `PgTransactionalStore`.
 */
import type { Pool } from 'pg';
import { answer, decide, finish, runHandler, type HandlerOutcome } from '../protocol.js';
import { timed, type Handler, type KeyRecord, type KeyStore, type Reply, type StoreOptions, type StoreRequest } from '../types.js';
import { PgNamespace, TABLES } from './schema.js';

export class PgCheckThenActStore extends PgNamespace implements KeyStore {
  readonly variant = 'check_then_act';

  constructor(pool: Pool, schema: string, opts: StoreOptions, private readonly transactional = false, tables = TABLES) {
    super(pool, schema, opts, tables);
  }

  async handle(req: StoreRequest, handler: Handler): Promise<Reply> {
    const found = await this.lookup(req.key);
    const decision = decide(found, req.fingerprint, this.opts.checkFingerprint);
    if (decision !== 'claim') return answer(decision, found as KeyRecord);
    // The race: between the SELECT above and the write below, anyone else also finds no row.
    if (!this.transactional) {
      const outcome = await runHandler(handler, { effect: (id) => this.commitEffect(id) });
      if (outcome.kind === 'ok' || (outcome.kind === 'failed' && this.opts.onError === 'store')) {
        await this.storeResult(req.key, req.fingerprint, outcome.response.status, outcome.response.body);
      }
      return finish(outcome);
    }
    const client = await this.pool.connect();
    let outcome: HandlerOutcome;
    try {
      await timed(this.opts.observe, 'begin', () => client.query('BEGIN'));
      outcome = await runHandler(handler, { effect: (id) => this.commitEffect(id, client) });
      if (outcome.kind === 'ok' || (outcome.kind === 'failed' && this.opts.onError === 'store')) {
        await this.storeResult(req.key, req.fingerprint, outcome.response.status, outcome.response.body, client);
        await timed(this.opts.observe, 'commit', () => client.query('COMMIT'));
      } else {
        await timed(this.opts.observe, 'rollback', () => client.query('ROLLBACK'));
      }
    } catch (e) {
      // The connection failed mid-transaction: PostgreSQL rolls it back; do not reuse the client.
      client.release(e as Error);
      throw e;
    }
    client.release();
    return finish(outcome);
  }
}
