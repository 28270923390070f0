/**
 * `probe --clean-up` on Redis: finds the namespaces `idem-sim:<8 hex>:` that probes left
 * (a SCAN of the whole keyspace, never KEYS) and removes those no running probe holds (no
 * `<ns>lease`) once their expiry has passed (no `<ns>probe` marker left, or its time is past),
 * or with `force` whatever their expiry. Only keys of the probe's layout, and of the type it
 * writes, are ever removed: anything else under such a prefix is left, and the namespace with it.
 */
import type { Redis } from 'ioredis';
import type { StoreDriver } from '../descriptor.js';
import { readMarker, REDIS_NAMESPACE, type CleanUpReport } from '../lifetime.js';
import { connectRedis } from './backend.js';

/** The probe's keys after its prefix, and their Redis type (records.ts, backend.ts). */
const LAYOUT: readonly [RegExp, string][] = [
  [/^(?:(?:m|warm):)?k:.*$/s, 'string'],
  [/^(?:(?:m|warm):)?effects$/, 'hash'],
  [/^(?:probe|lease)$/, 'string'],
];

const BATCH = 500;

/** The driver's clean-up: on one connection of its own, closed afterwards. */
export const cleanUpRedisStore: StoreDriver['cleanUp'] = async (url, force, timeoutMs, failed) => {
  const backend = await connectRedis(url, 1, timeoutMs);
  try {
    return await backend.withClient((c) => cleanUpRedis(c, force)).catch((e: unknown) => { throw failed(e); });
  } finally {
    await backend.close();
  }
};

export async function cleanUpRedis(client: Redis, force: boolean, now = Date.now()): Promise<CleanUpReport> {
  const byNamespace = new Map<string, string[]>();
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', 'idem-sim:*', 'COUNT', 1000);
    for (const k of keys) {
      const m = REDIS_NAMESPACE.exec(k);
      if (!m) continue;
      const ns = m[0];
      let list = byNamespace.get(ns);
      if (!list) byNamespace.set(ns, (list = []));
      list.push(k);
    }
    cursor = next;
  } while (cursor !== '0');

  const report: CleanUpReport = { removed: [], left: [] };
  for (const [ns, keys] of [...byNamespace.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const why = await reasonToLeave(client, ns, keys, force, now);
    if (why !== null) {
      report.left.push({ namespace: ns, reason: why });
      continue;
    }
    for (let i = 0; i < keys.length; i += BATCH) await client.unlink(...keys.slice(i, i + BATCH));
    report.removed.push({ namespace: ns, objects: keys.length });
  }
  return report;
}

/** Null when the namespace may go; else why it stays. */
async function reasonToLeave(client: Redis, ns: string, keys: readonly string[], force: boolean, now: number): Promise<string | null> {
  if ((await client.exists(`${ns}lease`)) === 1) return 'a running probe holds it (its lease key is live)';
  if (!force) {
    const marker = readMarker(await client.get(`${ns}probe`).catch(() => null));
    if (marker && Date.parse(marker.expires) > now) return `it expires at ${marker.expires} (--force removes it now)`;
  }
  for (let i = 0; i < keys.length; i += BATCH) {
    const batch = keys.slice(i, i + BATCH);
    const p = client.pipeline();
    for (const k of batch) p.type(k);
    const types = ((await p.exec()) ?? []).map(([err, t]) => (err ? null : String(t)));
    for (const [j, k] of batch.entries()) {
      const rest = k.slice(ns.length);
      const expected = LAYOUT.find(([re]) => re.test(rest))?.[1];
      // 'none': the key expired since the SCAN, which is fine.
      if (types[j] !== 'none' && (expected === undefined || types[j] !== expected)) {
        return `it holds ${k.length > 80 ? `${k.slice(0, 80)}...` : k}, which is not a key the probe writes`;
      }
    }
  }
  return null;
}
