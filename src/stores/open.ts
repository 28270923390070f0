/** Opens the store a URL names. Only the driver it needs is loaded (src/stores/registry.ts). */
import type { Backend } from './backend.js';
import { reasonOf, StoreError } from './errors.js';
import type { CleanUpReport } from './lifetime.js';
import { CLEAN_UP_NEEDS, STORES, type StoreKind } from './registry.js';
import { parseStoreUrl } from './url.js';

/** Connection attempts give up after this long (ms): an unreachable store fails fast, never hangs. */
export const CONNECT_TIMEOUT_MS = 2000;

/** Throws a StoreError for a malformed URL or a store that cannot be reached; writes nothing. */
export async function openBackend(text: string, connections: number, timeoutMs = CONNECT_TIMEOUT_MS): Promise<Backend> {
  const url = parseStoreUrl(text);
  const { driver } = await STORES[url.kind].load();
  return driver.connect(url, connections, timeoutMs);
}

/**
 * Removes the probe leftovers in the store that no running probe holds: those whose expiry
 * has passed, or with `force` all of them (src/stores/lifetime.ts). Never anything else.
 */
export async function cleanUpStore(text: string, force: boolean, timeoutMs = CONNECT_TIMEOUT_MS): Promise<{ display: string; kind: StoreKind; report: CleanUpReport }> {
  const url = parseStoreUrl(text);
  const failed = (e: unknown): StoreError => (e instanceof StoreError ? e
    : new StoreError(url.display, `the clean-up failed (${reasonOf(e)})`, `Check that the store stays up, and that the user may ${CLEAN_UP_NEEDS}.`));
  const { driver } = await STORES[url.kind].load();
  return { display: url.display, kind: url.kind, report: await driver.cleanUp(url, force, timeoutMs, failed) };
}
