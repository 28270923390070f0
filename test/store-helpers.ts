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
