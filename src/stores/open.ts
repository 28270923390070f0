/** Opens the store a URL names. Only the driver it needs is loaded. */
import type { Backend } from './backend.js';
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
