/** The default output: one row per metric, one column per scenario, with 95% CIs. */
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import { readMetric, type MetricPath } from '../../model/metric-paths.js';
import { METRICS, type MetricDef } from '../../model/metric-registry.js';
import type { Estimate, Metrics } from '../../model/metrics.js';
import { duration, estimateText, num } from './format.js';
import type { RunInfo, ScenarioRun } from './types.js';

type Cell = (m: Metrics) => string;
type Row = readonly [label: string, cell: Cell] | readonly [section: string];

/** A metric's cell, by what the registry says it is: an estimate ± its CI, a duration, a percentage or a number. */
function cellOf(d: MetricDef): Cell {
  const path = d.path as MetricPath;
  if (d.kind === 'estimate') return (m) => estimateText(readMetric(m, path) as Estimate);
  const value = (m: Metrics) => readMetric(m, path).value;
  switch (d.unit) {
    case 'ms': return (m) => duration(value(m));
    case 'fraction': return (m) => `${((value(m) as number) * 100).toFixed(2)}%`;
    case 'keys': return (m) => num(Math.round(value(m) as number)); // steady-state keys are fractional
    case 'count': case 'MB': case 'actions': return (m) => num(value(m));
    default: return assertNever(d.unit);
  }
}

/** A metric's row: its registry label, indented `depth` steps under the row above. */
const row = (path: MetricPath, depth = 0): Row => {
  const d = METRICS[path];
  return [`${'  '.repeat(depth)}${d.label}`, cellOf(d)];
};

const ROWS: readonly Row[] = [
  ['Duplicates'],
  row('duplicates_per_1000'),
  row('duplicates_per_1000.transport', 1),
  row('duplicates_per_1000.replan', 1),
  row('duplicates_per_1000.replay', 1),
  row('duplicates_per_day'),
  ['Lost actions'],
  row('lost_per_1000'),
  row('merged_per_1000', 1),
  ['Outcomes per 1000 actions'],
  row('unknown_outcomes_per_1000'),
  row('conflicts_409_per_1000'),
  row('mismatches_422_per_1000'),
  row('dedup_hits_per_1000'),
  ['Load'],
  row('attempts_per_action'),
  row('executions_per_action'),
  row('handler_over_timeout_fraction'),
  row('attempts_unknown_fraction'),
  ['Latency'],
  row('call_latency_ms.p50'),
  row('call_latency_ms.p95'),
  row('call_latency_ms.p99'),
  row('action_latency_ms.p95'),
  ['Key store'],
  row('keys_per_action'),
  row('peak_live_keys'),
  row('keys'),
  row('key_store_mb'),
  ['Alert baselines (per second at load.rate_per_s)'],
  row('alert_baselines_per_s.dedup_hits'),
  row('alert_baselines_per_s.conflicts_409'),
  row('alert_baselines_per_s.mismatches_422'),
  row('alert_baselines_per_s.unknown_outcomes'),
];

function assertNever(x: never): never {
  throw new TypeError(`unhandled metric unit ${String(x)}`);
}

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
