/**
 * `reconcile --format csv`: the buckets over time (`--step`), one row a bucket for all the tools
 * together (an empty `tool`), then, where the rows name two tools or more, one a bucket for each
 * tool; effects and duplicates by diagnosis (`same_key_after_expiry` empty without --retention).
 */
import type { Readings, Reconciliation } from '../reconcile/readings.js';
import { DIAGNOSES } from '../reconcile/readings.js';
import { csvText } from './csv.js';

export const RECONCILE_CSV_COLUMNS = ['start', 'start_ms', 'tool', 'effects', 'duplicates', ...DIAGNOSES] as const;

function rows(r: Readings, retention: boolean): unknown[][] {
  return r.series.map((b) => [
    new Date(b.startMs).toISOString(), b.startMs, r.name ?? '', b.effects, b.duplicates,
    ...DIAGNOSES.map((d) => (d === 'same_key_after_expiry' && !retention ? null : b.diagnosis[d])),
  ]);
}

export function renderReconcileCsv(r: Reconciliation): string {
  const retention = r.retentionMs !== null;
  const each = r.tools.length > 1 ? r.tools.flatMap((t) => rows(t, retention)) : [];
  return csvText([...rows(r.overall, retention), ...each], RECONCILE_CSV_COLUMNS);
}
