/**
 * Which effects `reconcile` reads: an export file (CSV or JSON lines, file-rows.ts) or a
 * PostgreSQL query (`--postgres URL --query SQL`, postgres.ts, loaded only then: it loads pg).
 * The options that cannot go together are refused before anything is opened, in one sentence
 * each that never repeats the URL (it may hold a password).
 */
import { InputError } from '../scenario/errors.js';
import type { RawRows } from './raw.js';
import { reconcileRows } from './reconcile.js';
import type { ReconcileOptions, Reconciliation } from './readings.js';
import { QUERY_OPTION, TIMEOUT_OPTION, URL_OPTION } from './postgres-failures.js';

/** The source as the command line gives it. */
export interface SourceOptions {
  file?: string | undefined;
  postgres?: string | undefined;
  query?: string | undefined;
  statementTimeoutMs?: number | undefined;
}

export interface EffectsSource {
  /** Where the rows come from, as the readings name it (RawRows.where). */
  readonly where: string;
  /** The files read, which no output may overwrite: the effects file, or none for a query. */
  readonly inputs: readonly string[];
  open(): Promise<RawRows>;
}

const EITHER = `Name an effects file (CSV or JSON lines), or give ${URL_OPTION} URL ${QUERY_OPTION} SQL`;

/** The source `o` names, its options checked together. */
export function effectsSource(o: SourceOptions): EffectsSource {
  const refuse = (flag: string, problem: string, fix: string): never => {
    throw new InputError({ source: flag }, '', problem, fix);
  };
  if (o.postgres === undefined) {
    if (o.query !== undefined) refuse(QUERY_OPTION, `needs ${URL_OPTION} URL, the PostgreSQL to run it on`, `Give ${URL_OPTION} postgres://user@host:5432/database beside it, or leave ${QUERY_OPTION} out to read a file.`);
    if (o.statementTimeoutMs !== undefined) refuse(TIMEOUT_OPTION, `applies to ${URL_OPTION} alone, and no ${URL_OPTION} is given`, `Leave ${TIMEOUT_OPTION} out for a file, or give ${URL_OPTION} URL ${QUERY_OPTION} SQL.`);
    const file = o.file;
    if (file === undefined) return refuse('reconcile', 'no effects given', `${EITHER}.`);
    return { where: file, inputs: [file], open: async () => (await import('./file-rows.js')).openEffectsFile(file) };
  }
  if (o.file !== undefined) refuse(URL_OPTION, `cannot read a query and the effects file ${o.file} at once`, `${EITHER}, not both.`);
  const query = o.query;
  if (query === undefined) return refuse(URL_OPTION, `needs ${QUERY_OPTION} SQL, the SELECT whose rows are the effects`, `Give ${QUERY_OPTION} "SELECT order_line_id, created_at, idempotency_key FROM refunds ORDER BY created_at" beside it.`);
  const url = o.postgres;
  return {
    where: 'the query',
    inputs: [],
    open: async () => (await import('./postgres.js')).postgresRows({ url, query, ...(o.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: o.statementTimeoutMs }) }),
  };
}

/** The readings of the source, which is closed whatever happens. */
export async function reconcileSource(source: EffectsSource, options: ReconcileOptions): Promise<Reconciliation> {
  const rows = await source.open();
  try {
    return await reconcileRows(rows, options);
  } finally {
    await rows.close();
  }
}
