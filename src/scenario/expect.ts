/** Expectations on metrics (`expect:` in a scenario), parsed and checked. */
import { GUARDS, LATER_GUARDS } from '../model/guards.js';
import type { Confidence } from '../model/enums.js';
import { alertQuery, isAlertPath, readAlert, type AlertPath } from '../results/alert-paths.js';
import type { AlertSummary } from '../results/alerts.js';
import { isDurationMetric, readMetric, type MetricPath, type MetricReading } from '../results/metric-paths.js';
import { metricDef } from '../results/metric-registry.js';
import { triggerOnlyExpectation } from '../results/delivery.js';
import type { Metrics } from '../results/metrics.js';
import { isSaturationPath, readSaturation, saturationQuery, type SaturationPath } from '../results/saturation.js';
import type { WrittenScenario } from '../model/types.js';
import { COUPLING_WORDS, isCoupled } from '../model/capacity.js';
import { DURATION_PATTERN, isBareDuration, parseDuration } from './duration.js';
import { InputError, type Origin } from './errors.js';
import type { ScenarioWarning } from './warnings.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;

export type Operator = '<' | '<=' | '==' | '!=' | '>=' | '>';

export interface Expectation {
  /** A metric, a reading of an alert (results/alert-paths.ts) or of the saturation (results/saturation.ts: a flag checked as 1 or 0). */
  metric: MetricPath | AlertPath | SaturationPath;
  op: Operator;
  /** The threshold, in the metric's unit (ms for latencies). */
  threshold: number;
  /** As written: `<= 0.5`. */
  text: string;
  /** `ci95`: the whole 95% interval must pass, not only the estimate. */
  confidence: 'ci95' | 'none';
  /** Whether `confidence` is the block's default (`expect: {confidence: ci95}`) rather than written on the expectation. */
  fromBlock?: boolean;
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
 * (`interval` in results/metrics.ts), so every output and every check read the same one.
 */
export function checkedInterval(r: MetricReading): [number, number] | undefined {
  return r.ci95;
}

/** Whether a metric or an alert reading is a time (ms): its threshold may carry a unit, and must. */
export function isDurationReading(path: string): boolean {
  if (isSaturationPath(path)) return saturationQuery(path).reading === 'backlog_cleared_ms';
  return isAlertPath(path) ? 'incident' in alertQuery(path) : isDurationMetric(path);
}

/** The expectation checked against a run's metrics and, for an alert's reading, its alerts. */
export function check(e: Expectation, metrics: Metrics, alerts?: readonly AlertSummary[]): Verdict {
  const measured = isAlertPath(e.metric) ? { value: readAlert(alerts, e.metric) }
    : isSaturationPath(e.metric) ? { value: readSaturation(metrics, e.metric) } : readMetric(metrics, e.metric);
  return { expectation: e, ...judge(e, measured) };
}

/** Whether a reading meets a threshold (for ci95, its whole interval: `interval`, the one checked). */
export function judge(e: Pick<Expectation, 'op' | 'threshold' | 'confidence'>, measured: MetricReading): Omit<Verdict, 'expectation'> {
  if (measured.value === null) return { measured, pass: false };
  const holds = HOLDS[e.op];
  let pass = holds(measured.value, e.threshold);
  const interval = e.confidence === 'ci95' ? checkedInterval(measured) : undefined;
  if (pass && interval) {
    const [lo, hi] = interval;
    // The whole interval must pass: both ends for an order, no overlap for !=.
    pass = e.op === '!=' ? !(lo <= e.threshold && e.threshold <= hi) : holds(lo, e.threshold) && holds(hi, e.threshold);
  }
  return { measured, pass, ...(interval ? { interval } : {}) };
}

/** The `expect:` block of a validated raw scenario. */
export function readExpectations(raw: Raw, locate: (p: Path, keyNode?: boolean) => Origin): Expectation[] {
  const block = raw['expect'] as Raw | undefined;
  if (!block) return [];
  const defaultConfidence = (block['confidence'] as Confidence | undefined) ?? 'none';
  return Object.entries(block).filter(([k]) => k !== 'confidence').map(([metric, spec]) => {
    if (typeof spec === 'boolean') { // stable, recovered.INCIDENT (the schema allows nothing else): true is 1, false 0
      return { metric: metric as SaturationPath, op: '==' as const, threshold: Number(spec), text: `== ${spec}`, confidence: 'none' as const, origin: locate(['expect', metric], true) };
    }
    const long = typeof spec === 'object' && spec !== null ? (spec as { threshold: string; confidence?: Confidence }) : undefined;
    const text = long ? long.threshold : String(spec);
    const [, op, amount = ''] = THRESHOLD_PARTS.exec(text) ?? [];
    if (/[a-z]\s*$/.test(text)) {
      if (!isDurationReading(metric)) {
        throw new InputError(locate(['expect', metric]), `expect.${metric}`, `"${text.trim()}" has a time unit, but ${metric} is not a time`,
          'Write the threshold as a plain number; units are for the *_latency_ms metrics.');
      }
      if (!new RegExp(DURATION_PATTERN).test(amount)) {
        throw new InputError(locate(['expect', metric]), `expect.${metric}`, `"${amount}" is not a duration`,
          'Write a duration >= 0 such as 250ms, 3s or 2m.');
      }
    } else if (isDurationReading(metric) && isBareDuration(amount)) {
      throw new InputError(locate(['expect', metric]), `expect.${metric}`, `the threshold "${text.trim()}" has no unit, but ${metric} is a time`,
        `Write ${op} ${amount}s or ${op} ${amount}ms, whichever you mean; only 0 may stand alone.`);
    }
    const threshold = parseThreshold(text);
    if (!Number.isFinite(threshold.threshold)) {
      throw new InputError(locate(['expect', metric]), `expect.${metric}`, 'the threshold is a number too large to use (it reads as infinite)',
        'Write a threshold a metric can reach, such as "<= 0.5" or "< 3s".');
    }
    return {
      metric: metric as MetricPath | AlertPath, ...threshold, text: text.trim(),
      confidence: long?.confidence ?? defaultConfidence, origin: locate(['expect', metric], true),
      ...(long?.confidence === undefined && defaultConfidence === 'ci95' ? { fromBlock: true } : {}),
    };
  });
}

/**
 * Expectations whose `confidence: ci95` (written on them or as the block's default) does not do
 * what it says, which the user should know where expectations are checked (kind `expectation`:
 * `check` says them, the other commands leave them out): a reading with no interval (a percentile,
 * a share, a count of keys or an alert's reading), checked on the value alone; and `==` on an
 * estimate, which holds over the whole interval only when every action had the same value, so
 * never for `== 0` (a count of none has the interval 0 to 3/n, the rule of three).
 */
export function confidenceWarnings(expectations: readonly Expectation[]): ScenarioWarning[] {
  const warnings: ScenarioWarning[] = [];
  for (const e of expectations) {
    if (e.confidence !== 'ci95') continue;
    const estimate = !isAlertPath(e.metric) && metricDef(e.metric)?.kind === 'estimate';
    const silence = `write it as {threshold: "${e.text}", confidence: none}`;
    if (!estimate) {
      warnings.push({
        origin: e.origin, keyPath: `expect.${e.metric}`, kind: 'expectation',
        problem: `confidence ci95${e.fromBlock ? ' (the expect block\'s)' : ''} has no effect: this reading has no 95% interval (only the estimates have one: the rates per 1000 actions, per action and per day, and the alert baselines), so the value alone is checked`,
        fix: e.fromBlock ? `To say so in the file, ${silence}; the block's confidence then leaves it alone.` : `Remove its confidence (${silence}, or the threshold alone), or keep it knowing the value is what is checked.`,
      });
    } else if (e.op === '==') {
      warnings.push({
        origin: e.origin, keyPath: `expect.${e.metric}`, kind: 'expectation',
        problem: `"${e.text}" under confidence ci95${e.fromBlock ? ' (the expect block\'s)' : ''} passes only when its whole 95% interval is that one value, which happens only when every action had the same value${e.threshold === 0 ? ': never for 0, since a count of none has the interval 0 to 3/n (the rule of three), so this expectation fails however many actions run' : ''}`,
        fix: `Write the most you accept, such as "<= 0.5", which the whole interval can meet; or ${silence} to check the estimate alone.`,
      });
    }
  }
  return warnings;
}

/** Every alert and incident an expectation names is one of the scenario's. */
export function checkAlertNames(expectations: readonly Expectation[], s: WrittenScenario): void {
  for (const e of expectations) {
    if (metricDef(e.metric)?.only === 'store_down' && !s.incidents.some((w) => w.store.down)) {
      throw new InputError(e.origin, `expect.${e.metric}`, 'is reported only by scenarios with an incident that takes the key store down (store.down: true), and this one has none',
        'Add such an incident, or remove this expectation.');
    }
    if ((metricDef(e.metric)?.only === 'capacity' || (isAlertPath(e.metric) && alertQuery(e.metric).reading === 'recovery_ms')) && !isCoupled(s)) {
      throw new InputError(e.origin, `expect.${e.metric}`, `is reported only by scenarios with ${COUPLING_WORDS} set (docs/model.md, "Capacity"), and this one has none of them`,
        'Set one of them, or remove this expectation.');
    }
    const guard = LATER_GUARDS.find((n) => GUARDS[n].metric === e.metric);
    if (guard !== undefined && s.client[guard] === null) {
      throw new InputError(e.origin, `expect.${e.metric}`, `is reported only by scenarios with ${GUARDS[guard].key} set (docs/model.md, "Capacity"), and this one has none`,
        `Set ${GUARDS[guard].key} (${guard}: {} takes its defaults), or remove this expectation.`);
    }
    const trigger = triggerOnlyExpectation(metricDef(e.metric)?.only, s);
    if (trigger !== null) throw new InputError(e.origin, `expect.${e.metric}`, trigger.problem, trigger.fix);
    if (e.metric === 'utilisation' && s.service.capacity === null) {
      throw new InputError(e.origin, `expect.${e.metric}`, 'is the share of service.capacity.workers kept busy, and this scenario has no service.capacity (a retry budget or a breaker alone reports no utilisation)',
        'Set service.capacity (at least its workers), or remove this expectation.');
    }
    if (isSaturationPath(e.metric)) {
      checkSaturationName(e, s, e.metric);
      continue;
    }
    if (!isAlertPath(e.metric)) continue;
    const q = alertQuery(e.metric);
    const where = e.origin;
    if (!s.alerts.some((a) => a.name === q.alert)) {
      const names = s.alerts.map((a) => a.name);
      throw new InputError(where, `expect.${e.metric}`, `names the alert "${q.alert}", which the scenario does not have`,
        names.length > 0 ? `Use one of the alerts' names: ${names.join(', ')}.` : 'Add the alert under alerts: (a name, a metric and above), or remove this expectation.');
    }
    if ('incident' in q && !s.incidents.some((w) => w.name === q.incident)) {
      const names = s.incidents.map((w) => w.name);
      throw new InputError(where, `expect.${e.metric}`, `names the incident "${q.incident}", which the scenario does not have`,
        names.length > 0 ? `Use one of the incidents' names: ${names.join(', ')}.` : 'Add the incident under incidents: (a name, from and to), or remove this expectation.');
    }
  }
}

/** A saturation reading needs service.capacity, and its incident must be the scenario's. */
function checkSaturationName(e: Expectation, s: WrittenScenario, path: SaturationPath): void {
  if (s.service.capacity === null) {
    throw new InputError(e.origin, `expect.${path}`, 'is a reading of the workers\' saturation (docs/model.md, "Saturation"), and this scenario has no service.capacity',
      'Set service.capacity (at least its workers), or remove this expectation.');
  }
  const incident = saturationQuery(path).incident;
  if (incident !== undefined && !s.incidents.some((w) => w.name === incident)) {
    const names = s.incidents.map((w) => w.name);
    throw new InputError(e.origin, `expect.${path}`, `names the incident "${incident}", which the scenario does not have`,
      names.length > 0 ? `Use one of the incidents' names: ${names.join(', ')}.` : 'Add the incident under incidents: (a name, from and to), or remove this expectation.');
  }
}
