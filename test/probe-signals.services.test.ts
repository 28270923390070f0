/**
 * A stop signal late in the probe's replay, against the real PostgreSQL and Redis: the probe
 * stops (Interrupted, so the CLI exits 130 / 143 / 129) and removes its namespace, even when the
 * store fails meanwhile. The moment is made exact, not waited for: the signal comes when a
 * given number of handlers are running (claimed, in their latency), and on PostgreSQL the
 * effects table is locked first, so that any handler that still commits its side effect holds
 * one of the pool's two connections and the others wait past the pool's timeout (pg-pool:
 * "timeout exceeded when trying to connect"), as when every handler woke at once on a signal.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Interrupted } from '../src/exec/interrupted.js';
import { probe } from '../src/probe/probe.js';
import type { Backend } from '../src/stores/backend.js';
import { StoreError } from '../src/stores/errors.js';
import { openBackend } from '../src/stores/open.js';
import type { KeyStore } from '../src/stores/types.js';
import { parseRunnable, RACE_ACTIONS, RACE_YAML } from './helpers.js';
import { POSTGRES_URL, REDIS_URL } from './store-helpers.js';

/** Handlers running when the signal comes: more than the pool's connections (2), fewer than the stream's actions. */
const RUNNING = 6;
/** The pool's connect timeout (ms), which is also how long a request may wait for a free connection. */
const POOL_TIMEOUT_MS = 1000;

let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
});

/**
 * `backend` whose stores call `atRunning` once RUNNING handlers are inside at once, and which
 * calls `beforeDrop` before it removes its namespace. `effectFailed` hears of each side effect
 * the store failed to commit.
 */
function gated(backend: Backend, hooks: { atRunning: () => Promise<void>; effectFailed: () => Promise<void>; beforeDrop: () => Promise<void> }): Backend {
  let inside = 0;
  let fired = false;
  const gate = (store: KeyStore): KeyStore => ({
    variant: store.variant, lookup: (k) => store.lookup(k), effects: () => store.effects(), effectCount: (id) => store.effectCount(id),
    handle: (req, handler) => store.handle(req, async (ctx) => {
      inside++;
      if (inside >= RUNNING && !fired) {
        fired = true;
        await hooks.atRunning();
      }
      try {
        return await handler({ effect: (id) => ctx.effect(id).catch(async (e: unknown) => { await hooks.effectFailed(); throw e; }) });
      } finally {
        inside--;
      }
    }),
  });
  return {
    kind: backend.kind, display: backend.display, namespace: backend.namespace, connections: backend.connections,
    create: () => backend.create(), expireIn: (ms) => backend.expireIn(ms), close: () => backend.close(),
    measure: (...args) => backend.measure(...args),
    stores: (...args) => backend.stores(...args).map(gate),
    drop: async () => { await hooks.beforeDrop(); return backend.drop(); },
  };
}

/** Holds an exclusive lock on the namespace's effects table until `release`. */
function effectsLock(schema: string) {
  let held = false;
  return {
    take: async () => {
      await admin.query('BEGIN');
      await admin.query(`LOCK TABLE "${schema}".effects IN ACCESS EXCLUSIVE MODE`);
      held = true;
    },
    release: async () => {
      if (!held) return;
      held = false;
      await admin.query('ROLLBACK');
    },
  };
}

async function schemaLeft(schema: string): Promise<boolean> {
  return ((await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount ?? 0) > 0;
}

function request(backend: Backend, signal?: AbortSignal) {
  return { scenario: parseRunnable(RACE_YAML), seed: '1', actions: RACE_ACTIONS, speedup: 2, backend, measureRecords: 50, keep: false, ...(signal ? { signal } : {}) };
}

describe('a signal late in the replay: the probe stops and removes its namespace', () => {
  it('PostgreSQL, its pool timing out as the handlers wake: Interrupted, not an error', async () => {
    const real = await openBackend(POSTGRES_URL, 2, POOL_TIMEOUT_MS);
    const lock = effectsLock(real.namespace);
    const stop = new AbortController();
    const backend = gated(real, {
      atRunning: async () => { await lock.take(); stop.abort(); },
      effectFailed: () => lock.release(),
      beforeDrop: () => lock.release(),
    });
    try {
      await expect(probe(request(backend, stop.signal))).rejects.toBeInstanceOf(Interrupted);
    } finally {
      await lock.release();
      await real.close();
    }
    expect(await schemaLeft(real.namespace)).toBe(false);
  });

  it('Redis: Interrupted, every key removed', async () => {
    const real = await openBackend(REDIS_URL, 2);
    const stop = new AbortController();
    const backend = gated(real, { atRunning: async () => { stop.abort(); }, effectFailed: async () => undefined, beforeDrop: async () => undefined });
    let removed = -1;
    const counted: Backend = { ...backend, drop: async () => (removed = await backend.drop()) };
    try {
      await expect(probe(request(counted, stop.signal))).rejects.toBeInstanceOf(Interrupted);
    } finally {
      await real.close();
    }
    expect(removed).toBeGreaterThan(0);
  });

  it("PostgreSQL's pool timing out with no signal is the store's failure (exit 2, with the fix), not a bug", async () => {
    const real = await openBackend(POSTGRES_URL, 2, POOL_TIMEOUT_MS);
    const lock = effectsLock(real.namespace);
    const backend = gated(real, { atRunning: () => lock.take(), effectFailed: () => lock.release(), beforeDrop: () => lock.release() });
    let failure: unknown;
    try {
      await probe(request(backend)).catch((e: unknown) => { failure = e; });
    } finally {
      await lock.release();
      await real.close();
    }
    expect(failure).toBeInstanceOf(StoreError);
    expect((failure as StoreError).problem).toMatch(/timeout exceeded when trying to connect.*waited too long for one of the 2 connections/);
    expect((failure as StoreError).fix).toContain('Lower --speedup');
    expect(await schemaLeft(real.namespace)).toBe(false);
  });
});
