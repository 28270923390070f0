/**
 * The claim protocol on the real Redis and PostgreSQL (no mocks). Each backend works in a
 * namespace of its own (a random key prefix, a fresh schema), removed after each test.
 * IDEM_SIM_TEST_REDIS and IDEM_SIM_TEST_POSTGRES point the tests at other servers. The checks
 * that need no running store are in stores.test.ts.
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import { POSTGRES_URL, REDIS_URL, redisKeys } from './store-helpers.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Claim } from '../src/model/types.js';
import type { Backend } from '../src/stores/backend.js';
import { StoreError } from '../src/stores/errors.js';
import { MemoryStore } from '../src/stores/memory.js';
import { openBackend } from '../src/stores/open.js';
import { HandlerCrash, type Handler, type KeyStore, type Reply, type StoreOptions } from '../src/stores/types.js';

/** Every namespace this file creates, to check at the end that none is left. */
const created: { url: string; kind: Backend['kind']; namespace: string }[] = [];
async function open(url: string, connections: number): Promise<Backend> {
  const backend = await openBackend(url, connections);
  created.push({ url, kind: backend.kind, namespace: backend.namespace });
  return backend;
}

/** A fresh namespace on `url` for each test of the calling describe block, dropped after it; the getter gives the current one. */
function freshBackend(url: string): () => Backend {
  let backend: Backend | undefined;
  beforeEach(async () => {
    backend = await open(url, 4);
    await backend.create();
  });
  afterEach(async () => {
    await backend?.drop();
    await backend?.close();
  });
  return () => backend as Backend;
}

const OPTS: StoreOptions = { retentionMs: 60_000, leaseMs: null, onError: 'release', checkFingerprint: true };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const ok = (body = 'done'): Handler => async (ctx) => {
  await ctx.effect('e');
  return { status: 200, body };
};
/** A handler that works `ms` before its side effect: long enough for every concurrent request to arrive. */
const slow = (ms: number): Handler => async (ctx) => {
  await sleep(ms);
  await ctx.effect('e');
  return { status: 200, body: 'slow' };
};
/**
 * One execution; every other request 409 (or, if the loaded machine delayed it past the
 * handler's end, the stored result): nothing else.
 */
function expectOnce(replies: Reply[]): void {
  const count = (kind: Reply['kind']) => replies.filter((r) => r.kind === kind).length;
  expect(count('executed')).toBe(1);
  expect(count('conflict') + count('replayed')).toBe(replies.length - 1);
  expect(count('conflict')).toBeGreaterThan(replies.length / 2);
}
const effectsOf = async (store: KeyStore) => (await store.effects()).get('e') ?? 0;

/** N requests for one key at once, spread over the store's connections. */
async function concurrently(stores: KeyStore[], n: number, handler: Handler): Promise<Reply[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => (stores[i % stores.length] as KeyStore).handle({ key: 'k', fingerprint: 'fp' }, handler)));
}

for (const [kind, url] of [['redis', REDIS_URL], ['postgres', POSTGRES_URL]] as const) {
  describe(`${kind}: the protocol on the real store`, () => {
    const backend = freshBackend(url);
    const stores = (claim: Claim, opts: Partial<StoreOptions> = {}, transactional = false) =>
      backend().stores(claim, transactional, { ...OPTS, ...opts });

    it('atomic: 20 concurrent requests for one key execute once; the others get 409', async () => {
      const replies = await concurrently(stores('atomic'), 20, slow(300));
      expectOnce(replies);
      expect(await effectsOf(stores('atomic')[0] as KeyStore)).toBe(1);
    });

    it('check_then_act (the broken variant): the same load executes more than once, with no 409', async () => {
      const replies = await concurrently(stores('check_then_act'), 20, slow(300));
      expect(replies.some((r) => r.kind === 'conflict')).toBe(false);
      expect(await effectsOf(stores('check_then_act')[0] as KeyStore)).toBeGreaterThan(1);
    });

    it('a done key replays its stored response and executes nothing', async () => {
      const [store] = stores('atomic');
      expect((await store!.handle({ key: 'k', fingerprint: 'fp' }, ok('first'))).kind).toBe('executed');
      const again = await store!.handle({ key: 'k', fingerprint: 'fp' }, ok('second'));
      expect(again).toEqual({ kind: 'replayed', response: { status: 200, body: 'first' } });
      expect(await effectsOf(store!)).toBe(1);
    });

    it('fingerprint mismatch: 422, before 409 while running and instead of the replay when done; never with fingerprint none', async () => {
      const [store] = stores('atomic');
      const running = store!.handle({ key: 'k', fingerprint: 'a' }, slow(150));
      await sleep(50);
      expect((await store!.handle({ key: 'k', fingerprint: 'b' }, ok())).kind).toBe('mismatch');
      expect((await running).kind).toBe('executed');
      expect((await store!.handle({ key: 'k', fingerprint: 'b' }, ok())).kind).toBe('mismatch');
      const [lenient] = stores('atomic', { checkFingerprint: false });
      expect((await lenient!.handle({ key: 'k', fingerprint: 'b' }, ok())).kind).toBe('replayed');
      expect(await effectsOf(store!)).toBe(1);
    });

    it('lease expiry: a key left running by a crashed handler is 409 until its lease lapses, then claimed again', async () => {
      const [store] = stores('atomic', { leaseMs: 300 });
      const crash: Handler = async () => { throw new HandlerCrash(); };
      expect((await store!.handle({ key: 'k', fingerprint: 'fp' }, crash)).kind).toBe('crashed');
      expect((await store!.lookup('k'))?.status).toBe('running');
      expect((await store!.handle({ key: 'k', fingerprint: 'fp' }, ok())).kind).toBe('conflict');
      await sleep(400);
      expect(await store!.lookup('k')).toBeNull();
      expect((await store!.handle({ key: 'k', fingerprint: 'fp' }, ok())).kind).toBe('executed');
      expect(await effectsOf(store!)).toBe(1);
    });

    it('without a lease, a crashed claim holds until retention', async () => {
      const [store] = stores('atomic', { retentionMs: 300 });
      await store!.handle({ key: 'k', fingerprint: 'fp' }, async () => { throw new HandlerCrash(); });
      expect((await store!.handle({ key: 'k', fingerprint: 'fp' }, ok())).kind).toBe('conflict');
      await sleep(400);
      expect((await store!.handle({ key: 'k', fingerprint: 'fp' }, ok())).kind).toBe('executed');
    });

    it('on_error release frees the key after a 5xx; on_error store replays the 5xx', async () => {
      const fail: Handler = async () => ({ status: 503, body: 'down' });
      const [release] = stores('atomic');
      expect((await release!.handle({ key: 'r', fingerprint: 'fp' }, fail)).kind).toBe('failed');
      expect(await release!.lookup('r')).toBeNull();
      expect((await release!.handle({ key: 'r', fingerprint: 'fp' }, ok())).kind).toBe('executed');
      const [store] = stores('atomic', { onError: 'store' });
      expect((await store!.handle({ key: 's', fingerprint: 'fp' }, fail)).kind).toBe('failed');
      expect(await store!.handle({ key: 's', fingerprint: 'fp' }, ok())).toEqual({ kind: 'replayed', response: { status: 503, body: 'down' } });
    });

    it('an unexpected handler error releases the claim and is rethrown', async () => {
      const [store] = stores('atomic');
      await expect(store!.handle({ key: 'k', fingerprint: 'fp' }, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
      expect(await store!.lookup('k')).toBeNull();
    });

    it('measured bytes per record are positive and grow with the stored response size', async () => {
      const shape = (n: number) => ({ keyLength: 36, fingerprint: 'f'.repeat(64), body: 'x'.repeat(n).replace(/x/g, (_c, i: number) => 'abcdefghijklmnopqrstuvwxyz0123456789'[(i * 7919) % 36] as string) });
      const small = await backend().measure('atomic', false, OPTS, shape(50), 300);
      const large = await backend().measure('atomic', false, OPTS, shape(1500), 300);
      expect(small.bytes.bytes_per_record).toBeGreaterThan(50 + 36 + 64);
      // 1450 more bytes of response: the record grows by at least that (Redis strings and PostgreSQL text below the
      // 2 kB TOAST threshold are stored as is). On PostgreSQL the figure as written counts dead row versions that page
      // pruning removes or not depending on timing, so the growth is read after VACUUM FULL; each of the two sizes is
      // whole 8 kB pages, so each may be up to one page over: 1450 - 2 x 8192 / 300 records = 1395.
      const grown = kind === 'redis' ? large.bytes.bytes_per_record - small.bytes.bytes_per_record
        : large.bytes.postgres!.after_vacuum_full.total - small.bytes.postgres!.after_vacuum_full.total;
      expect(grown).toBeGreaterThan(1450 - (kind === 'redis' ? 50 : 2 * 8192 / 300));
      expect(small.saturation.requests_per_second).toBeGreaterThan(0);
      expect(small.saturation.unloaded_request_ms).toBeGreaterThan(0);
      if (kind === 'redis') expect(small.bytes.redis?.expiry_overhead).toBeGreaterThan(0);
      else expect(small.bytes.postgres?.as_written.index).toBeGreaterThan(0);
    });

    it('create refuses a namespace already in use; drop removes only its own', async () => {
      const [store] = stores('atomic');
      await store!.handle({ key: 'mine', fingerprint: 'fp' }, ok());
      await expect(backend().create()).rejects.toBeInstanceOf(StoreError);
      const other = await open(url, 1);
      try {
        await other.create();
        const [theirs] = other.stores('atomic', false, OPTS);
        await theirs!.handle({ key: 'theirs', fingerprint: 'fp' }, ok());
        await backend().drop();
        expect((await theirs!.lookup('theirs'))?.status).toBe('done');
      } finally {
        await other.drop();
        await other.close();
      }
    });
  });
}

describe('postgres: transactional', () => {
  const backend = freshBackend(POSTGRES_URL);
  const crashAfterEffect: Handler = async (ctx) => {
    await ctx.effect('e');
    throw new HandlerCrash();
  };

  it('a crash after the side effect leaves no key without its effect, and no effect without its key', async () => {
    const [tx] = backend().stores('atomic', true, OPTS);
    expect(tx!.variant).toBe('transactional');
    expect((await tx!.handle({ key: 'k', fingerprint: 'fp' }, crashAfterEffect)).kind).toBe('crashed');
    expect(await tx!.lookup('k')).toBeNull();
    expect(await effectsOf(tx!)).toBe(0);
    // The key is free at once: the next request executes, and key and effect commit together.
    expect((await tx!.handle({ key: 'k', fingerprint: 'fp' }, ok())).kind).toBe('executed');
    expect((await tx!.lookup('k'))?.status).toBe('done');
    expect(await effectsOf(tx!)).toBe(1);
  });

  it('the same crash without a transaction leaves the effect and a running key (until its lease)', async () => {
    const [plain] = backend().stores('atomic', false, OPTS);
    await plain!.handle({ key: 'k', fingerprint: 'fp' }, crashAfterEffect);
    expect(await effectsOf(plain!)).toBe(1);
    expect((await plain!.lookup('k'))?.status).toBe('running');
  });

  it('20 concurrent requests for one key execute once; the others get 409 while the transaction runs', async () => {
    const replies = await concurrently(backend().stores('atomic', true, OPTS), 20, slow(300));
    expectOnce(replies);
    expect(await effectsOf(backend().stores('atomic', true, OPTS)[0] as KeyStore)).toBe(1);
  });

  it('check_then_act in a transaction still executes more than once under the same load', async () => {
    const replies = await concurrently(backend().stores('check_then_act', true, OPTS), 20, slow(300));
    expect(replies.some((r) => r.kind === 'conflict')).toBe(false);
    expect(await effectsOf(backend().stores('check_then_act', true, OPTS)[0] as KeyStore)).toBeGreaterThan(1);
  });
});

describe('the model\'s store in memory answers like the real ones', () => {
  it('the same script of requests gives the same replies on memory, Redis and PostgreSQL', async () => {
    let now = 0;
    const script = async (store: KeyStore, wait: (ms: number) => Promise<void>) => {
      const out: string[] = [];
      const crash: Handler = async () => { throw new HandlerCrash(); };
      const fail: Handler = async () => ({ status: 503, body: '' });
      for (const [key, fp, handler] of [['a', '1', ok()], ['a', '1', ok()], ['a', '2', ok()], ['b', '1', fail], ['b', '1', ok()], ['c', '1', crash], ['c', '1', ok()]] as const) {
        out.push((await store.handle({ key, fingerprint: fp }, handler)).kind);
      }
      await wait(400); // c's lease lapses
      out.push((await store.handle({ key: 'c', fingerprint: '1' }, ok())).kind);
      // The read tool's question, one effect at a time, agrees with the whole log.
      out.push(`${await store.effectCount('e')}/${(await store.effects()).get('e') ?? 0}/${await store.effectCount('never')}`);
      return out;
    };
    const opts = { ...OPTS, leaseMs: 300 };
    const memory = await script(new MemoryStore('atomic', opts, { now: () => now }), async (ms) => { now += ms; });
    expect(memory).toEqual(['executed', 'replayed', 'mismatch', 'failed', 'executed', 'crashed', 'conflict', 'executed', '3/3/0']);
    for (const url of [REDIS_URL, POSTGRES_URL]) {
      const backend = await open(url, 1);
      try {
        await backend.create();
        expect(await script(backend.stores('atomic', false, opts)[0] as KeyStore, sleep)).toEqual(memory);
      } finally {
        await backend.drop();
        await backend.close();
      }
    }
  });
});

// Nothing of this file stays behind in the stores.
afterAll(async () => {
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
  try {
    expect(created.length).toBeGreaterThan(10);
    for (const c of created) {
      if (c.kind === 'redis') expect(await redisKeys(redis, c.namespace)).toEqual([]);
      else expect((await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [c.namespace])).rowCount).toBe(0);
    }
  } finally {
    redis.disconnect();
    await pool.end();
  }
});
