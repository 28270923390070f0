/** The default output: one row per metric, one column per scenario, with 95% CIs. */
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import type { Estimate, Metrics, Quantiles } from '../../model/metrics.js';
import { duration, estimateText, num } from './format.js';
import type { RunInfo, ScenarioRun } from './types.js';

type Cell = (m: Metrics) => string;
type Row = readonly [label: string, cell: Cell] | readonly [section: string];

const est = (pick: (m: Metrics) => Estimate): Cell => (m) => estimateText(pick(m));
const q = (pick: (m: Metrics) => Quantiles, k: keyof Quantiles): Cell => (m) => duration(pick(m)[k]);
const pct = (pick: (m: Metrics) => number): Cell => (m) => `${(pick(m) * 100).toFixed(2)}%`;

const ROWS: readonly Row[] = [
  ['Duplicates'],
  ['duplicates per 1000 actions', est((m) => m.duplicates_per_1000)],
  ['  from transport retries', est((m) => m.duplicates_per_1000.transport)],
  ['  from model re-plans', est((m) => m.duplicates_per_1000.replan)],
  ['  from crash replays', est((m) => m.duplicates_per_1000.replay)],
  ['duplicates per day at load.rate_per_s', est((m) => m.duplicates_per_day)],
  ['Lost actions'],
  ['lost per 1000', est((m) => m.lost_per_1000)],
  ['  of which twins merged per 1000', est((m) => m.merged_per_1000)],
  ['Outcomes per 1000 actions'],
  ['unknown outcomes returned to the model', est((m) => m.unknown_outcomes_per_1000)],
  ['409 in progress', est((m) => m.conflicts_409_per_1000)],
  ['422 fingerprint mismatch', est((m) => m.mismatches_422_per_1000)],
  ['dedup hits (stored result replayed)', est((m) => m.dedup_hits_per_1000)],
  ['Load'],
  ['attempts per action', est((m) => m.attempts_per_action)],
  ['executions per action', est((m) => m.executions_per_action)],
  ['handler runs slower than the timeout', pct((m) => m.handler_over_timeout_fraction)],
  ['attempts ending unknown', pct((m) => m.attempts_unknown_fraction)],
  ['Latency'],
  ['call p50', q((m) => m.call_latency_ms, 'p50')],
  ['call p95', q((m) => m.call_latency_ms, 'p95')],
  ['call p99', q((m) => m.call_latency_ms, 'p99')],
  ['action p95 (replays included)', q((m) => m.action_latency_ms, 'p95')],
  ['Key store'],
  ['keys per action', est((m) => m.keys_per_action)],
  ['peak live keys (simulated)', (m) => num(m.peak_live_keys)],
  ['steady-state keys at rate × retention', (m) => num(Math.round(m.keys))],
  ['steady-state key store (MB)', (m) => num(m.key_store_mb)],
  ['Alert baselines (per second at load.rate_per_s)'],
  ['dedup hits', est((m) => m.alert_baselines_per_s.dedup_hits)],
  ['409 in progress', est((m) => m.alert_baselines_per_s.conflicts_409)],
  ['422 fingerprint mismatch', est((m) => m.alert_baselines_per_s.mismatches_422)],
  ['unknown outcomes returned to the model', est((m) => m.alert_baselines_per_s.unknown_outcomes)],
];

export function renderTable(runs: readonly ScenarioRun[], info: RunInfo, chalk: ChalkInstance): string {
  const table = new Table({
    head: ['', ...runs.map((r) => chalk.bold(r.name))],
    style: { head: [], border: [] }, // no colour codes of its own: chalk decides
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' }, // no rule between rows
    colAligns: ['left', ...runs.map(() => 'right' as const)],
  });
  for (const row of ROWS) {
    if (row.length === 1) table.push([chalk.bold.cyan(row[0]), ...runs.map(() => '')]);
    else table.push([row[0], ...runs.map((r) => row[1](r.metrics))]);
  }
  const actions = runs.map((r) => `${num(r.metrics.actions)}${r.metrics.actions !== r.metrics.primary_actions ? ` (${num(r.metrics.primary_actions)} primary)` : ''}`);
  const seeds = [...new Set(runs.map((r) => r.seed))];
  const precision = runs.flatMap((r) => (r.precision && !r.precision.reached
    ? [`${r.name}: stopped at --max-actions ${num(r.precision.max_actions)} before ${r.precision.metric} reached ± ${r.precision.half_width}`]
    : []));
  const footer = [
    ...precision,
    `actions simulated: ${[...new Set(actions)].join(' / ')}; ± is the 95% confidence interval; seed ${seeds.join(', ')}; idem-sim ${info.version}`,
    `replay: ${info.replay}`,
  ];
  return `${table.toString()}\n${chalk.dim(footer.join('\n'))}\n`;
}
