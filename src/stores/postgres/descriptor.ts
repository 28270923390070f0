/** PostgreSQL as the rest of the program sees it, without loading pg (src/stores/descriptor.ts). */
import { accessSync, constants, statSync } from 'node:fs';
import type { StoreDescriptor } from '../descriptor.js';

/** Bytes of the measurement's key table per row: heap, TOAST table, indexes, and all together. */
export interface RelationBytes { table: number; toast: number; index: number; total: number }

/** PostgreSQL's part of a bytes measurement (`measurement.postgres` in the probe's JSON). */
export interface PostgresBytes {
  /** Per row, from pg_relation_size (heap), the TOAST table, pg_indexes_size and pg_total_relation_size. */
  as_written: RelationBytes;
  /** The same after VACUUM FULL rewrote the table without dead row versions. */
  after_vacuum_full: RelationBytes;
}

const PORT = 5432;
/** The query keys that name a TLS file: a certificate authority, a client certificate, its key. */
const TLS_FILES = ['sslrootcert', 'sslcert', 'sslkey'] as const;

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export const POSTGRES: StoreDescriptor<'postgres', PostgresBytes> = {
  kind: 'postgres',
  label: 'PostgreSQL',
  schemes: ['postgres:', 'postgresql:'],
  scheme: 'postgres://',
  defaultPort: PORT,
  urlForms: `postgres://[user[:password]@]host[:${PORT}]/database`,
  example: `postgres://user@127.0.0.1:${PORT}/database`,
  withScheme: (hostPort) => `postgres://${hostPort}/DATABASE`,
  driver: 'node-pg',
  // pg-connection-string copies every query key into the client's config: `options=-c
  // search_path=...` or `-c role=...` change where and as whom statements run;
  // `query_timeout`, `application_name` replace the probe's.
  allowedQuery: ['host', 'port', 'user', 'password', 'ssl', 'sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'sslnegotiation', 'uselibpqcompat', 'statement_timeout', 'lock_timeout'],
  namespaceOptions: {
    options: 'startup settings (such as -c search_path=... or -c role=...) change where and as whom the probe writes; remove ?options= (the probe writes only to a fresh schema idem_sim_<hex> of its own, named in full)',
  },
  checkUrl(u, bad) {
    if (u.host === '' && u.pathname.replace(/^\//, '') === '' && !u.searchParams.has('host')) {
      bad('names no host and no database', `Write it as postgres://user@host:${PORT}/database.`);
    }
    // node-pg reads these files as it connects, and a missing one was an internal error there.
    for (const key of TLS_FILES) {
      const path = u.searchParams.get(key);
      if (path !== null && path !== '' && !readable(path)) bad(`names in ${key}= a file that cannot be read`, `Give ${key}= the path of a PEM file this user can read, or remove it.`);
    }
  },
  transactional: true,
  namespaceNoun: 'schema',
  objectsNoun: 'key rows',
  leftBehind: (ns) => ({ what: `the schema ${ns}`, how: `remove it (DROP SCHEMA ${ns} CASCADE)` }),
  cleanUpNeeds: 'drop its idem_sim_* schemas (PostgreSQL)',
  measurementRows: ({ as_written: w, after_vacuum_full: v }) => [
    ['  as written: table, TOAST, index', [w.table, w.toast, w.index]],
    ['  after VACUUM FULL: table, TOAST, index, total', [v.table, v.toast, v.index, v.total]],
  ],
};
