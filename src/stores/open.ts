/** Opens the store a URL names. Only the driver it needs is loaded. */
import type { Backend } from './backend.js';
import { reasonOf, StoreError } from './errors.js';
import type { CleanUpReport } from './lifetime.js';
import { parseStoreUrl } from './url.js';

/** Connection attempts give up after this long (ms): an unreachable store fails fast, never hangs. */
export const CONNECT_TIMEOUT_MS = 2000;

/** Throws a StoreError for a malformed URL or a store that cannot be reached; writes nothing. */
export async function openBackend(text: string, connections: number, timeoutMs = CONNECT_TIMEOUT_MS): Promise<Backend> {
  const url = parseStoreUrl(text);
  if (url.kind === 'redis') {
    const { connectRedis } = await import('./redis/backend.js');
    return connectRedis(url, connections, timeoutMs);
  }
  const { connectPostgres } = await import('./postgres/backend.js');
  return connectPostgres(url, connections, timeoutMs);
}

/**
 * Removes the probe leftovers in the store that no running probe holds: those whose expiry
 * has passed, or with `force` all of them (src/stores/lifetime.ts). Never anything else.
 */
export async function cleanUpStore(text: string, force: boolean, timeoutMs = CONNECT_TIMEOUT_MS): Promise<{ display: string; report: CleanUpReport }> {
  const url = parseStoreUrl(text);
  const failed = (e: unknown): StoreError => (e instanceof StoreError ? e
    : new StoreError(url.display, `the clean-up failed (${reasonOf(e)})`, 'Check that the store stays up, and that the user may SCAN, TYPE, GET and UNLINK idem-sim:* keys (Redis) or drop its idem_sim_* schemas (PostgreSQL).'));
  if (url.kind === 'redis') {
    const [{ connectRedis }, { cleanUpRedis }] = await Promise.all([import('./redis/backend.js'), import('./redis/cleanup.js')]);
    const backend = await connectRedis(url, 1, timeoutMs);
    try {
      return { display: url.display, report: await backend.withClient((c) => cleanUpRedis(c, force)).catch((e: unknown) => { throw failed(e); }) };
    } finally {
      await backend.close();
    }
  }
  const [pg, { clientConfig, connectError }, { cleanUpPostgres }] = await Promise.all([import('pg'), import('./postgres/backend.js'), import('./postgres/cleanup.js')]);
  const client = new pg.default.Client(clientConfig(url, timeoutMs));
  client.on('error', () => undefined);
  await client.connect().catch((e: unknown) => { throw connectError(url, e); });
  try {
    return { display: url.display, report: await cleanUpPostgres(client, force).catch((e: unknown) => { throw failed(e); }) };
  } finally {
    await client.end().catch(() => undefined);
  }
}
