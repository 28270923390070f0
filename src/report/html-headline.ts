/**
 * The report page's headline table: the metrics a page leads with, each as its registry title
 * and the run table's text (`idem-sim report`, and each tool of an agent's page). Pure.
 */
import type { Metrics } from '../results/metrics.js';
import type { MetricPath } from '../results/metric-paths.js';
import { METRICS, metricTitle } from '../results/metric-registry.js';
import { coupledMetrics } from '../results/capacity.js';
import { triggeredMetrics } from '../results/delivery.js';
import { escapeHtml } from './html.js';
import { metricText } from './metric-text.js';
import { labelWithIncidents } from './table.js';

/** The metrics of the headline table, each shown as its registry title and the run table's text. */
const HEADLINE: readonly MetricPath[] = [
  'duplicates_per_1000', 'duplicates_per_day', 'lost_per_1000', 'unknown_outcomes_per_1000', 'conflicts_409_per_1000', 'mismatches_422_per_1000',
  'dedup_hits_per_1000', 'attempts_per_action', 'call_latency_ms.p50', 'call_latency_ms.p95', 'call_latency_ms.p99', 'action_latency_ms.p95',
  'keys_per_action', 'peak_live_keys', 'keys', 'key_store_mb',
];

/** What the headline adds for a coupled run (docs/model.md, "Capacity"), after the latencies. */
const CAPACITY_HEADLINE: readonly MetricPath[] = [
  'shed_per_1000', 'expired_per_1000', 'budget_denied_per_1000', 'breaker_rejected_per_1000', 'queue_wait_ms.p50', 'queue_wait_ms.p95', 'queue_wait_ms.p99', 'utilisation',
  'saturated_share', 'offered_utilisation', 'peak_offered_utilisation',
];

/** What the headline adds for a run with a trigger (docs/model.md, "Inbound delivery"), after the lost actions; the duplicates of its redeliveries come after the duplicates. */
const TRIGGER_HEADLINE: readonly MetricPath[] = ['deliveries_per_action', 'redelivered_per_1000', 'dead_lettered_per_1000'];

/** Rows of the headline table: label, and the value as text. */
export function headline(m: Metrics): [string, string][] {
  const after = (list: readonly MetricPath[], at: MetricPath, more: readonly MetricPath[]) => [...list.slice(0, list.indexOf(at) + 1), ...more, ...list.slice(list.indexOf(at) + 1)];
  let paths = !coupledMetrics(m) ? HEADLINE : after(HEADLINE, 'action_latency_ms.p95', CAPACITY_HEADLINE);
  if (m.throttled_per_1000 !== undefined) paths = after(paths, 'breaker_rejected_per_1000', ['throttled_per_1000']); // where it is set (model/guards.ts)
  if (triggeredMetrics(m)) paths = after(after(paths, 'duplicates_per_1000', ['duplicates_per_1000.redelivery']), 'lost_per_1000', TRIGGER_HEADLINE); // with a trigger (results/delivery.ts)
  // With incidents the per-day figure repeats them, as the run table says; the quiet time's comes next.
  const incidents = m.quiet_time_ms !== undefined;
  if (incidents) paths = after(paths, 'duplicates_per_day', ['duplicates_per_day_outside_incidents']);
  return paths.map((path) => [incidents && path === 'duplicates_per_day' ? labelWithIncidents(METRICS.duplicates_per_day.label) : metricTitle(path), metricText(m, path)]);
}

/** The headline table's style (its class is `headline`). */
export const HEADLINE_STYLE = `
table.headline td { padding: 2px 16px 2px 0; font-variant-numeric: tabular-nums; }
table.headline td:first-child { color: #57606a; }`;

/** The headline table as HTML. */
export function headlineTable(m: Metrics): string {
  return `<table class="headline">${headline(m).map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`;
}
