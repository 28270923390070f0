/**
 * The protocol on PostgreSQL with an atomic claim: `INSERT ... ON CONFLICT (key) DO NOTHING`
 * writes a running row unless the key has one (the primary key decides, whatever the
 * concurrency). A row whose lease lapsed (`locked_at` + lease in the past) or that expired is
 * taken over by one conditional UPDATE, which PostgreSQL re-checks under the row lock, so two
 * requests never both take it over. Each statement commits on its own; the side effect is a
 * separate statement, so a crash after it leaves the effect without a stored result.
 */
import { answer, decide, finish, runHandler } from '../protocol.js';
import { timed, type Handler, type KeyRecord, type KeyStore, type Reply, type StoreRequest } from '../types.js';
import { ms, PgNamespace } from './schema.js';

/** Rounds of claim, takeover and read before answering 409 (a row deleted between them sends us round again). */
const ROUNDS = 3;

export class PgAtomicStore extends PgNamespace implements KeyStore {
  readonly variant = 'atomic';

  async handle(req: StoreRequest, handler: Handler): Promise<Reply> {
    const holder = await this.claim(req);
    if (holder !== 'claimed') {
      if (holder === null) return { kind: 'conflict' };
      const decision = decide(holder, req.fingerprint, this.opts.checkFingerprint);
      return answer(decision === 'claim' ? 'conflict' : decision, holder);
    }
    const outcome = await runHandler(handler, { effect: (id) => this.commitEffect(id) });
    if (outcome.kind === 'failed' && this.opts.onError === 'release') await this.release(req.key);
    else if (outcome.kind !== 'crashed') await this.storeResult(req.key, req.fingerprint, outcome.response.status, outcome.response.body);
    return finish(outcome);
  }

  /** 'claimed' when this request now holds the key, else the live record that holds it (null: none found in time). */
  private async claim(req: StoreRequest): Promise<'claimed' | KeyRecord | null> {
    for (let round = 0; round < ROUNDS; round++) {
      const inserted = await timed(this.opts.observe, 'claim', () => this.pool.query(
        `INSERT INTO ${this.keys} (key, fingerprint, status, locked_at, expires_at)
         VALUES ($1, $2, 'running', clock_timestamp(), clock_timestamp() + ${ms(3)})
         ON CONFLICT (key) DO NOTHING`,
        [req.key, req.fingerprint, this.opts.retentionMs],
      ));
      if (inserted.rowCount === 1) return 'claimed';
      const taken = await timed(this.opts.observe, 'takeover', () => this.pool.query(
        `UPDATE ${this.keys} SET fingerprint = $3, status = 'running', locked_at = clock_timestamp(),
           expires_at = clock_timestamp() + ${ms(4)}, response_code = NULL, response_body = NULL
         WHERE key = $1 AND NOT (${this.liveCondition})`,
        [req.key, this.lifeMs, req.fingerprint, this.opts.retentionMs],
      ));
      if (taken.rowCount === 1) return 'claimed';
      const found = await this.lookup(req.key);
      if (found !== null) return found;
    }
    return null;
  }
}
