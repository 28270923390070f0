/**
 * The lab's run over time: the page counts the run's series (engine/series-tally.ts) in buckets
 * fine enough to see a 30-second pause, draws some of its counts with the report's charts
 * (report/series-chart.ts: the incident windows shaded, each alert on its count), and still
 * gives the numbers of `idem-sim run`, which counts its series in minutes (with incidents or
 * alerts) or not at all: the CLI's series is the page's summed, minute by minute. Pure.
 */
import { arrivalSpan } from '../model/clock.js';
import { MAX_SERIES_BUCKETS } from '../model/limits.js';
import { NUM_SERIES, summedRows, type SeriesCounts, type SeriesName } from '../model/series.js';
import type { WrittenScenario } from '../model/types.js';
import type { AlertResult } from '../results/alerts.js';
import type { Metrics, RunState } from '../results/metrics.js';
import { listedSeries } from '../results/capacity.js';
import type { RunResult } from '../exec/simulate.js';
import { longestDelay } from '../engine/grid.js';
import { duration } from '../report/format.js';
import { nonEmptyCounts, seriesChart, type SeriesChartInput } from '../report/series-chart.js';
import { saturationChart } from '../report/saturation-chart.js';
import { alertTable, chartAlerts, incidentChanges } from '../report/time-section.js';
import { runTime } from '../report/time-axes.js';

/** The page's steps (ms): up to a minute each divides one, so the CLI's minutes are sums of the page's buckets. */
const STEPS = [100, 200, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 20_000, 30_000, 60_000,
  ...[2, 5, 10, 15, 30, 60, 120, 360, 720, 1440].map((m) => m * 60_000)];

/** At most this many buckets over the load: a 30-second pause in 30 minutes still spans two, and a count of tens a second reads as a rate rather than as its noise. */
const BUCKETS_OVER_LOAD = 150;

/**
 * The step of the page's series: the finest of STEPS that gives at most BUCKETS_OVER_LOAD
 * buckets over the load, divides `cliStep` (the CLI's series for the same run, null for none),
 * and keeps the longest an action's calls can go on within a series' buckets.
 */
export function chartStep(s: WrittenScenario, cliStep: number | null): number {
  const span = arrivalSpan(s);
  const reach = span + longestDelay(s);
  const fits = STEPS.filter((step) => (cliStep === null || cliStep % step === 0) && reach / step <= MAX_SERIES_BUCKETS);
  return fits.find((step) => span / step <= BUCKETS_OVER_LOAD) ?? fits.at(-1) ?? cliStep ?? STEPS.at(-1) as number;
}

/** `series` in buckets of `step` (a multiple of its own): each the sum of the buckets it holds; the last still the one holding the last event. */
export function coarser(series: SeriesCounts, step: number): SeriesCounts {
  const k = step / series.step;
  if (!Number.isInteger(k) || k < 1) throw new Error(`a series of ${series.step} ms buckets cannot be summed into ${step} ms buckets`);
  const { rows } = summedRows(series.counts, 0, k, (n) => new Float64Array(n));
  return { step, buckets: rows.length / NUM_SERIES, counts: rows };
}

/**
 * The run's metrics as `idem-sim run` gives them for it: a run's sums read its series only for
 * the quiet time (`RunState.finish`, results/quiet.ts), so they are finished here with the CLI's
 * series in place of the page's (`cliSeries`, null where the CLI counts none).
 */
export function cliMetrics(run: RunResult, cliSeries: SeriesCounts | null): Metrics {
  const atCliStep = Object.create(run.state, { series: { value: () => cliSeries } }) as RunState;
  return atCliStep.finish(run.scenario);
}

/** The counts the page draws, in this order, where the run counts any: the load, what the clients send, what fails, what gets through, what a guard stops, then a trigger's deliveries and what its sender gave up. */
export const TIME_COUNTS: readonly SeriesName[] = [
  'arrivals', 'attempts', 'timeouts', 'succeeded', 'shed', 'expired', 'budget_denied', 'breaker_rejected', 'throttled', 'duplicates', 'deliveries', 'dead_lettered',
];

/** What the page shows of the run over time. */
export interface TimeView {
  /** The series' step (ms). */
  step: number;
  /** The charts (the report's SVG), one per count of TIME_COUNTS the run has. */
  charts: string[];
  /** The report's table of the alerts (firings, detection delays, recoveries with what the saturation adds), '' without alerts. */
  alerts: string;
  /** What they show, in words. */
  note: string;
  /** The series itself, for `series-json` (the JSON of `run --series STEP --json`) and automation. */
  series: SeriesCounts;
  /** The load's end (ms). */
  loadEnd: number;
  /** The counts the run lists (a coupled run's own only for it), as the CLI's JSON does. */
  listed: readonly SeriesName[];
  /** With workers: the saturated ms of each bucket of `step` (drawn first), past the series' end too while the backlog drains; else null. */
  saturatedMs: readonly number[] | null;
}

/**
 * The page's view of the run over time, from its series, the alerts judged on the CLI's and the
 * run's metrics; with workers, first the saturated share of each bucket (`saturatedMs`, the
 * engine's SaturationTally in the series' buckets), the drain after the load's end included.
 */
export function timeView(scenario: WrittenScenario, series: SeriesCounts, alerts: readonly AlertResult[] | undefined, metrics: Metrics, saturatedMs: readonly number[] | null = null): TimeView {
  const loadEnd = arrivalSpan(scenario);
  const input: SeriesChartInput = {
    series, loadEnd,
    incidents: scenario.incidents.map((w) => ({ name: w.name, from: w.from, to: w.to })),
    alerts: chartAlerts(scenario, alerts),
  };
  const shown = new Set(nonEmptyCounts(series));
  const listed = TIME_COUNTS.filter((n) => listedSeries(scenario).includes(n));
  const zero = listed.filter((n) => !shown.has(n));
  const note = timeNote(scenario, series, loadEnd, saturatedMs !== null) + (zero.length > 0 ? ` At 0 the whole run, so not drawn: ${zero.join(', ')}.` : '');
  const charts = listed.filter((n) => shown.has(n)).map((n) => seriesChart(input, n));
  if (saturatedMs !== null) charts.unshift(saturationChart(input, saturatedMs));
  const table = alerts ? alertTable(scenario, alerts, metrics) : '';
  return { step: series.step, charts, alerts: table, note, series, loadEnd, listed: listedSeries(scenario), saturatedMs };
}

function timeNote(scenario: WrittenScenario, series: SeriesCounts, loadEnd: number, saturation: boolean): string {
  const words = [`Each chart is one count of the run's series per second, in buckets of ${duration(series.step)} (every event in the bucket holding its time), over the run's time in minutes.`];
  if (saturation) words.push('The first is the share of each bucket with every worker busy, timed exactly at each worker\'s start and end: 100% is a backlog waiting (or a pause); it stays there after the load ends until the queue has drained.');
  if (scenario.incidents.length > 0) {
    words.push(`Shaded: ${scenario.incidents.map((w) => `${w.name} from ${runTime(w.from)} to ${runTime(w.to)} (${incidentChanges(w)})`).join('; ')}.`);
  }
  if (scenario.alerts.length > 0) words.push('Each alert is drawn on the chart of its count: its threshold dashed, its firings (judged on 1-minute buckets, as check judges them) in red.');
  if (loadEnd < series.buckets * series.step) words.push(`Grey from ${runTime(loadEnd)}: the load has ended; only the calls of earlier actions remain.`);
  return words.join(' ');
}
