/** Expectations on metrics (`expect:` in a scenario), parsed and checked. */
import { readMetric, type MetricPath, type MetricReading } from '../model/metric-paths.js';
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

export function check(e: Expectation, metrics: Metrics): Verdict {
  const measured = readMetric(metrics, e.metric);
  if (measured.value === null) return { expectation: e, measured, pass: false };
  const holds = HOLDS[e.op];
  let pass = holds(measured.value, e.threshold);
  if (pass && e.confidence === 'ci95' && measured.ci95) {
    const [lo, hi] = measured.ci95;
    // The whole interval must pass: both ends for an order, no overlap for !=.
    pass = e.op === '!=' ? !(lo <= e.threshold && e.threshold <= hi) : holds(lo, e.threshold) && holds(hi, e.threshold);
  }
  return { expectation: e, measured, pass };
}
