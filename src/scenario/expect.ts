/** Expectations on metrics (`expect:` in a scenario), parsed and checked. */
import { readMetric, type MetricPath, type MetricReading } from '../model/metric-paths.js';
import { metricDef, scaleFactor } from '../model/metric-registry.js';
import type { Metrics } from '../model/metrics.js';
import { parseDuration } from './duration.js';
import type { Origin } from './errors.js';

export type Operator = '<' | '<=' | '==' | '!=' | '>=' | '>';

export interface Expectation {
  metric: MetricPath;
  op: Operator;
  /** The threshold, in the metric's unit (ms for latencies). */
  threshold: number;
  /** As written: `<= 0.5`. */
  text: string;
  /** `ci95`: the whole 95% interval must pass, not only the estimate. */
  confidence: 'ci95' | 'none';
  origin: Origin;
}

export interface Verdict {
  expectation: Expectation;
  measured: MetricReading;
  /** For `ci95`: the interval that was checked (see checkedInterval). */
  interval?: [number, number];
  pass: boolean;
}

/** `<= 0.5` or `< 3s` into an operator and a number (validated by the schema's pattern). */
export function parseThreshold(text: string): { op: Operator; threshold: number } {
  const m = /^\s*(<=|>=|==|!=|<|>)\s*(.+?)\s*$/.exec(text);
  if (!m) throw new RangeError(`invalid threshold "${text}"`);
  const raw = m[2] as string;
  const threshold = /[a-z]$/.test(raw) ? parseDuration(raw.replace(/\s+/g, '')) : Number(raw);
  return { op: m[1] as Operator, threshold };
}

const HOLDS: Readonly<Record<Operator, (x: number, t: number) => boolean>> = {
  '<': (x, t) => x < t, '<=': (x, t) => x <= t, '==': (x, t) => x === t,
  '!=': (x, t) => x !== t, '>=': (x, t) => x >= t, '>': (x, t) => x > t,
};

/** The factor from a counter's per-action mean to the metric (1 for a metric with no counter), from the metric registry. */
function scaleOf(metric: string, m: Metrics): number {
  const scale = metricDef(metric)?.scale;
  return scale ? scaleFactor(scale, m.actions_per_second) : 1;
}

/**
 * The interval a `ci95` expectation must hold over: the 95% interval of docs/model.md, with
 * two corrections that only a check needs. Counts are never negative, so the low end is
 * at least 0. And a count of zero has a zero-width interval that proves nothing; there
 * the upper end is the rule-of-three bound, 3 events in n actions (95%).
 */
export function checkedInterval(metric: string, r: MetricReading, m: Metrics): [number, number] | undefined {
  if (!r.ci95) return undefined;
  const [lo, hi] = r.ci95;
  if (r.value === 0 && hi === 0) return [0, m.actions > 0 ? (3 * scaleOf(metric, m)) / m.actions : Infinity];
  return [Math.max(0, lo), hi];
}

export function check(e: Expectation, metrics: Metrics): Verdict {
  const measured = readMetric(metrics, e.metric);
  if (measured.value === null) return { expectation: e, measured, pass: false };
  const holds = HOLDS[e.op];
  let pass = holds(measured.value, e.threshold);
  const interval = e.confidence === 'ci95' ? checkedInterval(e.metric, measured, metrics) : undefined;
  if (pass && interval) {
    const [lo, hi] = interval;
    // The whole interval must pass: both ends for an order, no overlap for !=.
    pass = e.op === '!=' ? !(lo <= e.threshold && e.threshold <= hi) : holds(lo, e.threshold) && holds(hi, e.threshold);
  }
  return { expectation: e, measured, pass, ...(interval ? { interval } : {}) };
}
