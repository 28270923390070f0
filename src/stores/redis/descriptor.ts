/** Redis as the rest of the program sees it, without loading ioredis (src/stores/descriptor.ts). */
import type { StoreDescriptor } from '../descriptor.js';

/** Redis's part of a bytes measurement (`measurement.redis` in the probe's JSON), bytes per record. */
export interface RedisBytes {
  /** Mean of `MEMORY USAGE key SAMPLES 0`: the value, the key's name and its entry in the keyspace. */
  memory_usage: number;
  /** What the TTLs add, per record: `used_memory` with them minus without them (PERSIST), the median of three such differences. */
  expiry_overhead: number;
  /** Cross-check: `used_memory` (INFO memory) after writing minus before, per record. */
  info_delta: number;
}

const PORT = 6379;

export const REDIS: StoreDescriptor<'redis', RedisBytes> = {
  kind: 'redis',
  label: 'Redis',
  schemes: ['redis:', 'rediss:'],
  scheme: 'redis://',
  defaultPort: PORT,
  urlForms: `redis://[user:password@]host[:${PORT}][/db], rediss:// for TLS`,
  example: `redis://127.0.0.1:${PORT}`,
  withScheme: (hostPort) => `redis://${hostPort}`,
  driver: 'ioredis',
  // ioredis's parseURL copies every query key into its options: `keyPrefix` moves every key out
  // of the probe's `idem-sim:` namespace; `retryStrategy`, `enableOfflineQueue`, `path`,
  // `sentinels` and the like undo its fail-fast settings or send it elsewhere.
  allowedQuery: ['db', 'username', 'password', 'family'],
  namespaceOptions: {
    keyPrefix: 'the probe writes every key under a fresh idem-sim:<hex>: prefix of its own and removes them by that prefix; remove ?keyPrefix= (an ACL limited to ~idem-sim:* covers the probe as it is)',
  },
  checkUrl(u, bad) {
    if (!/^\/?(\d+)?$/.test(u.pathname)) {
      bad(`"${u.pathname}" is not a Redis database number`, 'End a redis:// URL with the database number, such as redis://127.0.0.1:6379/0, or with nothing.');
    }
    const db = u.searchParams.get('db'); // ioredis reads ?db= too: a non-number would have it send SELECT NaN
    if (db !== null && !/^\d+$/.test(db)) {
      bad(`db=${db} is not a Redis database number`, 'Give the database as a whole number, such as ?db=1, or in the path: redis://127.0.0.1:6379/1.');
    }
  },
  transactional: false,
  namespaceNoun: 'prefix',
  objectsNoun: 'keys',
  leftBehind: (ns) => ({ what: `the keys under ${ns}`, how: `remove them (redis-cli --scan --pattern '${ns}*' | xargs redis-cli unlink)` }),
  cleanUpNeeds: 'SCAN, TYPE, GET and UNLINK idem-sim:* keys (Redis)',
  measurementRows: (b) => [
    ['  MEMORY USAGE (value, key, keyspace entry)', [b.memory_usage]],
    ['  expiry entry (TTL)', [b.expiry_overhead]],
    ['  INFO used_memory delta (cross-check)', [b.info_delta]],
  ],
};
