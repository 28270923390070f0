/** `reconcile`'s report in the format asked: the table, JSON or the CSV of the buckets over time. */
import type { ChalkInstance } from 'chalk';
import type { Reconciliation } from '../reconcile/readings.js';
import { renderReconcileCsv } from './reconcile-csv.js';
import type { ReconcileFormat } from './reconcile-formats.js';
import { renderReconcileJson } from './reconcile-json.js';
import { renderReconcileTable } from './reconcile-table.js';

export function reconcileText(r: Reconciliation, format: ReconcileFormat, version: string, style: ChalkInstance): string {
  switch (format) {
    case 'json': return renderReconcileJson(r, version);
    case 'csv': return renderReconcileCsv(r);
    default: return renderReconcileTable(r, version, style);
  }
}
