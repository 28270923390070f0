/**
 * `idem-sim reconcile --postgres URL --query SQL` against the real PostgreSQL, through the command
 * line in this process: the effects of bundled missions (`run --effects-out`) loaded into a table
 * with COPY, as an export is loaded, read back by the query and by the file, give the same
 * readings (the JSON equal but for `source`); and what goes wrong through the command (a column
 * the query lacks, a query PostgreSQL cannot run, a statement timeout) ends with exit 2 and one
 * sentence that shows no password, though the URL given has one; with a gate (--expect), the
 * query's readings are judged, and a failure is in the gate's reports too, with no password.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captured } from './command-line.js';
import { ROOT } from './helpers.js';
import { copyFrom } from './pg-copy.js';
import { idem, POSTGRES_URL, SECRET } from './store-helpers.js';

const SCHEMA = 'reconcile_command_test';
const URL_WITH_SECRET = (() => {
  const u = new URL(POSTGRES_URL);
  u.password = SECRET;
  return u.toString();
})();

/** Bundled missions, each with what reconcile is given beside its effects. */
const MISSIONS = [
  { name: 'blind_retries', file: 'mission-1-blind-retries.yaml', options: [] },
  { name: 'crash_replays', file: 'mission-3-crash-replays.yaml', options: ['--retention', '5m'] },
  { name: 'slack_redelivery', file: 'mission-5-slack-redelivery.yaml', options: ['--window', '2h'] },
] as const;

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-reconcile-pg-'));
const csvOf = (name: string) => join(dir, `${name}.csv`);
const queryOf = (name: string) => `SELECT business_key, at, idempotency_key, tool FROM ${SCHEMA}.${name} ORDER BY at, n`;

let pool: pg.Pool;
beforeAll(async () => {
  pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
  await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await pool.query(`CREATE SCHEMA ${SCHEMA}`);
  for (const m of MISSIONS) {
    const run = await captured(['run', join(ROOT, 'scenarios', m.file), '--actions', '4000', '--effects-out', csvOf(m.name)]);
    expect(run.status).toBe(0);
    // A production table as effects are kept: a row number (ties in time keep the export's order), the rows, the truth beside them.
    await pool.query(`CREATE TABLE ${SCHEMA}.${m.name} (n bigint GENERATED ALWAYS AS IDENTITY, business_key text, at timestamptz, idempotency_key text, tool text, truth_action text, truth_duplicate int, truth_source text)`);
    const client = await pool.connect();
    try {
      const copied = await copyFrom(client, `COPY ${SCHEMA}.${m.name} (business_key, at, idempotency_key, tool, truth_action, truth_duplicate, truth_source) FROM STDIN (FORMAT csv, HEADER true)`, readFileSync(csvOf(m.name)));
      expect(copied).toBe(readFileSync(csvOf(m.name), 'utf8').trimEnd().split('\n').length - 1);
    } finally {
      client.release();
    }
  }
});
afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await pool.end();
  rmSync(dir, { recursive: true, force: true });
});

describe('reconcile --postgres reads what the file holds, with the same readings', () => {
  for (const m of MISSIONS) {
    it(`${m.file}: the query's readings are the file's`, async () => {
      const fromDb = await captured(['reconcile', '--postgres', URL_WITH_SECRET, '--query', queryOf(m.name), ...m.options, '--format', 'json']);
      const fromFile = await captured(['reconcile', csvOf(m.name), ...m.options, '--format', 'json']);
      expect([fromDb.status, fromDb.stderr, fromFile.status]).toEqual([0, '', 0]);
      const [db, file] = [JSON.parse(fromDb.stdout), JSON.parse(fromFile.stdout)];
      expect([db.source, file.source]).toEqual(['the query', csvOf(m.name)]);
      expect({ ...db, source: null }).toEqual({ ...file, source: null });
      expect(fromDb.stdout).not.toContain(SECRET);
      // Every duplicate the run made is found (none past the window here), and no other.
      const truth = await pool.query(`SELECT count(*) FILTER (WHERE truth_duplicate = 1)::int AS duplicates, count(*)::int AS effects FROM ${SCHEMA}.${m.name}`);
      expect({ effects: db.overall.effects, duplicates: db.overall.duplicates }).toEqual(truth.rows[0]);
      expect(db.overall.duplicates).toBeGreaterThan(0);
    });
  }

  it('the missions together, a tool each: each tool\'s readings are its file\'s', async () => {
    const union = MISSIONS.map((m) => `SELECT business_key, at, idempotency_key, tool, n, '${m.name}' AS t FROM ${SCHEMA}.${m.name}`).join(' UNION ALL ');
    const query = `SELECT business_key, at, idempotency_key, tool FROM (${union}) e ORDER BY at, t, n`;
    const options = ['--retention', '5m', '--window', '2h', '--format', 'json'];
    const db = await captured(['reconcile', '--postgres', URL_WITH_SECRET, '--query', query, ...options]);
    expect(db.status).toBe(0);
    const doc = JSON.parse(db.stdout);
    expect(doc.tools.map((t: { name: string }) => t.name).sort()).toEqual(MISSIONS.map((m) => m.file.replace('.yaml', '')));
    const pick = ({ effects, business_keys, duplicates, diagnosis, gaps, top_keys }: Record<string, unknown>) => ({ effects, business_keys, duplicates, diagnosis, gaps, top_keys });
    for (const m of MISSIONS) {
      const file = JSON.parse((await captured(['reconcile', csvOf(m.name), ...options])).stdout);
      expect(pick(doc.tools.find((t: { name: string }) => `${t.name}.yaml` === m.file))).toEqual(pick(file.overall));
    }
    expect(doc.overall.duplicates).toBe(doc.tools.reduce((n: number, t: { duplicates: number }) => n + t.duplicates, 0));
  });
});

describe('reconcile --postgres: each failure exit 2, one sentence, no password', () => {
  const failure = async (args: string[]): Promise<string> => {
    const r = await idem(['reconcile', '--postgres', URL_WITH_SECRET, ...args]);
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).toMatch(/^idem-sim: error: [^\n]+\n$/);
    return r.stderr.replace(/^idem-sim: error: |\n$/g, '');
  };

  it('a column the query does not have', async () => {
    expect(await failure(['--query', queryOf('blind_retries'), '--time-column', 'created_at'])).toBe(
      'the query: has no column created_at, which --time-column names: its columns are business_key, at, idempotency_key, tool. Name one of its columns with --time-column.');
  });

  it('a query PostgreSQL cannot run: a missing table, a syntax error', async () => {
    expect(await failure(['--query', `SELECT business_key, at FROM ${SCHEMA}.refunds`])).toBe(
      `--query: PostgreSQL cannot run it (relation "${SCHEMA}.refunds" does not exist, 42P01, at character 30 of the query). Name a table the database has (schema-qualified, such as billing.refunds, if it is not on the search path), or connect to the database that holds it.`);
    expect(await failure(['--query', `SELECT business_key at FROM ${SCHEMA}.blind_retries ORDER`])).toMatch(/^--query: PostgreSQL cannot run it \(syntax error at end of input, 42601, at character \d+ of the query\)\. Give one SELECT statement/);
  });

  it('a statement timeout given with --statement-timeout', async () => {
    expect(await failure(['--query', 'SELECT pg_sleep(3) AS business_key, now() AS at', '--statement-timeout', '300ms'])).toBe(
      '--query: took longer than the statement timeout of 300ms, and PostgreSQL cancelled it (canceling statement due to statement timeout, 57014). Allow longer with --statement-timeout (such as --statement-timeout 30m), or make the query cheaper (a WHERE on an indexed time column, a shorter span).');
  });

  it('a URL that cannot be reached: the password hidden in the URL shown', async () => {
    const u = new URL(URL_WITH_SECRET);
    u.port = '1';
    const r = await idem(['reconcile', '--postgres', u.toString(), '--query', 'SELECT 1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`idem-sim: error: --postgres postgres://${u.username}:****@${u.hostname}:1${u.pathname}: cannot connect to PostgreSQL (connect ECONNREFUSED ${u.hostname}:1). Start PostgreSQL there, or give --postgres the URL of a PostgreSQL you can reach.\n`);
  });

  it('with a gate, the failure is in its reports too, the password in none of them', async () => {
    const junit = join(dir, 'gate.xml');
    const summary = join(dir, 'gate.md');
    const r = await idem(['reconcile', '--postgres', URL_WITH_SECRET, '--query', `SELECT * FROM ${SCHEMA}.refunds`, '--expect', 'duplicates_per_1000 <= 5', '--format', 'github', '--junit', junit, '--summary', summary]);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/^::error title=idem-sim reconcile%3A not checked::--query: PostgreSQL cannot run it \(relation "reconcile_command_test\.refunds" does not exist/);
    for (const text of [r.stdout, r.stderr, readFileSync(junit, 'utf8'), readFileSync(summary, 'utf8')]) expect(text).not.toContain(SECRET);
    expect(readFileSync(junit, 'utf8')).toContain('<testsuite name="the query" tests="1" failures="0" errors="1">');
  });

  it('with a gate that passes and one that fails: exit 0 and 1 on the query\'s readings', async () => {
    const args = (threshold: string) => ['--query', queryOf('crash_replays'), '--retention', '5m', '--expect', `diagnosis.same_key_after_expiry ${threshold}`];
    const [pass, fail] = [await idem(['reconcile', '--postgres', URL_WITH_SECRET, ...args('> 0')]), await idem(['reconcile', '--postgres', URL_WITH_SECRET, ...args('== 0')])];
    expect([pass.status, fail.status]).toEqual([0, 1]);
    expect(fail.stdout).toMatch(/│ all tools │ diagnosis\.same_key_after_expiry │ == 0 +│ +\d+ │ FAIL +│\n└[─┴]+┘\nthe expectation fails\n$/);
  });
});
