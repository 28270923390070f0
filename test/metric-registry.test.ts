/**
 * The metric registry (src/results/metric-registry.ts) is the one home of metric knowledge:
 * these tests pin the names users write (`expect:` paths, `--precision-metric`), and check that
 * every derived table agrees with what `finish()` computes.
 */
import { describe, expect, it } from 'vitest';
import { COUNTER_NAMES } from '../src/model/counters.js';
import { isDurationMetric, readMetric } from '../src/results/metric-paths.js';
import { ALL_METRIC_PATHS, METRIC_PATHS, METRICS, PER_ACTION_METRICS, SWEEP_METRIC_PATHS, metricDef, perActionMetric, scaleFactor, type MetricPath } from '../src/results/metric-registry.js';
import { PRECISION_METRICS } from '../src/results/precision.js';
import { simulate } from '../src/exec/simulate.js';
import { DEFAULT_SCENARIO } from '../src/model/types.js';
import { checkedInterval } from '../src/scenario/expect.js';
import { interval } from '../src/results/metrics.js';

/** As written by hand before the registry: the names in users' `expect:` blocks and CSV headers. */
const PATHS_BEFORE = [
  'duplicates_per_1000', 'duplicates_per_1000.transport', 'duplicates_per_1000.replan', 'duplicates_per_1000.replay',
  'duplicates_per_day', 'lost_per_1000', 'merged_per_1000', 'unknown_outcomes_per_1000', 'conflicts_409_per_1000',
  'mismatches_422_per_1000', 'dedup_hits_per_1000', 'attempts_per_action', 'executions_per_action',
  'handler_over_timeout_fraction', 'attempts_unknown_fraction',
  'call_latency_ms.p50', 'call_latency_ms.p95', 'call_latency_ms.p99',
  'action_latency_ms.p50', 'action_latency_ms.p95', 'action_latency_ms.p99',
  'keys_per_action', 'peak_live_keys', 'keys', 'key_store_mb',
  'alert_baselines_per_s.dedup_hits', 'alert_baselines_per_s.conflicts_409',
  'alert_baselines_per_s.mismatches_422', 'alert_baselines_per_s.unknown_outcomes',
  'actions', 'primary_actions',
];

/** As written by hand before the registry: `--precision-metric` names, counters and scales, in --help order. */
const PRECISION_BEFORE = {
  duplicates_per_1000: ['duplicates', 1000],
  'duplicates_per_1000.transport': ['duplicates_transport', 1000],
  'duplicates_per_1000.replan': ['duplicates_replan', 1000],
  'duplicates_per_1000.replay': ['duplicates_replay', 1000],
  lost_per_1000: ['lost', 1000],
  merged_per_1000: ['merged', 1000],
  unknown_outcomes_per_1000: ['unknown_outcomes', 1000],
  conflicts_409_per_1000: ['conflicts_409', 1000],
  mismatches_422_per_1000: ['mismatches_422', 1000],
  dedup_hits_per_1000: ['dedup_hits', 1000],
  attempts_per_action: ['attempts', 1],
  executions_per_action: ['executions', 1],
  keys_per_action: ['keys', 1],
};

/** The counters of a coupled run (docs/model.md, "Capacity"), reported only by such runs: `expect:` paths and --precision-metric names. */
const CAPACITY_PRECISION = {
  shed_per_1000: ['shed', 1000],
  expired_per_1000: ['expired', 1000],
  budget_denied_per_1000: ['budget_denied', 1000],
  breaker_rejected_per_1000: ['breaker_rejected', 1000],
  throttled_per_1000: ['throttled', 1000],
};
/** Every metric only a coupled run reports, in report order (after the latencies). */
const CAPACITY_PATHS = [...Object.keys(CAPACITY_PRECISION), 'queue_wait_ms.p50', 'queue_wait_ms.p95', 'queue_wait_ms.p99', 'utilisation', 'saturated_share', 'offered_utilisation', 'peak_offered_utilisation'];
/** --precision-metric's names in --help order: the capacity counters come after executions_per_action, as in the registry. */
const PRECISION_NOW = Object.fromEntries(Object.entries(PRECISION_BEFORE).flatMap(([k, v]) => (k === 'keys_per_action' ? [...Object.entries(CAPACITY_PRECISION), [k, v]] : [[k, v]])));
/**
 * A trigger's metrics (docs/model.md, "Inbound delivery"), reported only by a scenario with one, in
 * report order: `expect:` paths and sweep metrics, no --precision-metric name (a scenario without
 * a trigger counts 0 of them). The duplicates of its redeliveries come after the replays', its
 * deliveries after the lost actions.
 */
const TRIGGER_PATHS = ['duplicates_per_1000.redelivery', 'deliveries_per_action', 'redelivered_per_1000', 'dead_lettered_per_1000'];
/** Every counter metric of a constant scale, in report order: --precision's, a coupled run's and a trigger's. */
const PER_ACTION_NOW = Object.keys(PRECISION_NOW).flatMap((k) => (k === 'duplicates_per_1000.replay' ? [k, 'duplicates_per_1000.redelivery'] : k === 'merged_per_1000' ? [k, ...TRIGGER_PATHS.slice(1)] : [k]));

const metrics = simulate({ ...DEFAULT_SCENARIO, actions: 20_000 }, 'registry').metrics;

describe('metric registry', () => {
  it('keeps every metric path and its order', () => {
    expect(METRIC_PATHS).toEqual(PATHS_BEFORE);
    expect(new Set(METRIC_PATHS).size).toBe(METRIC_PATHS.length);
  });

  it('keeps the --precision-metric names, counters and scales, in order, without the capacity counters (--precision refuses a coupled run)', () => {
    expect(Object.keys(PRECISION_METRICS)).toEqual(Object.keys(PRECISION_BEFORE));
    expect(PRECISION_METRICS).toEqual(PRECISION_BEFORE);
    expect(Object.keys(PRECISION_NOW).filter((k) => !(k in PRECISION_METRICS))).toEqual(Object.keys(CAPACITY_PRECISION));
  });

  it('lists the capacity metrics as reported only by coupled runs, after the latencies, none of them in a run without the keys', () => {
    expect(ALL_METRIC_PATHS.filter((p) => METRICS[p].only === 'capacity' || METRICS[p].only === 'guard')).toEqual(CAPACITY_PATHS);
    expect(ALL_METRIC_PATHS.indexOf('shed_per_1000')).toBe(ALL_METRIC_PATHS.indexOf('action_latency_ms.p99') + 1);
    for (const p of CAPACITY_PATHS) expect(Object.keys(metrics), p).not.toContain(p.split('.')[0]);
    expect(METRIC_PATHS.filter(isDurationMetric)).not.toContain('queue_wait_ms.p95');
    expect(ALL_METRIC_PATHS.filter(isDurationMetric)).toContain('queue_wait_ms.p95');
  });

  it('lists a trigger\'s metrics as reported only with a trigger, none of them in a run without one, none a --precision-metric', () => {
    expect(ALL_METRIC_PATHS.filter((p) => METRICS[p].only === 'trigger')).toEqual(TRIGGER_PATHS);
    expect(metrics.duplicates_per_1000).not.toHaveProperty('redelivery');
    for (const p of TRIGGER_PATHS) {
      expect(readMetric(metrics, p as MetricPath).value, p).toBeNull();
      expect(PRECISION_METRICS, p).not.toHaveProperty([p]);
      expect(SWEEP_METRIC_PATHS, p).toContain(p);
    }
  });

  it('marks exactly the latency quantiles as durations, and no unknown name', () => {
    expect(METRIC_PATHS.filter(isDurationMetric)).toEqual(PATHS_BEFORE.filter((p) => p.includes('_ms.')));
    for (const name of ['', 'nope', 'call_latency_ms', 'call_latency_ms.p42', 'toString', '__proto__']) {
      expect(isDurationMetric(name)).toBe(false);
      expect(metricDef(name)).toBeUndefined();
    }
  });

  it('gives each definition a label, a description, and a counter and scale exactly for estimates', () => {
    for (const p of METRIC_PATHS) {
      const d = METRICS[p];
      expect(d.path).toBe(p);
      expect(d.label.length).toBeGreaterThan(0);
      expect(d.description.length).toBeGreaterThan(0);
      expect(d.counter !== undefined).toBe(d.kind === 'estimate');
      expect(d.scale !== undefined).toBe(d.kind === 'estimate');
      if (d.counter) expect(COUNTER_NAMES).toContain(d.counter);
      expect(d.unit === 'ms').toBe(d.kind === 'quantile');
    }
  });

  it('reads every path from a run, with an interval exactly for estimates', () => {
    for (const p of METRIC_PATHS) {
      const r = readMetric(metrics, p);
      expect(r.ci95 !== undefined, p).toBe(METRICS[p].kind === 'estimate');
      if (METRICS[p].kind !== 'quantile') expect(typeof r.value, p).toBe('number');
    }
  });

  it('agrees with finish(): metrics of one counter differ only by their scale', () => {
    const aps = metrics.actions_per_second;
    for (const p of METRIC_PATHS) {
      const d = METRICS[p];
      if (!d.counter || !d.scale) continue;
      const base = perActionMetric(d.counter);
      expect(base, p).toBeDefined();
      if (!base) continue;
      const perAction = (readMetric(metrics, base.path).value as number) / base.times;
      expect(readMetric(metrics, p).value as number, p).toBeCloseTo(perAction * scaleFactor(d.scale, aps), 9);
    }
  });

  it('scales per action, per 1000, per second and per day', () => {
    expect(scaleFactor({ per: 'actions', times: 1 }, 7)).toBe(1);
    expect(scaleFactor({ per: 'actions', times: 1000 }, 7)).toBe(1000);
    expect(scaleFactor({ per: 'second' }, 7)).toBe(7);
    expect(scaleFactor({ per: 'day' }, 7)).toBe(7 * 86_400);
  });

  it('lists as per-action metrics only constant scales, the first of each counter first', () => {
    expect(PER_ACTION_METRICS.map((d) => d.path)).toEqual(PER_ACTION_NOW);
    expect(perActionMetric('duplicates')?.path).toBe('duplicates_per_1000');
    expect(perActionMetric('unknown_outcomes')?.path).toBe('unknown_outcomes_per_1000');
    expect(perActionMetric('attempts')).toEqual({ path: 'attempts_per_action', counter: 'attempts', times: 1 });
  });

  it('bounds a zero count by the rule of three in the metric\'s own scale, and clips the low end at 0', () => {
    const n = metrics.actions;
    const aps = metrics.actions_per_second;
    // The lab has no key (scope none): no 422 and no dedup hit is ever answered.
    expect(metrics.mismatches_422_per_1000).toEqual({ value: 0, ci95: [0, 3000 / n] });
    expect(metrics.dedup_hits_per_1000.ci95).toEqual([0, 3000 / n]);
    expect(metrics.alert_baselines_per_s.mismatches_422).toEqual({ value: 0, ci95: [0, (3 / n) * aps] });
    expect(checkedInterval(metrics.mismatches_422_per_1000)).toEqual([0, 3000 / n]);
    expect(interval(0.001, 0.002, 100, 1000)).toEqual([0, 3]);
    expect(interval(0.01, 0.002, 100, 1000)).toEqual([8, 12]);
  });
});
