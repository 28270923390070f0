/** What the key-store tests share: where the services are, and how to list a probe's keys. */
import type { Redis } from 'ioredis';

/** The services the tests talk to; override to point them elsewhere. */
export const REDIS_URL = process.env['IDEM_SIM_TEST_REDIS'] ?? 'redis://127.0.0.1:6379';
export const POSTGRES_URL = process.env['IDEM_SIM_TEST_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Keys under a prefix (SCAN to the end). */
export async function redisKeys(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 10_000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** `url` with its path replaced: another Redis database (`/9`) or PostgreSQL database. */
export function withPath(url: string, path: string): string {
  const u = new URL(url);
  u.pathname = path;
  return u.toString();
}

/**
 * A Redis database and a PostgreSQL database of their own, for tests that run `probe
 * --clean-up --force`: it removes every leftover that no running probe holds, so in the
 * shared ones it could take a namespace another test file keeps (`--keep`) while it looks at it.
 */
export const ISOLATED_REDIS_URL = process.env['IDEM_SIM_TEST_REDIS_ISOLATED'] ?? withPath(REDIS_URL, '/9');
export const ISOLATED_POSTGRES_DB = 'idem_sim_hardening';
export const ISOLATED_POSTGRES_URL = process.env['IDEM_SIM_TEST_POSTGRES_ISOLATED'] ?? withPath(POSTGRES_URL, `/${ISOLATED_POSTGRES_DB}`);
