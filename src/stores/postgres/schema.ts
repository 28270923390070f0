/**
 * The PostgreSQL layout: one table of idempotency keys (the key unique, so that
 * `INSERT ... ON CONFLICT DO NOTHING` is the claim) and one table of side effects, both in a
 * schema of their own.
 */
import type { Pool, PoolClient } from 'pg';
import { timed, type KeyRecord, type StoreOptions } from '../types.js';

/** A pool or a client inside a transaction. */
export type Queryable = Pick<Pool | PoolClient, 'query'>;

/** An identifier quoted for SQL ("a""b"). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A string as an SQL literal ('it''s'), for statements that take no parameters (COMMENT ON). */
export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** First half of the probe's advisory lock keys: "IDMS" as a 32-bit integer. */
const LOCK_CLASS = 0x49444d53;

/** The advisory lock (two 32-bit keys) that a running probe holds on its schema `idem_sim_<8 hex>`. */
export function lockKey(schema: string): [number, number] {
  return [LOCK_CLASS, Number.parseInt(schema.slice(-8), 16) | 0];
}

/** The two tables a store writes: its keys and the side effects of the handlers it runs. */
export interface PgTables { keys: string; effects: string }
export const TABLES: PgTables = { keys: 'idempotency_keys', effects: 'effects' };

/**
 * `locked_at` is the claim time of a running record (null once done): the lease runs from it.
 * `expires_at` is when the record may be purged (retention after the claim or completion);
 * nothing deletes expired rows by itself, so run `DELETE ... WHERE expires_at < now()` on a
 * schedule (the stores treat expired rows as absent and overwrite them).
 */
export function keysTableDdl(schema: string, table = TABLES.keys): string {
  return `CREATE TABLE ${ident(schema)}.${ident(table)} (
  key text PRIMARY KEY,
  fingerprint text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'done')),
  locked_at timestamptz,
  response_code integer,
  response_body text,
  expires_at timestamptz NOT NULL
)`;
}

export function effectsTableDdl(schema: string, table = TABLES.effects): string {
  return `CREATE TABLE ${ident(schema)}.${ident(table)} (
  id bigserial PRIMARY KEY,
  effect_id text NOT NULL,
  committed_at timestamptz NOT NULL DEFAULT clock_timestamp()
)`;
}

/** Milliseconds as an SQL interval: `$n::double precision * interval '1 millisecond'`. */
export const ms = (param: number): string => `($${param}::double precision * interval '1 millisecond')`;

interface Row { status: 'running' | 'done'; fingerprint: string; response_code: number | null; response_body: string | null }

/** Names and the statements every PostgreSQL variant shares. */
export class PgNamespace {
  protected readonly keys: string;
  protected readonly effectsTable: string;

  constructor(protected readonly pool: Pool, readonly schema: string, protected readonly opts: StoreOptions, tables = TABLES) {
    this.keys = `${ident(schema)}.${ident(tables.keys)}`;
    this.effectsTable = `${ident(schema)}.${ident(tables.effects)}`;
  }

  /** How long a running record counts after its claim (ms). */
  protected get lifeMs(): number {
    return this.opts.leaseMs ?? this.opts.retentionMs;
  }

  /** A row counts while running and its lease has not lapsed, or while done and not expired. */
  protected get liveCondition(): string {
    return `CASE WHEN status = 'running' THEN locked_at + ${ms(2)} > clock_timestamp() ELSE expires_at > clock_timestamp() END`;
  }

  async lookup(key: string, via: Queryable = this.pool): Promise<KeyRecord | null> {
    const r = await timed(this.opts.observe, 'lookup', () => via.query<Row>(
      `SELECT status, fingerprint, response_code, response_body FROM ${this.keys} WHERE key = $1 AND ${this.liveCondition}`,
      [key, this.lifeMs],
    ));
    const row = r.rows[0];
    if (!row) return null;
    return {
      status: row.status, fingerprint: row.fingerprint,
      response: row.status === 'done' ? { status: row.response_code ?? 200, body: row.response_body ?? '' } : null,
    };
  }

  async commitEffect(id: string, via: Queryable = this.pool): Promise<void> {
    await timed(this.opts.observe, 'effect', () => via.query(`INSERT INTO ${this.effectsTable} (effect_id) VALUES ($1)`, [id]));
  }

  async effectCount(effectId: string): Promise<number> {
    const r = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.effectsTable} WHERE effect_id = $1`, [effectId]);
    return Number(r.rows[0]?.n ?? 0);
  }

  async effects(): Promise<Map<string, number>> {
    const r = await this.pool.query<{ effect_id: string; n: string }>(`SELECT effect_id, count(*) AS n FROM ${this.effectsTable} GROUP BY effect_id`);
    return new Map(r.rows.map((row) => [row.effect_id, Number(row.n)]));
  }

  /** Writes the final record whatever is there: last write wins, as in docs/model.md (no fencing token). */
  async storeResult(key: string, fingerprint: string, status: number, body: string, via: Queryable = this.pool): Promise<void> {
    await timed(this.opts.observe, 'complete', () => via.query(
      `INSERT INTO ${this.keys} (key, fingerprint, status, locked_at, response_code, response_body, expires_at)
       VALUES ($1, $2, 'done', NULL, $3, $4, clock_timestamp() + ${ms(5)})
       ON CONFLICT (key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, status = 'done', locked_at = NULL,
         response_code = EXCLUDED.response_code, response_body = EXCLUDED.response_body, expires_at = EXCLUDED.expires_at`,
      [key, fingerprint, status, body, this.opts.retentionMs],
    ));
  }

  async release(key: string): Promise<void> {
    await timed(this.opts.observe, 'release', () => this.pool.query(`DELETE FROM ${this.keys} WHERE key = $1`, [key]));
  }
}
