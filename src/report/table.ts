/**
 * The default output: one row per metric, one column per scenario, with 95% CIs. A table wider
 * than the report may be (io/terminal.ts) is cut into several, each with the row labels and a
 * group of scenario columns, rather than having its cells wrapped.
 */
import type { ChalkInstance } from 'chalk';
import type { WrittenLatency } from '../model/latency.js';
import { readMetric, type MetricPath } from '../results/metric-paths.js';
import { METRICS } from '../results/metric-registry.js';
import type { Metrics } from '../results/metrics.js';
import { formatDuration } from '../scenario/duration.js';
import { alertRows } from './alert-rows.js';
import { saturationLines, saturationRows } from './saturation-text.js';
import { renderAgentTables } from './agent-table.js';
import { columnGroups } from './column-groups.js';
import { CI_LEGEND, duration, num } from './format.js';
import { metricText } from './metric-text.js';
import { drawRows } from './sweep-table.js';
import type { RunInfo, ScenarioRun } from './types.js';

type Cell = (m: Metrics) => string;
type MetricRow<P extends MetricPath = MetricPath> = readonly [label: string, cell: Cell, path: P];
type Row = MetricRow | readonly [section: string];

/** A metric's row: its registry label, indented `depth` steps under the row above. */
const row = <P extends MetricPath>(path: P, depth = 0): MetricRow<P> => [`${'  '.repeat(depth)}${METRICS[path].label}`, (m) => metricText(m, path), path];

/** The rows of metrics some runs do not report, by label: whether a run's metrics hold it. */
const ONLY_WHERE: Readonly<Record<string, (m: Metrics) => boolean>> = Object.fromEntries(Object.values(METRICS)
  .filter((d) => d.only).map((d) => [d.label, (m: Metrics) => readMetric(m, d.path as MetricPath).value !== null]));

/** The heading of the alert baselines (the words of a table without incidents). */
const BASELINES = 'Alert baselines (per second at load.rate_per_s)';

const ROWS = [
  ['Duplicates'],
  row('duplicates_per_1000'),
  row('duplicates_per_1000.transport', 1),
  row('duplicates_per_1000.replan', 1),
  row('duplicates_per_1000.replay', 1),
  row('duplicates_per_1000.redelivery', 1),
  row('duplicates_per_day'),
  row('duplicates_per_day_outside_incidents', 1),
  ['Lost actions'],
  row('lost_per_1000'),
  row('merged_per_1000', 1),
  ['Deliveries (trigger)'],
  row('deliveries_per_action'),
  row('redelivered_per_1000'),
  row('dead_lettered_per_1000'),
  ['Outcomes per 1000 actions'],
  row('unknown_outcomes_per_1000'),
  row('conflicts_409_per_1000'),
  row('mismatches_422_per_1000'),
  row('dedup_hits_per_1000'),
  row('store_unavailable_per_1000'),
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
  ['Capacity (workers, retry budget, breaker)'],
  row('shed_per_1000'),
  row('expired_per_1000'),
  row('budget_denied_per_1000'),
  row('breaker_rejected_per_1000'),
  row('throttled_per_1000'),
  row('queue_wait_ms.p50'),
  row('queue_wait_ms.p95'),
  row('queue_wait_ms.p99'),
  row('utilisation'),
  row('saturated_share'),
  row('offered_utilisation'),
  row('peak_offered_utilisation'),
  ['Key store'],
  row('keys_per_action'),
  row('peak_live_keys'),
  row('keys'),
  row('key_store_mb'),
  [BASELINES],
  row('quiet_time_ms'),
  row('alert_baselines_per_s.dedup_hits'),
  row('alert_baselines_per_s.conflicts_409'),
  row('alert_baselines_per_s.mismatches_422'),
  row('alert_baselines_per_s.unknown_outcomes'),
] as const satisfies readonly Row[];

/** The metrics of the table's rows, in order. */
export const TABLE_METRICS: readonly MetricPath[] = ROWS.flatMap((r) => (r.length === 3 ? [r[2]] : []));

/**
 * The metrics the table has no row for, and where they are instead: a metric with neither a row
 * nor a place here fails to compile (and test/table-rows.test.ts names it).
 */
export const NOT_IN_TABLE: Readonly<Record<Exclude<MetricPath, Extract<(typeof ROWS)[number], MetricRow>[2]>, string>> = {
  'action_latency_ms.p50': 'the JSON (the table shows the action\'s tail, its p95)',
  'action_latency_ms.p99': 'the JSON (the table shows the action\'s tail, its p95)',
  actions: 'the footer (actions simulated)',
  primary_actions: 'the footer, where it differs from actions (N primary)',
};

/**
 * Labels that say what they extrapolate when runs have incidents (docs/model-decisions.md,
 * "Baselines and per-day figures with incidents"): the run's per-day figure repeats its incidents
 * as often as the run does, and the baselines come from the quiet time. Each label has its words
 * for every run of the table with incidents (all), and for some runs only (some).
 */
const WITH_INCIDENTS: Readonly<Record<string, { all: string; some: string }>> = {
  [METRICS.duplicates_per_day.label]: { all: 'duplicates per day, the run repeated (incidents and all)', some: 'duplicates per day (with incidents: the run repeated, incidents and all)' },
  [BASELINES]: { all: 'Alert baselines (per second outside incidents and their grace)', some: 'Alert baselines (per second; outside incidents and their grace where a run has them)' },
};

/** A label as a run with incidents reads it alone (the report's headline). */
export function labelWithIncidents(label: string): string {
  return WITH_INCIDENTS[label]?.all ?? label;
}

/** Which of WITH_INCIDENTS' words a label takes for `runs`: the baselines by the runs with quiet time, the others by the runs with incidents. */
function labeller(runs: readonly ScenarioRun[]): (text: string) => string {
  const share = (has: (r: ScenarioRun) => boolean) => (runs.every(has) ? 'all' : runs.some(has) ? 'some' : null);
  const incidents = share((r) => r.metrics.quiet_time_ms !== undefined);
  const quiet = share((r) => (r.metrics.quiet_time_ms ?? 0) > 0);
  return (text) => {
    const words = WITH_INCIDENTS[text];
    const which = text === BASELINES ? quiet : incidents;
    return words && which ? words[which] : text;
  };
}

/** The table of `runs` side by side, as cli-table3 draws it (no rule between rows). */
function draw(runs: readonly ScenarioRun[], chalk: ChalkInstance): string {
  const label = labeller(runs);
  // A metric only some scenarios report (its registry entry's `only`) has a row when one of these does.
  const reported = (row: Row) => row.length === 1 || !(row[0].trimStart() in ONLY_WHERE) || runs.some((r) => ONLY_WHERE[row[0].trimStart()]?.(r.metrics));
  const shown = ROWS.filter(reported);
  // A section none of whose rows is reported has no heading either (the capacity section of runs that are not coupled).
  const metricRows = shown.filter((row, i) => row.length !== 1 || (shown[i + 1]?.length ?? 1) !== 1).map((row) => (row.length === 1
    ? [chalk.bold.cyan(label(row[0])), ...runs.map(() => '')]
    : [label(row[0]), ...runs.map((r) => row[1](r.metrics))]));
  const rows = [...metricRows, ...[...saturationRows(runs), ...alertRows(runs)].map((row) => (row.length === 1
    ? [chalk.bold.cyan(row[0]), ...runs.map(() => '')]
    : [row[0], ...runs.map((r) => row[1](r))]))];
  return drawRows(['', ...runs.map((r) => chalk.bold(r.name))], rows, ['left', ...runs.map(() => 'right' as const)]);
}

/**
 * The tables of `runs`: one, or when it is wider than `width` columns, one per group of
 * scenarios (as few tables as fit, as evenly wide as they can be), a blank line between them.
 * A column is never cut: one scenario wider than `width` still makes a table of its own.
 */
function tables(runs: readonly ScenarioRun[], chalk: ChalkInstance, width: number | undefined): string {
  const whole = draw(runs, chalk);
  const top = whole.slice(0, whole.indexOf('\n'));
  if (width === undefined || top.length <= width || runs.length < 2) return whole;
  // The top border's runs of ─ are the columns' widths: box characters take one column each.
  const [label = 0, ...columns] = top.slice(1, -1).split('┬').map((run) => run.length);
  return columnGroups(label, columns, width).map(([from, to]) => draw(runs.slice(from, to), chalk)).join('\n\n');
}

/**
 * What each lognormal in `latency` that was given as percentiles (or a mean) was fitted to, and
 * the median and sigma the fit gave: one line each, `where` naming a mixture's component.
 */
export function fittedLatencies(latency: WrittenLatency, where = ''): string[] {
  if (latency.dist === 'mixture') return latency.components.flatMap((c, i) => fittedLatencies(c, `${where ? `${where}.` : ''}components[${i}]`));
  if (latency.dist !== 'lognormal' || !latency.fitted_to) return [];
  const points = Object.entries(latency.fitted_to).map(([key, ms]) => `${key} ${formatDuration(ms)}`);
  // Three significant digits: a median the fit gave is not round (385.1234ms).
  const median = formatDuration(Number(latency.median.toPrecision(3)));
  return [`${where ? `${where}: ` : ''}lognormal fitted to ${points.join(', ')}: median ${median}, sigma ${num(latency.sigma)}`];
}

/** The run table; `width` is the widest line it may draw (undefined: no limit). */
export function renderTable(runs: readonly ScenarioRun[], info: RunInfo, chalk: ChalkInstance, width?: number): string {
  const actions = runs.map((r) => `${num(r.metrics.actions)}${r.metrics.actions !== r.metrics.primary_actions ? ` (${num(r.metrics.primary_actions)} primary)` : ''}`);
  // An agent's tools run on SEED/TOOL: the agent's seed says them all.
  const toolRuns = new Set(info.agents?.flatMap((a) => a.tools.map((t) => t.run)));
  const seeds = [...new Set([...runs.filter((r) => !toolRuns.has(r.name)).map((r) => r.seed), ...(info.agents ?? []).map((a) => `${a.seed} (each tool on ${a.seed}/TOOL)`)])];
  const precision = runs.flatMap((r) => (r.precision && !r.precision.reached
    ? [`${r.name}: stopped at --max-actions ${num(r.precision.max_actions)} before ${r.precision.metric} reached ± ${r.precision.half_width}`]
    : []));
  const fits = runs.flatMap((r) => fittedLatencies(r.scenario.service.latency).map((line) => `latency of ${r.name}${/^components/.test(line) ? ', ' : ': '}${line}`));
  const series = runs.find((r) => r.series)?.series;
  const footer = [
    ...precision,
    ...fits,
    ...(series ? [`series counted in buckets of ${duration(series.step)}: print them with --json (results[i].series) or --format csv`] : []),
    `actions simulated: ${[...new Set(actions)].join(' / ')}; ${CI_LEGEND}; seed ${seeds.join(', ')}; idem-sim ${info.version}`,
    `replay: ${info.replay}`,
  ];
  const agents = info.agents && info.agents.length > 0 ? `\n${renderAgentTables(info.agents, chalk, width)}\n` : '';
  // A coupled run's saturation leads (a storm with no incident, an incident it did not recover from): never only a missing alert.
  const lead = runs.flatMap((r) => saturationLines(r.metrics, r.scenario).map((line) => `${r.name}: ${line}`));
  return `${lead.length > 0 ? `${lead.join('\n')}\n` : ''}${tables(runs, chalk, width)}\n${agents}${chalk.dim(footer.join('\n'))}\n`;
}
