/**
 * `idem-sim probe` and `size --from-probe`, through the real binary against the real Redis and
 * PostgreSQL. Every probe works in a namespace of its own and removes it (checked here).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { POSTGRES_URL, REDIS_URL, redisKeys } from './store-helpers.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { main } from '../src/cli/main.js';
import { cli, RACE_ACTIONS, RACE_YAML, type CliResult } from './helpers.js';



const dir = mkdtempSync(join(tmpdir(), 'idem-sim-probe-'));
function scenarioFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/**
 * Every handler takes 600ms, longer than the 200ms timeout, and the one retry comes 20ms after
 * the timeout, while the first attempt still runs (380ms of margin, 190ms of real time at ×2,
 * for store and timer jitter on a busy machine): check_then_act executes every action twice,
 * atomic answers the retry 409. The simulator predicts exactly that, with no spread, so the
 * probe's counts must equal it.
 */
const RACE = RACE_YAML;
const ACTIONS = RACE_ACTIONS;

interface Counts { duplicates: number; executions: number; conflicts_409: number; dedup_hits: number; unknown_outcomes: number; attempts: number }
interface ProbeJson {
  kind: string;
  store: { kind: string; namespace: string; variant: string; removed: number; kept: boolean };
  stream: { speedup: number; actions: number };
  counts: { probe: Counts; model: Counts };
  simulator: { expected: Record<string, { value: number; spread95: [number, number] }> };
  operations: { replay: { ops: number; p50_ms: number; p99_ms: number }; saturation: { requests_per_second: number } };
  measurement: { bytes_per_record: number };
  record: { response_bytes: number };
}

/** The command line in this process (as the binary runs it, without the cost of starting Node each time). */
async function idem(args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => new Writable({ write(chunk, _enc, done) { add(String(chunk)); done(); } });
  const status = await main(['node', 'idem-sim', ...args], {
    stdout: sink((s) => { stdout += s; }), stderr: sink((s) => { stderr += s; }), env: { NO_COLOR: '1' },
  });
  return { status, stdout, stderr };
}

async function probeJson(args: string[]): Promise<ProbeJson> {
  const r = await idem(['probe', ...args, '--json', '--records', '100']);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ProbeJson;
}

let redis: Redis;
let pool: pg.Pool;
const namespaces: { kind: string; namespace: string }[] = [];
async function leftBehind(kind: string, namespace: string): Promise<boolean> {
  if (kind === 'redis') return (await redisKeys(redis, namespace)).length > 0;
  return ((await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [namespace])).rowCount ?? 0) > 0;
}

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
});
afterAll(async () => {
  for (const n of namespaces) expect(await leftBehind(n.kind, n.namespace), `${n.kind} ${n.namespace} left behind`).toBe(false);
  redis.disconnect();
  await pool.end();
});

describe('the probe against the real stores matches the simulator on a stream it predicts exactly', () => {
  const race = scenarioFile('race.yaml', RACE);
  for (const [kind, url] of [['redis', REDIS_URL], ['postgres', POSTGRES_URL]] as const) {
    for (const claim of ['atomic', 'check_then_act'] as const) {
      it(`${kind}, ${claim}`, async () => {
        const r = await probeJson([race, '--store', url, '--actions', String(ACTIONS), '--speedup', '2', '--set', `idempotency.claim=${claim}`]);
        namespaces.push({ kind, namespace: r.store.namespace });
        const duplicates = claim === 'atomic' ? 0 : ACTIONS;
        expect(r.simulator.expected['duplicates']).toMatchObject({ value: duplicates, spread95: [duplicates, duplicates] });
        expect(r.counts.model.duplicates).toBe(duplicates);
        expect(r.counts.probe.duplicates).toBe(duplicates);
        expect(r.counts.probe.executions).toBe(ACTIONS + duplicates);
        expect(r.counts.probe.conflicts_409).toBe(claim === 'atomic' ? ACTIONS : 0);
        expect(r.counts.probe.unknown_outcomes).toBe(ACTIONS);
        expect(r.store).toMatchObject({ kind, variant: claim, kept: false });
        expect(r.operations.replay.ops).toBeGreaterThan(2 * ACTIONS);
        expect(r.operations.replay.p99_ms).toBeGreaterThanOrEqual(r.operations.replay.p50_ms);
        expect(r.measurement.bytes_per_record).toBeGreaterThan(200);
      });
    }
  }

  it('postgres, transactional: no duplicates either', async () => {
    const r = await probeJson([race, '--store', POSTGRES_URL, '--actions', String(ACTIONS), '--speedup', '2', '--connections', '16', '--set', 'idempotency.transactional=true']);
    namespaces.push({ kind: 'postgres', namespace: r.store.namespace });
    expect(r.store.variant).toBe('transactional');
    expect(r.counts.probe.duplicates).toBe(0);
    expect(r.counts.probe.executions).toBe(ACTIONS);
    // A retry that waits for a free connection (each running handler holds one) may come after
    // the commit and get the stored result instead of the 409: either way, nothing runs twice.
    expect(r.counts.probe.conflicts_409 + r.counts.probe.dedup_hits).toBe(ACTIONS);
  });
});

describe('a random stream (lognormal latency, lost replies) on Redis', () => {
  const lab = scenarioFile('lab.yaml', 'agent: {replan_probability: 0}\nidempotency: {scope: intent}\n');
  it('atomic: no duplicates, as the model; check_then_act: the race, close to the model on the same stream', async () => {
    const atomic = await probeJson([lab, '--store', REDIS_URL, '--actions', '200', '--seed', '3']);
    // At 2x rather than the 10x chosen for the atomic run: a timer that slips by a few ms moves
    // the model's time 5 times less, so fewer close races can go the other way on a busy machine.
    const broken = await probeJson([lab, '--store', REDIS_URL, '--actions', '200', '--seed', '3', '--speedup', '2', '--set', 'idempotency.claim=check_then_act']);
    namespaces.push({ kind: 'redis', namespace: atomic.store.namespace }, { kind: 'redis', namespace: broken.store.namespace });
    expect(atomic.stream.speedup).toBeGreaterThanOrEqual(1); // chosen from the store's capacity, at most 10
    expect(atomic.stream.speedup).toBeLessThanOrEqual(10);
    expect(atomic.counts.model.duplicates).toBe(0);
    expect(atomic.counts.probe.duplicates).toBe(0);
    expect(broken.counts.model.duplicates).toBeGreaterThan(0);
    expect(broken.counts.probe.duplicates).toBeGreaterThan(0);
    // Real timers move a retry and a handler's end by a few ms: a race the model decides by
    // less than that can go the other way, rarely (about 1% of the races here).
    expect(Math.abs(broken.counts.probe.duplicates - broken.counts.model.duplicates)).toBeLessThanOrEqual(2);
  });
});

describe('outputs, sizing and cleanup', () => {
  const race = scenarioFile('race-out.yaml', RACE);

  it('--out writes the JSON whole (the real binary); size --from-probe sizes the store with its measured bytes per record', async () => {
    const out = join(dir, 'probe.json');
    const r = cli(['probe', race, '--store', REDIS_URL, '--actions', '10', '--speedup', '2', '--records', '200', '--response-bytes', '400', '--json', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const doc = JSON.parse(readFileSync(out, 'utf8')) as ProbeJson;
    namespaces.push({ kind: 'redis', namespace: doc.store.namespace });
    expect(doc.kind).toBe('probe');
    expect(doc.record.response_bytes).toBe(400);
    expect(doc.measurement.bytes_per_record).toBeGreaterThan(400 + 36 + 64);

    const size = cli(['size', '--from-probe', out, '--rate', '50', '--retention', '1h', '--json']);
    expect(size.status, size.stderr).toBe(0);
    const s = JSON.parse(size.stdout);
    expect(s.record_bytes).toBe(doc.measurement.bytes_per_record);
    expect(s.key_store_mb).toBeCloseTo((180_000 * doc.measurement.bytes_per_record) / 1e6, 6);
    expect(s.record_bytes_source).toContain('probe');
    // Without --rate and --retention, the probed scenario's (50/s, 1h) are used.
    expect(JSON.parse((await idem(['size', '--from-probe', out, '--json'])).stdout).keys).toBe(180_000);
    expect((await idem(['size', '--from-probe', out])).stdout).toMatch(/bytes a record \(measured by idem-sim probe on redis/);
  });

  it('--keep leaves the namespace for inspection; without it nothing stays', async () => {
    const kept = await probeJson([race, '--store', REDIS_URL, '--actions', '5', '--speedup', '2', '--keep']);
    expect(kept.store.kept).toBe(true);
    const keys = await redisKeys(redis, kept.store.namespace);
    expect(keys.length).toBeGreaterThan(5);
    expect(JSON.parse((await redis.get(keys.find((k) => k.includes(':k:')) as string)) as string)).toMatchObject({ s: 'd' });
    await redis.unlink(...keys);
    const pgKept = await probeJson([race, '--store', POSTGRES_URL, '--actions', '5', '--speedup', '2', '--keep']);
    const rows = await pool.query(`SELECT status FROM "${pgKept.store.namespace}".idempotency_keys`);
    expect(rows.rowCount).toBe(5);
    // The bytes-per-record measurement wrote to tables of its own, dropped afterwards: the probe's effects are the actions' alone.
    const measured = await pool.query(`SELECT count(*) AS n FROM "${pgKept.store.namespace}".effects WHERE effect_id = 'measure'`);
    expect(Number(measured.rows[0].n)).toBe(0);
    const tables = await pool.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1', [pgKept.store.namespace]);
    expect(tables.rows.map((r) => r.table_name)).toEqual(['effects', 'idempotency_keys']);
    await pool.query(`DROP SCHEMA "${pgKept.store.namespace}" CASCADE`);
  });
});

describe('bad input exits 2 before anything is written', async () => {
  const keyed = scenarioFile('keyed.yaml', 'idempotency: {scope: intent}\n');
  async function expectBadInput(args: string[], ...fragments: (string | RegExp)[]) {
    const r = await idem(args);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^idem-sim: error: /);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    for (const f of fragments) expect(r.stderr).toMatch(f);
  }

  it('an unreachable store: the URL, the reason and the fix, at the first connection attempt', async () => {
    // Counted, not timed: the sockets each probe opens before its refusal. One: no retry, and
    // none of the probe's other connections tried against a store already found wanting.
    const connect = vi.spyOn(Socket.prototype, 'connect');
    const refused = async (args: string[], ...fragments: (string | RegExp)[]) => {
      connect.mockClear();
      await expectBadInput(args, ...fragments);
      expect(connect, args.join(' ')).toHaveBeenCalledTimes(1);
    };
    try {
      await refused(['probe', keyed, '--store', 'redis://127.0.0.1:1'], '--store redis://127.0.0.1:1', 'cannot connect to Redis', 'ECONNREFUSED', 'Start redis-server');
      await refused(['probe', keyed, '--store', 'postgres://postgres@127.0.0.1:1/test'], 'cannot connect to PostgreSQL', 'Start PostgreSQL');
      await refused(['probe', keyed, '--store', 'postgres://postgres@127.0.0.1:5432/no_such_database_here'], 'does not exist', 'Name a database that exists');
    } finally {
      connect.mockRestore();
    }
  });

  it('a Redis database the server does not have: the URL, the range and the fix, not a silent fall-back to database 0', async () => {
    // ioredis reports a failed SELECT while connecting as an 'error' event only, and carries on in database 0.
    const reply = await redis.config('GET', 'databases');
    const count = Number(Array.isArray(reply) ? reply[1] : (reply as Record<string, string>)['databases']);
    expect(count).toBeGreaterThan(1);
    const at = (db: number, password = '') => {
      const u = new URL(REDIS_URL);
      u.pathname = `/${db}`;
      if (password) u.password = password;
      return u.toString();
    };
    for (const db of [count, 99 + count]) {
      await expectBadInput(['probe', keyed, '--store', at(db), '--keep'], `--store ${at(db)}`, `database ${db} is out of range`,
        `the server has ${count} databases`, /ERR DB index is out of range|invalid DB index/, `Use a database from 0 to ${count - 1} in the URL path`);
    }
    const r = await idem(['probe', keyed, '--store', at(count, 'hunter2')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(':****@');
    expect(r.stderr).not.toContain('hunter2');
  });

  it('a malformed URL, a missing --store, and a password never echoed', async () => {
    await expectBadInput(['probe', keyed, '--store', '127.0.0.1:6379'], 'no scheme', 'Write redis://127.0.0.1:6379');
    await expectBadInput(['probe', keyed, '--store', 'mongodb://h/db'], '"mongodb"');
    await expectBadInput(['probe', keyed], '--store is missing', 'redis://127.0.0.1:6379');
    const r = await idem(['probe', keyed, '--store', 'redis://:hunter2@127.0.0.1:1']);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toContain('hunter2');
  });

  it('a scenario the probe cannot run, and bad options', async () => {
    await expectBadInput(['probe', '--store', REDIS_URL], 'key idempotency.scope', 'is none', '--set idempotency.scope=intent');
    await expectBadInput(['probe', keyed, '--store', REDIS_URL, '--set', 'idempotency.transactional=true'], 'key idempotency.transactional', 'PostgreSQL');
    await expectBadInput(['probe', keyed, '--store', REDIS_URL, '--speedup', '0'], '--speedup 0');
    await expectBadInput(['probe', keyed, '--store', REDIS_URL, '--actions', '1e6'], 'at most 100,000');
    await expectBadInput(['probe', keyed, '--store', REDIS_URL, '--response-bytes', '-1'], '--response-bytes -1');
  });

  it('--out is checked first and left untouched on failure', async () => {
    const out = join(dir, 'failed', 'x.json');
    await expectBadInput(['probe', keyed, '--store', REDIS_URL, '--out', out], 'cannot create');
    const good = join(dir, 'unreachable.json');
    await expectBadInput(['probe', keyed, '--store', 'redis://127.0.0.1:1', '--out', good], 'cannot connect');
    expect(existsSync(good)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.unreachable'))).toEqual([]);
  });

  it('size --from-probe: a file that is not a probe result, and --record-bytes with it', async () => {
    const notProbe = scenarioFile('not-probe.json', '{"tool": "idem-sim"}');
    await expectBadInput(['size', '--from-probe', notProbe], `--from-probe ${notProbe}`, 'not a probe result');
    await expectBadInput(['size', '--from-probe', scenarioFile('bad.json', '{')], 'is not JSON');
    await expectBadInput(['size', '--from-probe', join(dir, 'missing.json')], 'does not exist');
    await expectBadInput(['size', '--from-probe', notProbe, '--record-bytes', '300'], 'both give the bytes per record');
  });
});
