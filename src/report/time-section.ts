/**
 * The report page's section "Over time" (docs/model.md, "Time"): what the shading and the
 * marks mean in words, a chart per count of the run's series, and a table of the alerts'
 * firings, detection delays and false alarms.
 */
import { arrivalSpan } from '../model/clock.js';
import type { AlertResult } from '../results/alerts.js';
import type { SeriesCounts } from '../model/series.js';
import { listedSeries } from '../results/capacity.js';
import type { WrittenScenario } from '../model/types.js';
import type { Metrics } from '../results/metrics.js';
import { falseAlarmText, missingReading, recoveryReading } from './saturation-text.js';
import { duration, num } from './format.js';
import { escapeHtml } from './html.js';
import { nonEmptyCounts, seriesCharts, type ChartAlert, type SeriesChartInput } from './series-chart.js';
import { runTime } from './time-axes.js';

type Incident = WrittenScenario['incidents'][number];

export interface TimeSectionInput {
  series: SeriesCounts;
  scenario: WrittenScenario;
  /** The scenario's alerts evaluated on `series` (undefined: it has none). */
  alerts: readonly AlertResult[] | undefined;
  /** --at, ms. */
  at?: number;
  /** The run's metrics: a coupled run's saturation follows an alert's missing reading (saturation-text.ts). */
  metrics?: Metrics;
}

/** Firings listed one by one in the table; the rest are counted. */
const LISTED_FIRINGS = 12;

export const TIME_STYLE = `
.series-charts { display: flex; flex-wrap: wrap; gap: 12px 16px; }
.series-charts svg { border: 1px solid var(--rule); }
table.alerts { margin-top: 12px; }
table.alerts caption { text-align: left; max-width: 80ch; padding-bottom: 4px; }
table.alerts td, table.alerts th { text-align: left; white-space: normal; vertical-align: top; }`;

/** What an incident changes, in words ("latency ×4, key store down"). */
export function incidentChanges(w: Incident): string {
  const words: string[] = [];
  const add = (value: number | null | undefined, text: (v: number) => string) => { if (value !== null && value !== undefined) words.push(text(value)); };
  add(w.service.latency_multiplier, (v) => `latency ×${num(v)}`);
  add(w.service.error_rate, (v) => `error rate ${num(v)}`);
  add(w.service.crash_probability, (v) => `handler crash probability ${num(v)}`);
  add(w.network.request_loss, (v) => `request loss ${num(v)}`);
  add(w.network.reply_loss, (v) => `reply loss ${num(v)}`);
  if (w.store.down !== null) words.push(w.store.down ? 'key store down' : 'key store back up');
  add(w.runtime.crash_probability, (v) => `worker crash probability ${num(v)} for steps ending in it`);
  add(w.service.capacity?.workers, (v) => (v === 0 ? 'every worker paused (0 workers)' : `${num(v)} workers`));
  return words.length > 0 ? words.join(', ') : 'no change';
}

/** The alerts as the charts draw them: each spec with its firings. */
export function chartAlerts(scenario: WrittenScenario, results: readonly AlertResult[] | undefined): ChartAlert[] {
  return scenario.alerts.map((a) => {
    const r = results?.find((x) => x.name === a.name);
    return { name: a.name, metric: a.metric, above: a.above, for: a.for, firings: r?.firings ?? [], firing_count: r?.firing_count ?? 0 };
  });
}

function legend(input: TimeSectionInput): string {
  const { scenario, series } = input;
  const words = [`Each chart is one count of the run's series per second, in buckets of ${escapeHtml(duration(series.step))} (every event in the bucket holding its time: docs/model.md, "Time"); x is the run's time in minutes.`];
  if (scenario.incidents.length > 0) {
    const list = scenario.incidents.map((w) => `<strong>${escapeHtml(w.name)}</strong> from ${runTime(w.from)} to ${runTime(w.to)} (${escapeHtml(incidentChanges(w))})`);
    words.push(`The shaded bands between dashed edges, labelled with their names, are the incident windows: ${list.join('; ')}.`);
  }
  if (scenario.alerts.length > 0) words.push('Each alert is drawn on the chart of its metric: its threshold as a red dashed line, each firing as a red bar above the chart over a light red band.');
  if (input.at !== undefined) words.push(`The dotted line marked <em>timeline</em> is ${runTime(input.at)}, where the action timeline below is centred.`);
  const zero = listedSeries(scenario).filter((n) => !nonEmptyCounts(series).includes(n));
  if (zero.length > 0) words.push(`Counts that stayed at 0 the whole run have no chart: ${zero.join(', ')}.`);
  return `<p class="note">${words.join(' ')}</p>`;
}

/**
 * An alert's reading per incident (detection_delay_ms, or recovery_ms: `none` the words where it
 * is null, with what the service's saturation adds to them when `m` is a coupled run's).
 */
function perIncident(readings: Readonly<Record<string, number | null>>, none: string, scenario: WrittenScenario, m?: Metrics, recovery = false): string {
  const entries = Object.entries(readings);
  if (entries.length === 0) return 'no incidents';
  const missing = (name: string) => (m ? missingReading(none, m, scenario, name) : none);
  const found = (name: string, d: number) => (m && recovery ? recoveryReading(d, m, name) : duration(d));
  return entries.map(([name, d]) => `${escapeHtml(name)}: ${escapeHtml(d === null ? missing(name) : found(name, d))}`).join('<br>');
}

function firingList(r: AlertResult): string {
  if (r.firing_count === 0) return 'never fired';
  const listed = r.firings.slice(0, LISTED_FIRINGS).map(([s, e]) => `${runTime(s)} to ${runTime(e)}`);
  const more = r.firing_count > listed.length ? `<br>and ${num(r.firing_count - listed.length)} more` : '';
  return `${num(r.firing_count)}: ${listed.join('<br>')}${more}`;
}

/** The table of alerts: rule, firings, detection delay per incident, (a coupled run's) recovery per incident, false alarms. */
export function alertTable(scenario: WrittenScenario, results: readonly AlertResult[], m?: Metrics): string {
  if (results.length === 0) return '';
  const recovery = results.some((r) => r.recovery_ms);
  const rows = results.map((r) => {
    const spec = scenario.alerts.find((a) => a.name === r.name);
    const rule = spec ? `${spec.metric} above ${num(spec.above)}/s${spec.for > 0 ? ` for ${duration(spec.for)}` : ''}, grace ${duration(spec.grace)}` : '';
    const recovered = recovery ? `<td>${perIncident(r.recovery_ms ?? {}, 'no firing', scenario, m, true)}</td>` : '';
    return `<tr data-alert-row="${escapeHtml(r.name)}"><td>${escapeHtml(r.name)}</td><td>${escapeHtml(rule)}</td><td>${firingList(r)}</td><td>${perIncident(r.detection_delay_ms, 'not detected', scenario, m)}</td>${recovered}<td>${escapeHtml(m ? falseAlarmText(r.false_alarms, r.firings, spec?.grace ?? 0, m, scenario) : num(r.false_alarms))}</td></tr>`;
  });
  const recoveryWords = recovery ? '; its recovery is from the incident\'s end to the end of the last firing that belongs to it (0 if that ended first): how long the failure outlived its trigger' : '';
  return `<table class="data alerts"><caption class="note">Alerts evaluated on the series: a firing starts at the end of the bucket that completes the run above the threshold; its detection delay is from the incident's start${recoveryWords}; a firing that belongs to no incident (its start not within an incident window and its grace) is a false alarm.</caption>
<thead><tr><th>alert</th><th>rule</th><th>firings (start to end)</th><th>detection delay</th>${recovery ? '<th>recovery</th>' : ''}<th>false alarms</th></tr></thead>
<tbody>${rows.join('')}</tbody></table>`;
}

/** The section, from its heading to its table, each line ending in a newline. */
export function timeSection(input: TimeSectionInput): string {
  const chartInput: SeriesChartInput = {
    series: input.series,
    incidents: input.scenario.incidents.map((w) => ({ name: w.name, from: w.from, to: w.to })),
    alerts: chartAlerts(input.scenario, input.alerts),
    loadEnd: arrivalSpan(input.scenario),
    ...(input.at !== undefined ? { at: input.at } : {}),
  };
  const charts = seriesCharts(chartInput).map((c) => c.svg);
  return `<h2>Over time</h2>
${legend(input)}
<div class="series-charts">${charts.join('\n')}</div>
${input.alerts ? `${alertTable(input.scenario, input.alerts, input.metrics)}\n` : ''}`;
}
