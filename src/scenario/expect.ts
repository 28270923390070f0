/** Expectations on metrics (`expect:` in a scenario), parsed and checked. */
import type { Confidence } from '../model/enums.js';
import { isDurationMetric, readMetric, type MetricPath, type MetricReading } from '../model/metric-paths.js';
import type { Metrics } from '../model/metrics.js';
import { DURATION_PATTERN, isBareDuration, parseDuration } from './duration.js';
import { InputError, type Origin } from './errors.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;

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

/** A threshold's operator and amount, as written. */
const THRESHOLD_PARTS = /^\s*(<=|>=|==|!=|<|>)\s*(.+?)\s*$/;

/** `<= 0.5` or `< 3s` into an operator and a number (validated by the schema's pattern). */
export function parseThreshold(text: string): { op: Operator; threshold: number } {
  const m = THRESHOLD_PARTS.exec(text);
  if (!m) throw new RangeError(`invalid threshold "${text}"`);
  const raw = m[2] as string;
  const threshold = /[a-z]$/.test(raw) ? parseDuration(raw.replace(/\s+/g, '')) : Number(raw);
  return { op: m[1] as Operator, threshold };
}

const HOLDS: Readonly<Record<Operator, (x: number, t: number) => boolean>> = {
  '<': (x, t) => x < t, '<=': (x, t) => x <= t, '==': (x, t) => x === t,
  '!=': (x, t) => x !== t, '>=': (x, t) => x >= t, '>': (x, t) => x > t,
};

/**
 * The interval a `ci95` expectation must hold over: the metric's 95% interval, which already
 * has its low end clipped at 0 and a zero count's upper end at the rule of three
 * (`interval` in model/metrics.ts), so every output and every check read the same one.
 */
export function checkedInterval(r: MetricReading): [number, number] | undefined {
  return r.ci95;
}

export function check(e: Expectation, metrics: Metrics): Verdict {
  const measured = readMetric(metrics, e.metric);
  if (measured.value === null) return { expectation: e, measured, pass: false };
  const holds = HOLDS[e.op];
  let pass = holds(measured.value, e.threshold);
  const interval = e.confidence === 'ci95' ? checkedInterval(measured) : undefined;
  if (pass && interval) {
    const [lo, hi] = interval;
    // The whole interval must pass: both ends for an order, no overlap for !=.
    pass = e.op === '!=' ? !(lo <= e.threshold && e.threshold <= hi) : holds(lo, e.threshold) && holds(hi, e.threshold);
  }
  return { expectation: e, measured, pass, ...(interval ? { interval } : {}) };
}

/** The `expect:` block of a validated raw scenario. */
export function readExpectations(raw: Raw, locate: (p: Path, keyNode?: boolean) => Origin): Expectation[] {
  const block = raw['expect'] as Raw | undefined;
  if (!block) return [];
  const defaultConfidence = (block['confidence'] as Confidence | undefined) ?? 'none';
  return Object.entries(block).filter(([k]) => k !== 'confidence').map(([metric, spec]) => {
    const long = typeof spec === 'object' && spec !== null ? (spec as { threshold: string; confidence?: Confidence }) : undefined;
    const text = long ? long.threshold : String(spec);
    const [, op, amount = ''] = THRESHOLD_PARTS.exec(text) ?? [];
    if (/[a-z]\s*$/.test(text)) {
      if (!isDurationMetric(metric)) {
        throw new InputError(locate(['expect', metric]), `expect.${metric}`, `"${text.trim()}" has a time unit, but ${metric} is not a time`,
          'Write the threshold as a plain number; units are for the *_latency_ms metrics.');
      }
      if (!new RegExp(DURATION_PATTERN).test(amount)) {
        throw new InputError(locate(['expect', metric]), `expect.${metric}`, `"${amount}" is not a duration`,
          'Write a duration >= 0 such as 250ms, 3s or 2m.');
      }
    } else if (isDurationMetric(metric) && isBareDuration(amount)) {
      throw new InputError(locate(['expect', metric]), `expect.${metric}`, `the threshold "${text.trim()}" has no unit, but ${metric} is a time`,
        `Write ${op} ${amount}s or ${op} ${amount}ms, whichever you mean; only 0 may stand alone.`);
    }
    const threshold = parseThreshold(text);
    if (!Number.isFinite(threshold.threshold)) {
      throw new InputError(locate(['expect', metric]), `expect.${metric}`, 'the threshold is a number too large to use (it reads as infinite)',
        'Write a threshold a metric can reach, such as "<= 0.5" or "< 3s".');
    }
    return {
      metric: metric as MetricPath, ...threshold, text: text.trim(),
      confidence: long?.confidence ?? defaultConfidence, origin: locate(['expect', metric], true),
    };
  });
}
