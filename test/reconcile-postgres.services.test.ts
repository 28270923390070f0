/**
 * Issue 35, item 2's PostgreSQL source (src/reconcile/postgres.ts) against the real PostgreSQL:
 * effects read back through a cursor in a read-only transaction, with their columns and types;
 * and each failure an InputError (exit 2) of one line that shows no password and no row's
 * value: a query that fails, a missing column, a value PostgreSQL cannot convert, a statement
 * timeout, an idle timeout, a connection the server ends mid-stream, a refused connection, an
 * unknown user, a missing database. The tables live in a schema of this file's own; the small
 * one is loaded with COPY FROM STDIN (pg-copy.ts), the large one made by generate_series.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresRows, type PostgresSource } from '../src/reconcile/postgres.js';
import type { RawRows, RawValue } from '../src/reconcile/raw.js';
import { InputError } from '../src/scenario/errors.js';
import { copyFrom } from './pg-copy.js';
import { POSTGRES_URL, SECRET } from './store-helpers.js';

const SCHEMA = 'reconcile_pg_test';
const T = `${SCHEMA}.effects`;
/** The tests' URL with a password in it (trust auth ignores it): no message may show it. */
const URL_WITH_SECRET = (() => {
  const u = new URL(POSTGRES_URL);
  u.password = SECRET;
  return u.toString();
})();
const source = (query: string, more: Partial<PostgresSource> = {}): RawRows => postgresRows({ url: URL_WITH_SECRET, query, ...more });

let pool: pg.Pool;
beforeAll(async () => {
  pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
  await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await pool.query(`CREATE SCHEMA ${SCHEMA}`);
  await pool.query(`CREATE TABLE ${T} (business_key text, at timestamptz, idempotency_key text, tool text, local_at timestamp, amount int, big bigint, paid boolean)`);
  const client = await pool.connect();
  try {
    // As an export is loaded (run --effects-out's CSV): an empty field is NULL.
    expect(await copyFrom(client, `COPY ${T} FROM STDIN (FORMAT csv, HEADER true)`, [
      'business_key,at,idempotency_key,tool,local_at,amount,big,paid',
      'order-1,2026-01-01T00:00:01.250Z,k-1,refund,2026-01-01 00:00:01.25,100,9007199254740993,true',
      'order-1,2026-01-01T00:00:31.000Z,k-2,refund,2026-01-01 00:00:31,100,12,false',
      'order-2,2026-01-01T00:05:00.000Z,,refund,,,,',
    ].join('\n'))).toBe(3);
    await expect(copyFrom(client, `COPY ${T} FROM STDIN (FORMAT csv)`, 'order-3,not a time,,,,,,\n')).rejects.toThrow(/invalid input syntax for type timestamp with time zone/);
  } finally {
    client.release();
  }
  await pool.query(`CREATE TABLE ${SCHEMA}.big AS SELECT 'order-' || (g % 1000) AS business_key, timestamptz '2026-01-01' + g * interval '1 second' AS at, g AS n FROM generate_series(1, 25000) g`);
  await pool.query(`CREATE SEQUENCE ${SCHEMA}.s`);
});
afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await pool.end();
});

async function readAll(rows: RawRows): Promise<{ columns: readonly string[]; rows: (readonly RawValue[])[] }> {
  try {
    const columns = await rows.columns();
    const read: (readonly RawValue[])[] = [];
    for await (const row of rows.rows()) read.push(row);
    return { columns, rows: read };
  } finally {
    await rows.close();
  }
}

/** The InputError reading `rows` ends with; its message one line, with no password in it. */
async function failure(rows: RawRows | (() => RawRows)): Promise<string> {
  let error: unknown;
  try {
    await readAll(typeof rows === 'function' ? rows() : rows);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InputError);
  const message = (error as Error).message;
  expect(message).not.toContain(SECRET);
  expect(message).not.toContain('\n');
  return message;
}

/** Whether a backend is connected now. */
const connected = async (pid: number): Promise<boolean> => (await pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount === 1;

/** Whether a backend is gone within a second (a closed source's session ends as the server reads its goodbye). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (!(await connected(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

describe('the PostgreSQL source reads effects', () => {
  it('columns from the result, times as Date (a timestamp without zone as UTC), numbers, null, and other types as text', async () => {
    const got = await readAll(source(`SELECT business_key, at, idempotency_key, tool, local_at, amount, big, paid, big AS "Big" FROM ${T} ORDER BY at`));
    expect(got.columns).toEqual(['business_key', 'at', 'idempotency_key', 'tool', 'local_at', 'amount', 'big', 'paid', 'Big']);
    expect(got.rows).toEqual([
      ['order-1', new Date('2026-01-01T00:00:01.250Z'), 'k-1', 'refund', new Date('2026-01-01T00:00:01.250Z'), 100, '9007199254740993', 't', '9007199254740993'],
      ['order-1', new Date('2026-01-01T00:00:31.000Z'), 'k-2', 'refund', new Date('2026-01-01T00:00:31.000Z'), 100, 12, 'f', 12],
      ['order-2', new Date('2026-01-01T00:05:00.000Z'), null, 'refund', null, null, null, null, null],
    ]);
  });

  it('a date as its UTC midnight, epoch seconds as a number, infinity as its text, whatever the session time zone', async () => {
    const got = await readAll(source("SELECT date '2026-03-01' AS d, extract(epoch FROM timestamptz '2026-01-01T00:00:01.5Z') AS e, timestamptz 'infinity' AS i, interval '90 seconds' AS gap",
      { url: `${URL_WITH_SECRET}?options=${encodeURIComponent('-c TimeZone=Asia/Tokyo')}` }));
    expect(got.rows).toEqual([[new Date('2026-03-01T00:00:00Z'), 1767225601.5, 'infinity', '00:01:30']]);
  });

  it('streams a table of several batches in order (25,000 rows: two full batches of 10,000 and a last of 5,000), and one of exact batches', async () => {
    const got = await readAll(source(`SELECT business_key, at, n FROM ${SCHEMA}.big ORDER BY n`));
    expect(got.rows.length).toBe(25_000);
    expect(got.rows.map((r) => r[2])).toEqual(Array.from({ length: 25_000 }, (_, i) => i + 1));
    expect(got.rows[24_999]).toEqual(['order-0', new Date(Date.parse('2026-01-01T00:00:00Z') + 25_000_000), 25_000]);
    const exact = await readAll(source(`SELECT n FROM ${SCHEMA}.big WHERE n <= 20000`, { batchRows: 5_000 }));
    expect(exact.rows.length).toBe(20_000);
    const none = await readAll(source(`SELECT n, at FROM ${SCHEMA}.big WHERE false`));
    expect(none).toEqual({ columns: ['n', 'at'], rows: [] });
  });

  it('releases its connection when closed, whether or not the rows were all read', async () => {
    const rows = source(`SELECT pg_backend_pid() AS pid, n FROM ${SCHEMA}.big`);
    await rows.columns();
    let pid = 0;
    for await (const row of rows.rows()) {
      pid = row[0] as number;
      break;
    }
    expect(await connected(pid)).toBe(true);
    await rows.close();
    expect(await gone(pid)).toBe(true);
  });

  it('runs the query read-only, one statement only: nothing it asks to change is changed', async () => {
    expect(await failure(source(`SELECT nextval('${SCHEMA}.s')`))).toMatch(/^--query: PostgreSQL cannot run it \(cannot execute nextval\(\) in a read-only transaction, 25006\)\. The query runs in a read-only transaction: give one that changes nothing\.$/);
    expect(await failure(source(`SELECT 1; DELETE FROM ${T}`))).toMatch(/^--query: PostgreSQL cannot run it \(cannot insert multiple commands into a prepared statement, 42601\)\. Give one SELECT statement/);
    expect(await failure(source(`DELETE FROM ${T} RETURNING *`))).toContain('syntax error at or near "DELETE", 42601, at character 1 of the query');
    expect((await pool.query(`SELECT count(*)::int AS n FROM ${T}`)).rows[0]).toEqual({ n: 3 });
  });
});

describe('each failure is one sentence of bad input (exit 2), with no password and no row\'s value', () => {
  it('a query PostgreSQL cannot run: a syntax error placed in the query, a missing table, a missing column with its hint', async () => {
    expect(await failure(source(`SELECT business_key FROM ${T} WHER at > now()`))).toBe(
      '--query: PostgreSQL cannot run it (syntax error at or near "at", 42601, at character 57 of the query). Give one SELECT statement (WITH ... SELECT, VALUES and TABLE also serve): reconcile reads it through a cursor in a read-only transaction.');
    expect(await failure(source('SELECT * FROM refunds_nowhere'))).toBe(
      '--query: PostgreSQL cannot run it (relation "refunds_nowhere" does not exist, 42P01, at character 15 of the query). Name a table the database has (schema-qualified, such as billing.refunds, if it is not on the search path), or connect to the database that holds it.');
    expect(await failure(source(`SELECT e.created_at FROM ${T} e`))).toBe(
      '--query: PostgreSQL cannot run it (column e.created_at does not exist, 42703, at character 8 of the query). Name columns the query\'s tables have (psql\'s \\d TABLE lists them).');
    expect(await failure(source(`SELECT busines_key FROM ${T}`))).toContain('(column "busines_key" does not exist, 42703, at character 8 of the query; Perhaps you meant to reference the column "effects.business_key".)');
    expect(await failure(() => source('   '))).toMatch(/^--query: is empty\. Give one SELECT statement/);
  });

  it('a value PostgreSQL cannot convert: the code and the rows read before it, never the value', async () => {
    const message = await failure(source(`SELECT n, CASE WHEN n = 15000 THEN 'order-secret-value' ELSE n::text END::int AS x FROM ${SCHEMA}.big`));
    expect(message).toBe('--query: PostgreSQL stopped it after 10,000 rows at a value it could not convert or compute (SQLSTATE 22P02; the server\'s message is not shown: it may quote a row\'s value). Check the casts and arithmetic of the query against the data (psql shows the full message).');
  });

  it('a statement timeout: PostgreSQL cancels the query, and the message says which timeout and how to allow longer', async () => {
    expect(await failure(source('SELECT pg_sleep(5)', { statementTimeoutMs: 200 }))).toBe(
      '--query: took longer than the statement timeout of 200ms, and PostgreSQL cancelled it (canceling statement due to statement timeout, 57014). Allow longer with --statement-timeout (such as --statement-timeout 30m), or make the query cheaper (a WHERE on an indexed time column, a shorter span).');
  });

  it('a connection the server ends mid-stream (pg_terminate_backend): lost after the rows read so far', async () => {
    const rows = source(`SELECT pg_backend_pid() AS pid, n FROM ${SCHEMA}.big ORDER BY n`, { batchRows: 1_000 });
    let error: unknown;
    let read = 0;
    try {
      await rows.columns();
      for await (const row of rows.rows()) {
        if (++read === 1) await pool.query('SELECT pg_terminate_backend($1)', [row[0]]);
      }
    } catch (e) {
      error = e;
    } finally {
      await rows.close();
    }
    expect(error).toBeInstanceOf(InputError);
    const text = (error as Error).message;
    expect(text).not.toContain(SECRET);
    expect(text).toMatch(/^--postgres postgres:\/\/postgres:\*\*\*\*@127\.0\.0\.1:5432\/test: lost the connection to PostgreSQL after [\d,]+ rows \(terminating connection due to administrator command, 57P01\)\. Run it again; if it recurs, ask the database's operators what ends long sessions/);
    expect(read).toBeLessThan(25_000);
  });

  it('an idle reader: PostgreSQL ends the session after the idle timeout, and the message says so', async () => {
    const rows = source(`SELECT n FROM ${SCHEMA}.big`, { idleTimeoutMs: 200, batchRows: 1_000 });
    let error: unknown;
    try {
      await rows.columns();
      for await (const row of rows.rows()) if (row[0] === 1) await new Promise((resolve) => setTimeout(resolve, 1_000));
    } catch (e) {
      error = e;
    } finally {
      await rows.close();
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/^--postgres postgres:\/\/postgres:\*\*\*\*@127\.0\.0\.1:5432\/test: PostgreSQL ended the session after 2,000 rows: the reader was idle in its transaction for longer than 200ms \(terminating connection due to idle-in-transaction timeout, 25P03\)\. /);
  });

  it('a refused connection, an unknown user and a missing database: the URL with its password hidden, and the fix', async () => {
    const at = (change: (u: URL) => void) => {
      const u = new URL(URL_WITH_SECRET);
      change(u);
      return u.toString();
    };
    expect(await failure(() => postgresRows({ url: at((u) => { u.port = '1'; }), query: 'SELECT 1' }))).toBe(
      '--postgres postgres://postgres:****@127.0.0.1:1/test: cannot connect to PostgreSQL (connect ECONNREFUSED 127.0.0.1:1). Start PostgreSQL there, or give --postgres the URL of a PostgreSQL you can reach.');
    expect(await failure(() => postgresRows({ url: at((u) => { u.username = 'nobody_here'; }), query: 'SELECT 1' }))).toMatch(
      /^--postgres postgres:\/\/nobody_here:\*\*\*\*@127\.0\.0\.1:5432\/test: cannot connect to PostgreSQL \((role "nobody_here" does not exist, 28000|password authentication failed for user "nobody_here", 28P01)\)\. Give a user and password PostgreSQL accepts: in the URL, or the password in PGPASSWORD or ~\/\.pgpass\.$/);
    expect(await failure(() => postgresRows({ url: at((u) => { u.pathname = '/no_such_database_here'; }), query: 'SELECT 1' }))).toBe(
      '--postgres postgres://postgres:****@127.0.0.1:5432/no_such_database_here: cannot connect to PostgreSQL (database "no_such_database_here" does not exist, 3D000). Name a database that exists at the end of the URL (postgres://user@host:5432/DATABASE).');
  });
});
