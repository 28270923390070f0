/** PostgreSQL for the probe: a pool that fails fast, a fresh schema, measurement and removal. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Claim } from '../../model/types.js';
import { saturate, type Backend, type RecordShape } from '../backend.js';
import { reasonOf, StoreError } from '../errors.js';
import { BASE_LIFE_MS, probeMarker } from '../lifetime.js';
import type { KeyStore, StoreOptions } from '../types.js';
import type { StoreUrl } from '../url.js';
import { PgAtomicStore } from './atomic.js';
import { PgCheckThenActStore } from './check-then-act.js';
import { POSTGRES, type RelationBytes } from './descriptor.js';
import { effectsTableDdl, ident, keysTableDdl, lockKey, literal, TABLES, type PgTables } from './schema.js';
import { PgTransactionalStore } from './transactional.js';

/** The tables the measurement writes, next to the probe's own (whose effects it must not add to). */
const SIZE_TABLES: PgTables = { keys: 'size_probe', effects: 'size_probe_effects' };

/** Opens a pool of `connections` and checks that it works, or throws a StoreError saying why not. */
export async function connectPostgres(url: StoreUrl, connections: number, timeoutMs: number): Promise<PgBackend> {
  const pool = new pg.Pool({ ...clientConfig(url, timeoutMs), max: connections });
  pool.on('error', () => undefined); // an idle client lost: the next query reports it
  // One connection more, of its own: it holds the schema's advisory lock while the probe runs.
  const holder = new pg.Client(clientConfig(url, timeoutMs));
  holder.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
    await holder.connect();
  } catch (e) {
    await pool.end().catch(() => undefined);
    await holder.end().catch(() => undefined);
    throw connectError(url, e);
  }
  return new PgBackend(url, pool, connections, holder);
}

export function clientConfig(url: StoreUrl, timeoutMs: number): pg.ClientConfig {
  return { connectionString: url.url, connectionTimeoutMillis: timeoutMs, query_timeout: 30_000, application_name: 'idem-sim-probe' };
}

export function connectError(url: StoreUrl, e: unknown): StoreError {
  const code = (e as { code?: string }).code;
  const fix = code === '3D000' ? 'Name a database that exists at the end of the URL (postgres://user@host:5432/DATABASE).'
    : code === '28P01' || code === '28000' ? 'Give a user and password PostgreSQL accepts (postgres://user:password@host/database).'
    : 'Start PostgreSQL there, or pass --store with the URL of a PostgreSQL you can reach.';
  return new StoreError(url.display, `cannot connect to PostgreSQL (${reasonOf(e)})`, fix);
}

export class PgBackend implements Backend {
  readonly kind = POSTGRES.kind;
  readonly display: string;
  /** `idem_sim_` and 8 random hex digits: a schema unique to this probe. */
  readonly namespace = `idem_sim_${randomBytes(4).toString('hex')}`;

  private readonly created = new Date();

  constructor(url: StoreUrl, private readonly pool: pg.Pool, readonly connections: number, private readonly holder: pg.Client) {
    this.display = url.display;
  }

  /**
   * Takes the schema's advisory lock (held until this backend closes, or its process dies),
   * then creates the schema, its marker comment and its tables in one transaction: a clean-up
   * never finds the schema without its lock, nor without its marker.
   */
  async create(): Promise<void> {
    const [classId, objId] = lockKey(this.namespace);
    const got = await this.holder.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS got', [classId, objId]);
    if (got.rows[0]?.got !== true) throw new StoreError(this.display, `the schema ${this.namespace} is held by another probe`, 'Run the probe again: it picks a new random schema.');
    await this.holder.query('BEGIN');
    try {
      // Not IF NOT EXISTS: an existing schema is someone's, and the probe never writes there.
      await this.holder.query(`CREATE SCHEMA ${ident(this.namespace)}`).catch((e: unknown) => {
        throw new StoreError(this.display, `cannot create the schema ${this.namespace} (${reasonOf(e)})`,
          'Connect as a user with the CREATE privilege on the database (GRANT CREATE ON DATABASE ... TO ...).');
      });
      await this.holder.query(this.commentSql(BASE_LIFE_MS));
      await this.holder.query(keysTableDdl(this.namespace));
      await this.holder.query(effectsTableDdl(this.namespace));
      await this.holder.query('COMMIT');
    } catch (e) {
      // Nothing was committed, so nothing is left: the caller's clean-up only covers a complete namespace.
      await this.holder.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  async expireIn(lifeMs: number): Promise<void> {
    await this.holder.query(this.commentSql(lifeMs));
  }

  private commentSql(lifeMs: number): string {
    return `COMMENT ON SCHEMA ${ident(this.namespace)} IS ${literal(JSON.stringify(probeMarker(this.created, lifeMs)))}`;
  }

  stores(claim: Claim, transactional: boolean, opts: StoreOptions, tables = TABLES): KeyStore[] {
    const store = claim === 'check_then_act' ? new PgCheckThenActStore(this.pool, this.namespace, opts, transactional, tables)
      : transactional ? new PgTransactionalStore(this.pool, this.namespace, opts, tables)
      : new PgAtomicStore(this.pool, this.namespace, opts, tables);
    // One store over the pool; a copy per connection so that callers spread requests the same way as on Redis.
    return Array.from({ length: this.connections }, () => store);
  }

  async measure(claim: Claim, transactional: boolean, opts: StoreOptions, shape: RecordShape, records: number) {
    await this.pool.query(keysTableDdl(this.namespace, SIZE_TABLES.keys));
    await this.pool.query(effectsTableDdl(this.namespace, SIZE_TABLES.effects));
    try {
      const empty = await this.sizes();
      const saturation = await saturate((observe) => this.stores(claim, transactional, { ...opts, observe }, SIZE_TABLES), shape, records);
      const written = await this.sizes();
      await this.pool.query(`VACUUM FULL ${ident(this.namespace)}.${ident(SIZE_TABLES.keys)}`);
      const compact = await this.sizes();
      const perRow = (after: RelationBytes): RelationBytes => ({
        table: (after.table - empty.table) / records, toast: (after.toast - empty.toast) / records,
        index: (after.index - empty.index) / records, total: (after.total - empty.total) / records,
      });
      const asWritten = perRow(written);
      return {
        bytes: {
          records, bytes_per_record: asWritten.total,
          method: 'pg_total_relation_size per row (heap, TOAST and primary-key index) as the protocol wrote them, before any vacuum',
          postgres: { as_written: asWritten, after_vacuum_full: perRow(compact) },
        },
        saturation,
      };
    } finally {
      for (const table of [SIZE_TABLES.keys, SIZE_TABLES.effects]) await this.pool.query(`DROP TABLE IF EXISTS ${ident(this.namespace)}.${ident(table)}`);
    }
  }

  async drop(): Promise<number> {
    const r = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${ident(this.namespace)}.${ident(TABLES.keys)}`)
      .catch(() => ({ rows: [{ n: '0' }] }));
    await this.pool.query(`DROP SCHEMA IF EXISTS ${ident(this.namespace)} CASCADE`);
    return Number(r.rows[0]?.n ?? 0);
  }

  async close(): Promise<void> {
    await this.holder.end().catch(() => undefined); // and with the connection, the advisory lock
    await this.pool.end();
  }

  private async sizes(): Promise<RelationBytes> {
    const name = `${ident(this.namespace)}.${ident(SIZE_TABLES.keys)}`;
    const r = await this.pool.query<{ table: string; toast: string; index: string; total: string }>(
      `SELECT pg_relation_size(c.oid) AS table,
              coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0) AS toast,
              pg_indexes_size(c.oid) AS index,
              pg_total_relation_size(c.oid) AS total
       FROM pg_class c WHERE c.oid = $1::regclass`, [name]);
    const row = r.rows[0];
    if (!row) throw new Error(`table ${name} not found`);
    return { table: Number(row.table), toast: Number(row.toast), index: Number(row.index), total: Number(row.total) };
  }
}
