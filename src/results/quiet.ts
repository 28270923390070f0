/**
 * Quiet time (docs/model-decisions.md, "Baselines and per-day figures with incidents"): the
 * buckets of a run's series that lie within the load and outside every incident window and its
 * grace. With incidents, the alert baselines and the quiet per-day figure are rates over these
 * buckets, so that a threshold set above a baseline is set above normal, not above an average
 * that holds the incident.
 */
import { arrivalSpan, clockOf } from '../model/clock.js';
import { ALERT_STEP_MS } from './alerts.js';
import type { Estimate } from './metrics.js';
import { loadCovered, NUM_SERIES, SER, type SeriesCounts, type SeriesName } from '../model/series.js';
import { SCENARIO_SHAPE } from '../model/shape.js';
import type { WrittenScenario } from '../model/types.js';

/** The grace an alert has when it names none (model/shape.ts, one home). */
const DEFAULT_GRACE = SCENARIO_SHAPE.params.alerts.of.params.grace.default as number;

/** How long after a window its effects are still taken for the incident's: the longest grace of the scenario's alerts, or the default grace. */
export function quietGrace(s: WrittenScenario): number {
  return s.alerts.length > 0 ? Math.max(...s.alerts.map((a) => a.grace)) : DEFAULT_GRACE;
}

/** Whether [start, end) meets no incident window extended by `grace`. */
const clear = (s: WrittenScenario, grace: number, start: number, end: number) => s.incidents.every((w) => end <= w.from || start >= w.to + grace);

/**
 * The quiet buckets of a series of `buckets` buckets of `step` ms: whole buckets within the load
 * (`loadCovered`), in which primaries arrive (not a lull of the profile: its zero rate is no
 * normal minute), clear of every window and its grace.
 */
export function quietBuckets(s: WrittenScenario, step: number, buckets: number): number[] {
  const grace = quietGrace(s);
  const end = arrivalSpan(s);
  const clock = clockOf(s);
  const out: number[] = [];
  for (let b = 0; b < buckets && loadCovered(step, b, end) === step; b++) {
    const [from, to] = [b * step, (b + 1) * step];
    if (clock.operational(to) > clock.operational(from) && clear(s, grace, from, to)) out.push(b);
  }
  return out;
}

/**
 * Whether the run has quiet buckets of `step` (1 minute, as without --series): one without gets a
 * warning, and its alert baselines are the run's own.
 */
export function hasQuietTime(s: WrittenScenario, step = ALERT_STEP_MS): boolean {
  return quietBuckets(s, step, Number.POSITIVE_INFINITY).length > 0;
}

/**
 * The rate per second of `name` over the quiet buckets `quiet`, scaled by `k` (86 400 for per
 * day): the mean of the buckets' rates with its 95% interval mean ± 1.96·sd/√n over buckets
 * (buckets, not actions: a retry storm's events cluster, and a bucket's count holds the
 * cluster), clipped at 0; none counted gets [0, 3 / quiet seconds] (the rule of three).
 */
export function quietRate(series: SeriesCounts, quiet: readonly number[], name: SeriesName, k = 1): Estimate {
  const n = quiet.length;
  const seconds = series.step / 1000;
  let sum = 0;
  let sumSq = 0;
  for (const b of quiet) {
    const r = (series.counts[b * NUM_SERIES + SER[name]] as number) / seconds;
    sum += r;
    sumSq += r * r;
  }
  const mean = sum / n;
  if (mean === 0) return { value: 0, ci95: [0, (3 / (n * seconds)) * k] };
  const variance = n > 1 ? Math.max(0, (sumSq - n * mean * mean) / (n - 1)) : 0;
  const half = 1.96 * Math.sqrt(variance / n);
  return { value: mean * k, ci95: [Math.max(0, mean - half) * k, (mean + half) * k] };
}
