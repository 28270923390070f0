/**
 * `probe --clean-up` on PostgreSQL: the schemas `idem_sim_<8 hex>` whose comment is an
 * idem-sim probe marker, that hold only the probe's tables, and whose advisory lock is free
 * (no running probe holds it: the server drops a session's locks when its connection dies,
 * SIGKILL included), once the marker's expiry has passed, or with `force` whatever it is.
 * Anything else, including a schema of that name without the marker, is never removed.
 */
import pg from 'pg';
import type { StoreDriver } from '../descriptor.js';
import { PG_NAMESPACE, readMarker, type CleanUpReport } from '../lifetime.js';
import { clientConfig, connectError } from './backend.js';
import { ident, lockKey } from './schema.js';

/** The relations a probe creates in its schema (tables, their primary keys, the bigserial sequences). */
const OWN_RELATIONS = new Set([
  'idempotency_keys', 'idempotency_keys_pkey', 'effects', 'effects_pkey', 'effects_id_seq',
  'size_probe', 'size_probe_pkey', 'size_probe_effects', 'size_probe_effects_pkey', 'size_probe_effects_id_seq',
]);

/** The driver's clean-up: on one client of its own (no pool, no schema lock holder), ended afterwards. */
export const cleanUpPostgresStore: StoreDriver['cleanUp'] = async (url, force, timeoutMs, failed) => {
  const client = new pg.Client(clientConfig(url, timeoutMs));
  client.on('error', () => undefined);
  await client.connect().catch((e: unknown) => { throw connectError(url, e); });
  try {
    return await cleanUpPostgres(client, force).catch((e: unknown) => { throw failed(e); });
  } finally {
    await client.end().catch(() => undefined);
  }
};

export async function cleanUpPostgres(client: pg.Client, force: boolean, now = Date.now()): Promise<CleanUpReport> {
  const schemas = await client.query<{ name: string; comment: string | null }>(
    `SELECT nspname AS name, obj_description(oid, 'pg_namespace') AS comment FROM pg_namespace
     WHERE nspname LIKE 'idem\\_sim\\_%' ORDER BY nspname`);
  const report: CleanUpReport = { removed: [], left: [] };
  for (const { name, comment } of schemas.rows) {
    if (!PG_NAMESPACE.test(name)) continue;
    const marker = readMarker(comment);
    if (!marker) {
      report.left.push({ namespace: name, reason: `it has no idem-sim marker (made by an earlier idem-sim, or not by idem-sim): check it, then DROP SCHEMA ${name} CASCADE` });
      continue;
    }
    if (!force && Date.parse(marker.expires) > now) {
      report.left.push({ namespace: name, reason: `it expires at ${marker.expires} (--force removes it now)` });
      continue;
    }
    const [classId, objId] = lockKey(name);
    const lock = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS got', [classId, objId]);
    if (lock.rows[0]?.got !== true) {
      report.left.push({ namespace: name, reason: 'a running probe holds it (its advisory lock is taken)' });
      continue;
    }
    try {
      const foreign = await foreignObject(client, name);
      if (foreign !== null) {
        report.left.push({ namespace: name, reason: `it holds ${foreign}, which the probe does not create` });
        continue;
      }
      const rows = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${ident(name)}.idempotency_keys`).catch(() => ({ rows: [{ n: '0' }] }));
      await client.query(`DROP SCHEMA ${ident(name)} CASCADE`);
      report.removed.push({ namespace: name, objects: Number(rows.rows[0]?.n ?? 0) });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [classId, objId]);
    }
  }
  return report;
}

/** The first object in the schema that is not the probe's, described, or null. */
async function foreignObject(client: pg.Client, schema: string): Promise<string | null> {
  const rels = await client.query<{ relname: string }>('SELECT relname FROM pg_class WHERE relnamespace = $1::regnamespace ORDER BY relname', [schema]);
  const rel = rels.rows.find((r) => !OWN_RELATIONS.has(r.relname));
  if (rel) return `the relation ${rel.relname}`;
  const other = await client.query<{ what: string }>(
    `SELECT 'the function ' || proname AS what FROM pg_proc WHERE pronamespace = $1::regnamespace
     UNION ALL SELECT 'the type ' || typname FROM pg_type WHERE typnamespace = $1::regnamespace AND typrelid = 0 AND typcategory <> 'A'
     LIMIT 1`, [schema]);
  return other.rows[0]?.what ?? null;
}
