/**
 * Effects from a PostgreSQL query (`reconcile --postgres URL --query SQL`): one connection, a
 * READ ONLY transaction with a statement timeout and an idle timeout of its own, and the query
 * read through a cursor (DECLARE ... CURSOR, then FETCH in batches), so that a table of ten
 * million rows runs in the memory of two batches: the one being read and the next, fetched
 * meanwhile. The statement timeout is PostgreSQL's: it bounds each statement, the DECLARE and
 * each FETCH (the first FETCH runs the query's sort or aggregate, if it has one). Column names
 * come from the result's fields; timestamps come as Date (a timestamp without time zone read
 * as UTC, a date as its UTC midnight), integers and floats as numbers (a bigint beyond 2^53 as
 * its text), every other type as PostgreSQL's text. Every failure is an InputError
 * (postgres-failures.ts): no password, no row's value. Loaded only when --postgres is given
 * (pg is left out of the bundle: scripts/build-cli.mjs).
 */
import pg from 'pg';
import { InputError } from '../scenario/errors.js';
import {
  connectFailure, postgresUrl, QUERY_OPTION, queryFailure, type FailureContext, type PostgresUrl,
} from './postgres-failures.js';
import { VALUE_TYPES } from './postgres-values.js';
import type { RawRows, RawValue } from './raw.js';

export const DEFAULT_STATEMENT_TIMEOUT_MS = 5 * 60_000;
/** How long the server waits for the reader between two FETCHes before it ends the session. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const BATCH_ROWS = 10_000;
/** The client's own deadline on an answer, past the server's timeout: a server gone silent (the network lost) still ends. */
const ANSWER_MARGIN_MS = 30_000;

export interface PostgresSource {
  /** As given: its secrets are never shown. */
  url: string;
  /** One SELECT (WITH ... SELECT, VALUES, TABLE). */
  query: string;
  statementTimeoutMs?: number;
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
  batchRows?: number;
}

const CURSOR = 'idem_sim_effects';
/** What the server sees before the query: a syntax error's position is placed in the query by its length. */
const DECLARE = `DECLARE ${CURSOR} NO SCROLL CURSOR FOR `;

/** The rows of `source.query`; the URL and the query are checked here, and nothing connects until the columns are asked for. */
export function postgresRows(source: PostgresSource): RawRows {
  const url = postgresUrl(source.url);
  if (source.query.trim() === '') {
    throw new InputError({ source: QUERY_OPTION }, '', 'is empty', 'Give one SELECT statement, such as --query "SELECT order_line_id, created_at, idempotency_key FROM refunds".');
  }
  return new PostgresRows(url, source);
}

interface Batch { fields: readonly string[]; rows: readonly (readonly RawValue[])[] }

class PostgresRows implements RawRows {
  readonly where = 'the query';
  private readonly settings: Required<Omit<PostgresSource, 'url'>>;
  private client: pg.Client | undefined;
  private opened: Promise<Batch> | undefined;
  private read = false;
  /** Rows received so far, for the words of a failure. */
  private received = 0;
  /** The connection's own error, reported by the client between queries (the server ended the session). */
  private lost: unknown;

  constructor(private readonly url: PostgresUrl, source: PostgresSource) {
    this.settings = {
      query: source.query,
      statementTimeoutMs: source.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      idleTimeoutMs: source.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      connectTimeoutMs: source.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      batchRows: source.batchRows ?? BATCH_ROWS,
    };
  }

  async columns(): Promise<readonly string[]> {
    return (await this.open()).fields;
  }

  async *rows(): AsyncIterable<readonly RawValue[]> {
    if (this.read) throw new Error('the rows of a query are read once');
    this.read = true;
    let batch = await this.open();
    for (;;) {
      const more = batch.rows.length >= this.settings.batchRows;
      // The next batch is fetched while this one is read: two batches in memory at most.
      const next = more ? this.fetch() : undefined;
      next?.catch(() => undefined); // its failure is thrown where it is awaited; a reader that stops early never awaits it
      yield* batch.rows;
      if (next === undefined) return;
      batch = await next;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    // The server rolls the read-only transaction back as the session ends.
    await client?.end().catch(() => undefined);
  }

  private open(): Promise<Batch> {
    this.opened ??= this.start();
    return this.opened;
  }

  private async start(): Promise<Batch> {
    const { statementTimeoutMs, idleTimeoutMs, connectTimeoutMs, query } = this.settings;
    const client = new pg.Client({
      connectionString: this.url.url, connectionTimeoutMillis: connectTimeoutMs, query_timeout: statementTimeoutMs + ANSWER_MARGIN_MS,
      keepAlive: true, keepAliveInitialDelayMillis: 10_000, application_name: 'idem-sim-reconcile', types: VALUE_TYPES,
    });
    client.on('error', (e) => { this.lost ??= e; });
    this.client = client;
    try {
      await client.connect();
    } catch (e) {
      await this.close();
      throw connectFailure(this.url, e);
    }
    // DateStyle's output ISO (its field order for input, which the query's literals use, kept): the times' text as the values read it.
    await this.run(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.round(statementTimeoutMs)}; `
      + `SET LOCAL idle_in_transaction_session_timeout = ${Math.round(idleTimeoutMs)}; SET LOCAL DateStyle = ISO`);
    // The extended protocol takes one statement only: `SELECT 1; DELETE ...` is refused, not run.
    await this.run({ text: `${DECLARE}${query}`, queryMode: 'extended' } as pg.QueryConfig);
    return this.fetch();
  }

  private async fetch(): Promise<Batch> {
    const r = await this.run({ text: `FETCH FORWARD ${this.settings.batchRows} FROM ${CURSOR}`, rowMode: 'array' } as pg.QueryArrayConfig);
    this.received += r.rows.length;
    return { fields: r.fields.map((f) => f.name), rows: r.rows as RawValue[][] };
  }

  /** One statement; its failure as an InputError, the connection closed. */
  private async run(query: string | pg.QueryConfig): Promise<pg.QueryResult> {
    const client = this.client;
    try {
      if (client === undefined) throw new Error('Connection terminated: the source was closed');
      return await client.query(query as pg.QueryConfig);
    } catch (e) {
      const context: FailureContext = {
        url: this.url, statementTimeoutMs: this.settings.statementTimeoutMs, idleTimeoutMs: this.settings.idleTimeoutMs,
        prefixLength: typeof query === 'string' || !query.text.startsWith(DECLARE) ? 0 : DECLARE.length, rows: this.received,
      };
      // A session the server ended says why in the connection's error; the query's says only "not queryable".
      const failure = queryFailure(this.lost ?? e, context);
      await this.close();
      throw failure;
    }
  }
}
