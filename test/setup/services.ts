/**
 * The services tier's first step in each file (vitest.config.ts, setupFiles): Redis and PostgreSQL
 * answer where the tests look for them, and Prometheus's programs are installed, or the file fails
 * at once saying what to start or install, instead of an ECONNREFUSED deep inside a test.
 */
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import pg from 'pg';
import { POSTGRES_URL, REDIS_URL } from '../store-helpers.js';

const HINT = 'The services tier (*.services.test.ts) needs Redis at 127.0.0.1:6379 and PostgreSQL at 127.0.0.1:5432 '
  + '(database test, user postgres, trust auth): start them as .ci/run does (README, "Set up"), point IDEM_SIM_TEST_REDIS '
  + 'and IDEM_SIM_TEST_POSTGRES at others, or run npm run test:unit (and npm run test:e2e) on a machine without them.';

/** host:port of a URL, never its credentials. */
const where = (url: string): string => { const u = new URL(url); return `${u.hostname}:${u.port}`; };

/** Waits for `check`; its failure becomes one error that names the service and the way out. */
async function answers(service: string, url: string, check: () => Promise<unknown>): Promise<void> {
  try {
    await check();
  } catch (e) {
    throw new Error(`${service} does not answer at ${where(url)} (${e instanceof Error ? e.message : String(e)}). ${HINT}`);
  }
}

await answers('Redis', REDIS_URL, async () => {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  let cause: unknown; // connect() says only "Connection is closed."; the socket's error says why
  redis.on('error', (e) => { cause ??= e; });
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    throw cause ?? e;
  } finally {
    redis.disconnect();
  }
});

await answers('PostgreSQL', POSTGRES_URL, async () => {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {}); // reported by connect()
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => {});
  }
});

// Debian's prometheus package: the fit test starts its server (fit-prometheus.services.test.ts),
// the alerts' test runs its promtool.
const missing = ['prometheus', 'promtool'].filter((program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0);
if (missing.length > 0) {
  throw new Error(`${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not installed. The services tier needs Debian's prometheus package: `
    + 'apt-get install -y prometheus (as .ci/run does), or run npm run test:unit (and npm run test:e2e) on a machine without it.');
}
