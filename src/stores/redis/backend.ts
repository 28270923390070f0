/** Redis for the probe: connections that fail fast, a fresh key prefix, measurement and removal. */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Claim } from '../../model/types.js';
import { measureKey, saturate, type Backend, type BytesMeasurement, type RecordShape } from '../backend.js';
import { reasonOf, StoreError } from '../errors.js';
import { BASE_LIFE_MS, LEASE_MS, LEASE_RENEW_MS, probeMarker } from '../lifetime.js';
import { TRANSACTIONAL_STORES } from '../registry.js';
import type { KeyStore, StoreOptions } from '../types.js';
import type { StoreUrl } from '../url.js';
import { RedisAtomicStore } from './atomic.js';
import { RedisCheckThenActStore } from './check-then-act.js';
import { REDIS } from './descriptor.js';
import { px, RedisNamespace } from './records.js';

/** Keys handled per pipeline when measuring or deleting. */
const BATCH = 500;

/** Connects `connections` clients, or throws a StoreError saying why not, within about `timeoutMs`. */
export async function connectRedis(url: StoreUrl, connections: number, timeoutMs: number): Promise<RedisBackend> {
  const clients: Redis[] = [];
  try {
    for (let i = 0; i < connections; i++) {
      let last: unknown;
      const client = new Redis(url.url, {
        lazyConnect: true, connectTimeout: timeoutMs, commandTimeout: 30_000,
        // Fail at once rather than reconnect or queue: the probe must never hang on a dead store.
        retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false,
        connectionName: 'idem-sim-probe',
      });
      client.on('error', (e: unknown) => { last = e; });
      clients.push(client);
      try {
        await client.connect();
        if (i === 0) await client.info('server');
      } catch (e) {
        const why = reasonOf(last ?? e);
        const fix = /NOAUTH|WRONGPASS|invalid (username|password)/i.test(why)
          ? 'Put the user and password in the URL: redis://user:password@host:6379.'
          : 'Start redis-server there, or pass --store with the URL of a Redis you can reach.';
        throw new StoreError(url.display, `cannot connect to Redis (${why === 'Connection is closed.' ? 'the connection was closed: is this a Redis server?' : why})`, fix);
      }
      await checkDatabase(client, url);
    }
  } catch (e) {
    // Not on a client whose connection already ended: ioredis would wait 2 s for a close that happened.
    for (const c of clients) if (c.status !== 'end') c.disconnect();
    throw e;
  }
  return new RedisBackend(url, clients);
}

/**
 * Throws a StoreError unless the client is on the database the URL names. ioredis sends the
 * URL's `SELECT db` while connecting, but a failure there only emits 'error' (the handshake
 * goes on), and connect() resolves on database 0: the probe would write there. So SELECT it
 * again, whose rejection does reach us.
 */
async function checkDatabase(client: Redis, url: StoreUrl): Promise<void> {
  const db = client.options.db ?? 0;
  if (db === 0) return; // every server has database 0; ioredis sends no SELECT for it
  try {
    await client.select(db);
  } catch (e) {
    const why = reasonOf(e);
    if (!/out of range|invalid DB index/i.test(why)) {
      throw new StoreError(url.display, `cannot select database ${db} (${why})`,
        'Give the user the SELECT command, or use database 0 (a URL without a path; a Redis Cluster has database 0 only).');
    }
    const count = await databaseCount(client);
    throw count === undefined
      ? new StoreError(url.display, `database ${db} is out of range (${why})`,
        'Use a database the server has in the URL path: 0 to one less than its databases setting (16 by default: 0 to 15).')
      : new StoreError(url.display, `database ${db} is out of range: the server has ${count === 1 ? '1 database' : `${count} databases`} (${why})`,
        count === 1 ? 'Use database 0 (a URL ending in /0, or with no path).' : `Use a database from 0 to ${count - 1} in the URL path.`);
  }
}

/** The server's `databases` setting, or undefined where CONFIG GET is refused (ACL, renamed, managed services). */
async function databaseCount(client: Redis): Promise<number | undefined> {
  try {
    const reply: unknown = await client.config('GET', 'databases');
    // RESP2 gives [name, value]; a RESP3 map may come as an object.
    const at = Array.isArray(reply) ? reply.indexOf('databases') : -1;
    const value = Array.isArray(reply) ? (at < 0 ? undefined : reply[at + 1]) : (reply as Record<string, unknown> | null)?.['databases'];
    const n = Number(value);
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

export class RedisBackend implements Backend {
  readonly kind = REDIS.kind;
  readonly display: string;
  /** `idem-sim:` and 8 random hex digits: unique to this probe. */
  readonly namespace = `idem-sim:${randomBytes(4).toString('hex')}:`;
  /** Longest TTL of any key written now: the namespace's life (src/stores/lifetime.ts). */
  private lifeMs = BASE_LIFE_MS;
  private readonly created = new Date();
  private renewal: ReturnType<typeof setInterval> | undefined;

  constructor(url: StoreUrl, private readonly clients: Redis[]) {
    this.display = url.display;
  }

  get connections(): number {
    return this.clients.length;
  }

  private get main(): Redis {
    return this.clients[0] as Redis;
  }

  /** Runs `fn` on the first connection (for the clean-up, which writes no namespace of its own). */
  withClient<T>(fn: (client: Redis) => Promise<T>): Promise<T> {
    return fn(this.main);
  }

  async create(): Promise<void> {
    const existing = await this.keysUnder(this.namespace, 1);
    if (existing.length > 0) {
      throw new StoreError(this.display, `keys under ${this.namespace} already exist`, 'Run the probe again: it picks a new random prefix.');
    }
    await this.main.set(this.leaseKey, String(process.pid), 'PX', LEASE_MS);
    await this.expireIn(BASE_LIFE_MS);
    // PEXPIRE, not SET: a renewal that comes after drop() must not bring the key back.
    this.renewal = setInterval(() => { this.main.pexpire(this.leaseKey, LEASE_MS).catch(() => undefined); }, LEASE_RENEW_MS);
    this.renewal.unref();
  }

  async expireIn(lifeMs: number): Promise<void> {
    this.lifeMs = lifeMs;
    await this.main.set(`${this.namespace}probe`, JSON.stringify(probeMarker(this.created, lifeMs)), 'PX', px(lifeMs));
  }

  /** Lives while this probe runs: a clean-up leaves the namespace alone while it exists. */
  private get leaseKey(): string {
    return `${this.namespace}lease`;
  }

  stores(claim: Claim, transactional: boolean, opts: StoreOptions, prefix = this.namespace): KeyStore[] {
    if (transactional) {
      throw new StoreError(this.display, 'idempotency.transactional: true needs a store that commits the side effect with the key',
        `Probe it on ${TRANSACTIONAL_STORES}, or pass --set idempotency.transactional=false.`);
    }
    const capped = { ...opts, maxTtlMs: Math.min(opts.maxTtlMs ?? Infinity, this.lifeMs) };
    return this.clients.map((c) => (claim === 'atomic' ? new RedisAtomicStore(c, prefix, capped) : new RedisCheckThenActStore(c, prefix, capped)));
  }

  async measure(claim: Claim, transactional: boolean, opts: StoreOptions, shape: RecordShape, records: number) {
    const prefix = `${this.namespace}m:`;
    // The names the stores write, from the stores' own naming (RedisNamespace.keyOf).
    const naming = new RedisNamespace(this.main, prefix, opts);
    const keys = Array.from({ length: records }, (_, i) => naming.keyOf(measureKey(i, shape.keyLength)));
    // Load the claim script before the baseline: it is memory Redis keeps once, not per record.
    await this.stores(claim, transactional, opts, `${this.namespace}warm:`)[0]?.handle({ key: 'w', fingerprint: '' }, async () => ({ status: 200, body: '' }));
    const before = await this.usedMemory();
    const saturation = await saturate((observe) => this.stores(claim, transactional, { ...opts, observe }, prefix), shape, records);
    const written = await this.usedMemory();
    let usage = 0;
    for (let i = 0; i < keys.length; i += BATCH) {
      const p = this.main.pipeline();
      for (const k of keys.slice(i, i + BATCH)) p.memory('USAGE', k, 'SAMPLES', 0);
      for (const [err, n] of (await p.exec()) ?? []) {
        if (err) throw err;
        // A missing key would read as 0 bytes and understate the record: a bug, not a measurement.
        if (n === null) throw new Error('MEMORY USAGE found no key where the measurement wrote one');
        usage += Number(n);
      }
    }
    // What the TTLs cost: used_memory with them minus without them, three times over (PERSIST,
    // PEXPIRE, PERSIST), and the median, so that another client's write in between moves one of them only.
    const ttl = px(opts.retentionMs, this.lifeMs);
    const persisted1 = await this.usedAfter(keys, (p, k) => p.persist(k));
    const expiring = await this.usedAfter(keys, (p, k) => p.pexpire(k, ttl));
    const persisted2 = await this.usedAfter(keys, (p, k) => p.persist(k));
    await this.eachBatch(keys, (p, k) => p.del(k));
    const memoryUsage = usage / records;
    const deltas = [written - persisted1, expiring - persisted1, expiring - persisted2].sort((a, b) => a - b);
    const expiry = (deltas[1] as number) / records;
    const bytes: BytesMeasurement = {
      records,
      bytes_per_record: memoryUsage + expiry,
      method: 'MEMORY USAGE (value, key name, keyspace entry) plus the expiry entry (used_memory with TTLs minus without, median of three)',
      redis: { memory_usage: memoryUsage, expiry_overhead: expiry, info_delta: (written - before) / records },
    };
    return { bytes, saturation };
  }

  async drop(): Promise<number> {
    clearInterval(this.renewal);
    const keys = await this.keysUnder(this.namespace);
    await this.eachBatch(keys, (p, k) => p.unlink(k));
    // The count is of what the stores wrote, not of the marker and the lease.
    return keys.filter((k) => k !== this.leaseKey && k !== `${this.namespace}probe`).length;
  }

  async close(): Promise<void> {
    if (this.renewal !== undefined) {
      clearInterval(this.renewal);
      // This probe no longer runs: a clean-up need not wait for the lease to lapse.
      await this.main.unlink(this.leaseKey).catch(() => undefined);
    }
    await Promise.all(this.clients.map((c) => c.quit().catch(() => c.disconnect())));
  }

  private async usedAfter(keys: readonly string[], add: (p: ReturnType<Redis['pipeline']>, key: string) => void): Promise<number> {
    await this.eachBatch(keys, add);
    return this.usedMemory();
  }

  /** `used_memory` from INFO memory, in bytes. */
  private async usedMemory(): Promise<number> {
    const info = await this.main.info('memory');
    const m = /^used_memory:(\d+)/m.exec(info);
    if (!m) throw new StoreError(this.display, 'INFO memory has no used_memory', 'Probe a Redis server (6.2 or later).');
    return Number(m[1]);
  }

  /** Keys matching `prefix*` (SCAN, never KEYS), stopping after `limit`. */
  private async keysUnder(prefix: string, limit = Infinity): Promise<string[]> {
    const found: string[] = [];
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.main.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      found.push(...keys);
      cursor = next;
    } while (cursor !== '0' && found.length < limit);
    return found;
  }

  private async eachBatch(keys: readonly string[], add: (p: ReturnType<Redis['pipeline']>, key: string) => void): Promise<void> {
    for (let i = 0; i < keys.length; i += BATCH) {
      const p = this.main.pipeline();
      for (const k of keys.slice(i, i + BATCH)) add(p, k);
      for (const [err] of (await p.exec()) ?? []) if (err) throw err;
    }
  }
}
