/**
 * Issue 12, items 3, 4, 6 and the probe's part of 7, against the real Redis and PostgreSQL: the
 * probe's report shows no password; a refused URL option writes nothing; a signal removes what
 * the probe created; what a SIGKILL leaves expires and `probe --clean-up` removes it (and nothing
 * else). Clean-up tests run in a Redis database and a PostgreSQL database of their own
 * (store-helpers.ts says why). The checks that need no store are in stores-hardening.test.ts.
 */
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_LIFE_MS } from '../src/stores/lifetime.js';
import { openBackend } from '../src/stores/open.js';
import { BIN } from './helpers.js';
import {
  idem, ISOLATED_POSTGRES_DB, ISOLATED_POSTGRES_URL, ISOLATED_REDIS_URL, POSTGRES_URL, redisKeys, scenarioFile, SECRET, SLOW_YAML,
} from './store-helpers.js';

const SLOW = scenarioFile('slow.yaml', SLOW_YAML);

/** The namespaces of a store now. */
async function namespaces(redis: Redis, pool: pg.Pool): Promise<Set<string>> {
  const found = new Set((await redisKeys(redis, 'idem-sim:')).map((k) => k.slice(0, 'idem-sim:12345678:'.length)));
  for (const row of (await pool.query<{ n: string }>("SELECT nspname AS n FROM pg_namespace WHERE nspname LIKE 'idem\\_sim\\_%'")).rows) found.add(row.n);
  return found;
}

let redis: Redis;
let pool: pg.Pool;
beforeAll(async () => {
  const admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
  try {
    await admin.query(`CREATE DATABASE ${ISOLATED_POSTGRES_DB}`);
  } catch (e) {
    if ((e as { code?: string }).code !== '42P04') throw e; // 42P04: it exists already
  } finally {
    await admin.end();
  }
  redis = new Redis(ISOLATED_REDIS_URL);
  pool = new pg.Pool({ connectionString: ISOLATED_POSTGRES_URL, max: 2 });
});
afterAll(async () => {
  redis.disconnect();
  await pool.end();
});

const cleanUp = (url: string, force = false) => idem(['probe', '--clean-up', ...(force ? ['--force'] : []), '--store', url, '--json']);
interface CleanUpJson { removed: { namespace: string; objects: number }[]; left: { namespace: string; reason: string }[] }
const cleanUpJson = async (url: string, force = false): Promise<CleanUpJson> => {
  const r = await cleanUp(url, force);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as CleanUpJson;
};

describe('credentials in store URLs are never shown', () => {
  it('the probe report, its replay line and JSON show no password (Redis ?password=, PostgreSQL user:password@ and ?password=)', async () => {
    const redis = `${ISOLATED_REDIS_URL}?password=${SECRET}`;
    const u = new URL(ISOLATED_POSTGRES_URL);
    u.password = SECRET;
    u.searchParams.set('password', `${SECRET}2`);
    for (const url of [redis, u.toString()]) {
      for (const json of [[], ['--json']]) {
        const r = await idem(['probe', SLOW, '--store', url, '--actions', '4', '--speedup', '4', '--records', '60', ...json]);
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout + r.stderr).not.toContain(SECRET);
        expect(r.stdout).toMatch(/password=\*\*\*\*/);
        expect(r.stdout).toMatch(json.length ? /"replay": "idem-sim probe .*--store .*\*\*\*\*/ : /replay: idem-sim probe .*--store .*\*\*\*\*/);
      }
    }
  });
});

describe('URL options that change the namespace or override the probe are refused', () => {
  it('a probe with ?keyPrefix= exits 2 and writes nothing (not in idem-sim:*, not under the prefix)', async () => {
    const redis = new Redis(ISOLATED_REDIS_URL);
    try {
      const before = (await redisKeys(redis, '')).length;
      const r = await idem(['probe', SLOW, '--store', `${ISOLATED_REDIS_URL}?keyPrefix=elsewhere:`, '--actions', '4']);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^idem-sim: error: --store .*keyPrefix.*\n$/);
      expect((await redisKeys(redis, '')).length).toBe(before);
    } finally {
      redis.disconnect();
    }
  });
});

describe('sizes are checked before anything is allocated', () => {
  it('a stream that would take more than 24 hours of real time is refused before it writes anything', async () => {
    const r = await idem(['probe', SLOW, '--store', ISOLATED_REDIS_URL, '--actions', '1000', '--speedup', '0.0001']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--speedup 0\.0001: .*hours of real time.*at most 24 hours/);
  });
});

describe('what a probe creates expires, and --clean-up removes it and nothing else', () => {
  it('Redis: every key has a TTL of at most the namespace life, the effects hash included, whatever the retention', async () => {
    const r = await idem(['probe', SLOW, '--store', ISOLATED_REDIS_URL, '--actions', '6', '--speedup', '4', '--keep', '--json', '--records', '60', '--set', 'idempotency.retention=30d']);
    expect(r.status, r.stderr).toBe(0);
    const ns = (JSON.parse(r.stdout) as { store: { namespace: string } }).store.namespace;
    const keys = await redisKeys(redis, ns);
    expect(keys).toContain(`${ns}effects`);
    expect(keys).toContain(`${ns}probe`);
    expect(keys).not.toContain(`${ns}lease`); // removed when the probe closed
    for (const k of keys) {
      const ttl = await redis.pttl(k);
      expect(ttl, k).toBeGreaterThan(0);
      expect(ttl, k).toBeLessThanOrEqual(BASE_LIFE_MS + 60_000); // 1 h plus twice a replay of a second or two
    }
    expect((await cleanUpJson(ISOLATED_REDIS_URL)).left).toContainEqual({ namespace: ns, reason: expect.stringMatching(/^it expires at .*--force/) });
    expect((await cleanUpJson(ISOLATED_REDIS_URL, true)).removed).toContainEqual({ namespace: ns, objects: keys.length });
    expect(await redisKeys(redis, ns)).toEqual([]);
  });

  it('PostgreSQL: the schema carries its expiry; --clean-up leaves it until then, --force removes it', async () => {
    const r = await idem(['probe', SLOW, '--store', ISOLATED_POSTGRES_URL, '--actions', '6', '--speedup', '4', '--keep', '--json', '--records', '60']);
    expect(r.status, r.stderr).toBe(0);
    const ns = (JSON.parse(r.stdout) as { store: { namespace: string } }).store.namespace;
    const comment = await pool.query<{ c: string }>("SELECT obj_description($1::regnamespace, 'pg_namespace') AS c", [ns]);
    const marker = JSON.parse(comment.rows[0]?.c ?? '{}') as { tool: string; expires: string };
    expect(marker.tool).toBe('idem-sim');
    expect(Date.parse(marker.expires) - Date.now()).toBeGreaterThan(BASE_LIFE_MS - 60_000);
    expect((await cleanUpJson(ISOLATED_POSTGRES_URL)).left).toContainEqual({ namespace: ns, reason: expect.stringMatching(/^it expires at/) });
    expect((await cleanUpJson(ISOLATED_POSTGRES_URL, true)).removed).toContainEqual({ namespace: ns, objects: 6 });
    expect((await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [ns])).rowCount).toBe(0);
  });

  it('never removes a namespace a running probe holds, nor anything that is not the probe\'s', async () => {
    const held = await Promise.all([openBackend(ISOLATED_REDIS_URL, 1), openBackend(ISOLATED_POSTGRES_URL, 1)]);
    try {
      for (const b of held) await b.create();
      // An expired marker, but a table the probe never makes; a schema of the name with no marker; keys of the wrong type or name.
      await pool.query(`CREATE SCHEMA idem_sim_0badc0de; CREATE TABLE idem_sim_0badc0de.idempotency_keys (key text); CREATE TABLE idem_sim_0badc0de.payroll (x int);
        COMMENT ON SCHEMA idem_sim_0badc0de IS '{"tool":"idem-sim","kind":"probe","created":"2020-01-01T00:00:00Z","expires":"2020-01-01T01:00:00Z"}';
        CREATE SCHEMA idem_sim_0badf00d; CREATE SCHEMA idem_sim_keep_me`);
      await redis.rpush('idem-sim:0badc0de:k:x', 'a list');
      await redis.set('idem-sim:0badf00d:mine', 'not the probe\'s');
      // A SIGKILLed measurement's keys (PERSISTed, no marker): expired, the probe's: removed.
      await redis.set('idem-sim:00c0ffee:m:k:m1-0000', '{"s":"d","f":"f","t":1,"c":200,"b":"x"}');
      await redis.hset('idem-sim:00c0ffee:m:effects', 'measure', 1);
      for (const [url, force] of [[ISOLATED_REDIS_URL, true], [ISOLATED_POSTGRES_URL, true], [ISOLATED_REDIS_URL, false], [ISOLATED_POSTGRES_URL, false]] as const) {
        const report = await cleanUpJson(url, force);
        const left = new Map(report.left.map((l) => [l.namespace, l.reason]));
        const [backend] = url === ISOLATED_REDIS_URL ? held : held.slice(1);
        if (force) expect(left.get(backend!.namespace)).toMatch(/a running probe holds it/);
        if (url === ISOLATED_REDIS_URL) {
          expect(left.get('idem-sim:0badc0de:')).toMatch(/not a key the probe writes/);
          expect(left.get('idem-sim:0badf00d:')).toMatch(/not a key the probe writes/);
        } else {
          expect(left.get('idem_sim_0badc0de')).toMatch(/holds the relation payroll/);
          expect(left.get('idem_sim_0badf00d')).toMatch(/no idem-sim marker/);
          expect(left.has('idem_sim_keep_me')).toBe(false); // not the probe's name pattern: not even looked at
        }
      }
      expect(await redis.exists('idem-sim:0badc0de:k:x', 'idem-sim:0badf00d:mine', 'idem-sim:00c0ffee:m:k:m1-0000')).toBe(2);
      expect((await pool.query("SELECT 1 FROM pg_namespace WHERE nspname IN ('idem_sim_0badc0de', 'idem_sim_0badf00d', 'idem_sim_keep_me')")).rowCount).toBe(3);
    } finally {
      for (const b of held) { await b.drop(); await b.close(); }
      await redis.del('idem-sim:0badc0de:k:x', 'idem-sim:0badf00d:mine');
      await pool.query('DROP SCHEMA IF EXISTS idem_sim_0badc0de CASCADE; DROP SCHEMA IF EXISTS idem_sim_0badf00d; DROP SCHEMA IF EXISTS idem_sim_keep_me');
    }
  });

  it('--clean-up takes only --store, --force and --json', async () => {
    expect((await idem(['probe', '--clean-up'])).stderr).toMatch(/--clean-up: --store is missing/);
    expect((await idem(['probe', SLOW, '--clean-up', '--store', ISOLATED_REDIS_URL])).stderr).toMatch(/not a scenario/);
    expect((await idem(['probe', '--clean-up', '--keep', '--store', ISOLATED_REDIS_URL])).stderr).toMatch(/not --keep/);
  });
});

/** Starts the real binary probing `url`; resolves once its replay runs (the namespace exists and holds keys), with its namespace. */
async function startProbe(url: string): Promise<{ child: ReturnType<typeof spawn>; namespace: string; exited: Promise<{ code: number | null; signal: string | null; stderr: string }> }> {
  const before = await namespaces(redis, pool);
  const child = spawn(process.execPath, [BIN, 'probe', SLOW, '--store', url, '--actions', '400', '--speedup', '1', '--records', '100'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => { stderr += String(d); });
  const exited = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`the probe did not start: ${stderr}`);
    const fresh = [...(await namespaces(redis, pool))].filter((n) => !before.has(n));
    const ns = fresh[0];
    // The replay has started once a request's record is in (the measurement writes under m: and its own tables).
    if (ns !== undefined && (url.startsWith('redis')
      ? (await redisKeys(redis, `${ns}k:`)).length > 0
      : ((await pool.query(`SELECT 1 FROM "${ns}".idempotency_keys LIMIT 1`).catch(() => ({ rowCount: 0 }))).rowCount ?? 0) > 0)) {
      return { child, namespace: ns, exited };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const gone = async (url: string, ns: string): Promise<boolean> => (url.startsWith('redis')
  ? (await redisKeys(redis, ns)).length === 0
  : (await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [ns])).rowCount === 0);

describe('signals: the probe removes what it created (the real binary, mid-replay)', () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    for (const url of [ISOLATED_REDIS_URL, ISOLATED_POSTGRES_URL]) {
      it(`${signal} on ${url.startsWith('redis') ? 'Redis' : 'PostgreSQL'}: exit ${code}, namespace removed`, async () => {
        const { child, namespace, exited } = await startProbe(url);
        child.kill(signal);
        const end = await exited;
        expect(end.code, end.stderr).toBe(code);
        expect(end.stderr).not.toMatch(/\n\s+at /);
        expect(await gone(url, namespace)).toBe(true);
      });
    }
  }

  it('SIGKILL: every Redis key left has a TTL; --clean-up --force removes them once the lease lapses, and the schema at once', async () => {
    const r = await startProbe(ISOLATED_REDIS_URL);
    const p = await startProbe(ISOLATED_POSTGRES_URL);
    r.child.kill('SIGKILL');
    p.child.kill('SIGKILL');
    await Promise.all([r.exited, p.exited]);
    for (const k of await redisKeys(redis, r.namespace)) expect(await redis.pttl(k), k).not.toBe(-1); // -1: no TTL
    // The server drops the killed session's advisory lock as soon as it sees the connection close.
    expect((await cleanUpJson(ISOLATED_POSTGRES_URL)).left.map((l) => l.namespace)).toContain(p.namespace);
    const deadline = Date.now() + 10_000;
    while (!(await gone(ISOLATED_POSTGRES_URL, p.namespace)) && Date.now() < deadline) await cleanUpJson(ISOLATED_POSTGRES_URL, true);
    expect(await gone(ISOLATED_POSTGRES_URL, p.namespace)).toBe(true);
    expect((await cleanUpJson(ISOLATED_REDIS_URL, true)).left).toContainEqual({ namespace: r.namespace, reason: expect.stringMatching(/running probe holds it/) });
    const leaseEnd = Date.now() + 20_000; // LEASE_MS is 15 s
    while (!(await gone(ISOLATED_REDIS_URL, r.namespace)) && Date.now() < leaseEnd) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await cleanUpJson(ISOLATED_REDIS_URL, true);
    }
    expect(await gone(ISOLATED_REDIS_URL, r.namespace)).toBe(true);
  });
});
