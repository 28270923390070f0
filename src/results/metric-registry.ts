/**
 * Every metric idem-sim reports, in report order, with what it is made of: the one home of
 * metric knowledge. Paths (`expect:`, sweep CSV columns), `--precision-metric` names, scales,
 * units and table labels are derived from this list; nothing reads them from a metric's name.
 */
import type { CounterName } from '../model/counters.js';

/**
 * How a counter's per-action mean becomes the metric: × a constant (1 per action, 1000 per
 * 1000 actions), or × the action rate at `load.rate_per_s` (per second; per day = × 86 400 s).
 */
export type Scale = { readonly per: 'actions'; readonly times: number } | { readonly per: 'second' } | { readonly per: 'day' };

/** `estimate`: a counter's mean with its 95% CI; `quantile`: a latency histogram's; `value`: a plain number. */
export type MetricKind = 'estimate' | 'quantile' | 'value';

/** `count`: events (scaled as `scale` says); `ms`: a duration; `fraction`: a share in [0, 1]; `keys`: key records; `MB`: 1e6 bytes; `actions`: actions. */
export type MetricUnit = 'count' | 'ms' | 'fraction' | 'keys' | 'MB' | 'actions';

export interface MetricDef {
  /** Dotted path into `Metrics` (`call_latency_ms.p95`): the name in `expect:` and in CSV columns. */
  readonly path: string;
  readonly kind: MetricKind;
  /** The per-action counter an estimate is the mean of. */
  readonly counter?: CounterName;
  readonly scale?: Scale;
  readonly unit: MetricUnit;
  /** As the run table's row shows it, under its section's heading (`Outcomes per 1000 actions`) and its parent row. */
  readonly label: string;
  /** Standing alone, its unit said, where no section or parent row does (chart titles, the report's headline, the lab's table); default `label`. */
  readonly title?: string;
  /** Where room is short and the place says the rest: the sweep table's column heading (`dup/1000`), a bar of the duplicates-by-source chart. */
  readonly short?: string;
  readonly description: string;
  /**
   * Reported only for scenarios where it applies: `store_down`, an incident takes the key store
   * down; `incidents`, the scenario has incident windows (the quiet-time figures, results/quiet.ts);
   * `capacity`, the run is coupled (model/capacity.ts, isCoupled: a worker pool, a retry budget or
   * a circuit breaker); `guard`, the run sets the client guard added after version 3 that counts
   * it (model/guards.ts: throttled_per_1000 where client.retry_throttle is set); `trigger`, the
   * scenario has a trigger (docs/model.md, "Inbound delivery": its deliveries and their readings).
   */
  readonly only?: 'store_down' | 'incidents' | 'capacity' | 'guard' | 'trigger';
}

const PER_ACTION: Scale = { per: 'actions', times: 1 };
const PER_1000: Scale = { per: 'actions', times: 1000 };
const PER_SECOND: Scale = { per: 'second' };
const PER_DAY: Scale = { per: 'day' };

const DEFS = [
  { path: 'duplicates_per_1000', kind: 'estimate', counter: 'duplicates', scale: PER_1000, unit: 'count', label: 'duplicates per 1000 actions', short: 'dup/1000', description: 'executions beyond each action\'s first, per 1000 actions' },
  { path: 'duplicates_per_1000.transport', kind: 'estimate', counter: 'duplicates_transport', scale: PER_1000, unit: 'count', label: 'from transport retries', title: 'duplicates from transport retries per 1000 actions', short: 'transport retries', description: 'duplicates made by transport retries, per 1000 actions' },
  { path: 'duplicates_per_1000.replan', kind: 'estimate', counter: 'duplicates_replan', scale: PER_1000, unit: 'count', label: 'from model re-plans', title: 'duplicates from model re-plans per 1000 actions', short: 'model re-plans', description: 'duplicates made by model re-plans, per 1000 actions' },
  { path: 'duplicates_per_1000.replay', kind: 'estimate', counter: 'duplicates_replay', scale: PER_1000, unit: 'count', label: 'from crash replays', title: 'duplicates from crash replays per 1000 actions', short: 'crash replays', description: 'duplicates made by crash replays, per 1000 actions' },
  { path: 'duplicates_per_1000.redelivery', kind: 'estimate', counter: 'duplicates_redelivery', scale: PER_1000, unit: 'count', label: 'from redeliveries', title: 'duplicates from redeliveries per 1000 actions', short: 'redelivery dup/1000', description: 'duplicates made by the runs of a trigger\'s redeliveries (the sender delivered the step again), per 1000 actions', only: 'trigger' },
  { path: 'duplicates_per_day', kind: 'estimate', counter: 'duplicates', scale: PER_DAY, unit: 'count', label: 'duplicates per day at load.rate_per_s', description: 'duplicates per day at load.rate_per_s (twins arrive on top of that rate)' },
  { path: 'duplicates_per_day_outside_incidents', kind: 'estimate', unit: 'count', label: 'outside incidents (quiet time repeated all day)', title: 'duplicates per day outside incidents (quiet time repeated all day)', description: 'duplicates per day at the rate of the time outside every incident window and its grace (the quiet buckets of the series; interval over buckets)', only: 'incidents' },
  { path: 'quiet_time_ms', kind: 'value', unit: 'ms', label: 'quiet time measured (outside incidents and grace)', description: 'the time within the load outside every incident window and its grace (whole series buckets) that the quiet figures and alert baselines come from', only: 'incidents' },
  { path: 'lost_per_1000', kind: 'estimate', counter: 'lost', scale: PER_1000, unit: 'count', label: 'lost per 1000', title: 'lost actions per 1000', short: 'lost/1000', description: 'actions that never executed, per 1000' },
  { path: 'merged_per_1000', kind: 'estimate', counter: 'merged', scale: PER_1000, unit: 'count', label: 'of which twins merged per 1000', title: 'lost twins merged per 1000', description: 'of the lost: twins answered with their sibling\'s stored result, per 1000' },
  { path: 'deliveries_per_action', kind: 'estimate', counter: 'deliveries', scale: PER_ACTION, unit: 'count', label: 'deliveries per action (the first included)', title: 'trigger deliveries per action (the first included)', short: 'deliveries/action', description: 'deliveries of the trigger per action, the first included: 1 where no delivery is repeated', only: 'trigger' },
  { path: 'redelivered_per_1000', kind: 'estimate', counter: 'redelivered', scale: PER_1000, unit: 'count', label: 'redelivered per 1000 (delivered twice or more)', title: 'actions redelivered per 1000 (delivered twice or more)', short: 'redelivered/1000', description: 'actions the trigger delivered at least twice, per 1000 actions', only: 'trigger' },
  { path: 'dead_lettered_per_1000', kind: 'estimate', counter: 'dead_lettered', scale: PER_1000, unit: 'count', label: 'dead-lettered per 1000 (the sender gave up)', title: 'actions dead-lettered per 1000 (the sender gave up)', short: 'dead-lettered/1000', description: 'actions whose sender gave up redelivering them, per 1000 actions: the sender gave up; the effect may have happened (its runs may have executed)', only: 'trigger' },
  { path: 'unknown_outcomes_per_1000', kind: 'estimate', counter: 'unknown_outcomes', scale: PER_1000, unit: 'count', label: 'unknown outcomes returned to the model', title: 'unknown outcomes per 1000 actions', short: 'unknown/1000', description: 'calls returned to the model failed with the last attempt timed out or answered 409, per 1000 actions' },
  { path: 'conflicts_409_per_1000', kind: 'estimate', counter: 'conflicts_409', scale: PER_1000, unit: 'count', label: '409 in progress', title: '409 in progress per 1000 actions', short: '409/1000', description: '409 (request in progress) answers, per 1000 actions' },
  { path: 'mismatches_422_per_1000', kind: 'estimate', counter: 'mismatches_422', scale: PER_1000, unit: 'count', label: '422 fingerprint mismatch', title: '422 fingerprint mismatch per 1000 actions', description: '422 (fingerprint mismatch) answers, per 1000 actions' },
  { path: 'dedup_hits_per_1000', kind: 'estimate', counter: 'dedup_hits', scale: PER_1000, unit: 'count', label: 'dedup hits (stored result replayed)', title: 'dedup hits (stored result replayed) per 1000 actions', description: 'stored results replayed by the server (successes and, under on_error: store, 5xx), per 1000 actions' },
  { path: 'attempts_per_action', kind: 'estimate', counter: 'attempts', scale: PER_ACTION, unit: 'count', label: 'attempts per action', short: 'attempts/action', description: 'attempts per action' },
  { path: 'store_unavailable_per_1000', kind: 'estimate', counter: 'store_unavailable', scale: PER_1000, unit: 'count', label: '503 key store down', title: '503 key store down per 1000 actions', description: '503 answers while the key store was down (idempotency.on_store_down: fail_closed), per 1000 actions', only: 'store_down' },
  { path: 'executions_per_action', kind: 'estimate', counter: 'executions', scale: PER_ACTION, unit: 'count', label: 'executions per action', description: 'side effects committed per action' },
  { path: 'handler_over_timeout_fraction', kind: 'value', unit: 'fraction', label: 'handler runs slower than the timeout', description: 'share of handler runs (requests not answered from the key store) longer than client.timeout' },
  { path: 'attempts_unknown_fraction', kind: 'value', unit: 'fraction', label: 'attempts ending unknown', description: 'share of attempts that ended with an unknown outcome: no reply within the timeout' },
  { path: 'call_latency_ms.p50', kind: 'quantile', unit: 'ms', label: 'call p50', title: 'call latency, median', description: 'first attempt to the tool\'s return, per call: median' },
  { path: 'call_latency_ms.p95', kind: 'quantile', unit: 'ms', label: 'call p95', title: 'call latency, 95th percentile', short: 'call p95', description: 'first attempt to the tool\'s return, per call: 95th percentile' },
  { path: 'call_latency_ms.p99', kind: 'quantile', unit: 'ms', label: 'call p99', title: 'call latency, 99th percentile', description: 'first attempt to the tool\'s return, per call: 99th percentile' },
  { path: 'action_latency_ms.p50', kind: 'quantile', unit: 'ms', label: 'action p50 (replays included)', title: 'action latency, median (replays included)', description: 'arrival to the last call\'s return, replays included, per action: median' },
  { path: 'action_latency_ms.p95', kind: 'quantile', unit: 'ms', label: 'action p95 (replays included)', title: 'action latency, 95th percentile (replays included)', description: 'arrival to the last call\'s return, replays included, per action: 95th percentile' },
  { path: 'action_latency_ms.p99', kind: 'quantile', unit: 'ms', label: 'action p99 (replays included)', title: 'action latency, 99th percentile (replays included)', description: 'arrival to the last call\'s return, replays included, per action: 99th percentile' },
  { path: 'shed_per_1000', kind: 'estimate', counter: 'shed', scale: PER_1000, unit: 'count', label: 'shed per 1000 (queue full, 503)', title: 'requests shed per 1000 actions (queue full, 503)', short: 'shed/1000', description: 'requests refused with a 503 because the queue was full, per 1000 actions', only: 'capacity' },
  { path: 'expired_per_1000', kind: 'estimate', counter: 'expired', scale: PER_1000, unit: 'count', label: 'expired per 1000 (dropped unhandled)', title: 'requests expired in the queue per 1000 actions', short: 'expired/1000', description: 'requests a worker dropped unhandled because their client had timed out (drop_expired), per 1000 actions', only: 'capacity' },
  { path: 'budget_denied_per_1000', kind: 'estimate', counter: 'budget_denied', scale: PER_1000, unit: 'count', label: 'retries denied by the budget per 1000', title: 'retries denied by the retry budget per 1000 actions', short: 'denied/1000', description: 'retries the retry budget did not allow, per 1000 actions', only: 'capacity' },
  { path: 'breaker_rejected_per_1000', kind: 'estimate', counter: 'breaker_rejected', scale: PER_1000, unit: 'count', label: 'attempts rejected by the breaker per 1000', title: 'attempts rejected by the circuit breaker per 1000 actions', short: 'rejected/1000', description: 'attempts the open circuit breaker did not send, per 1000 actions', only: 'capacity' },
  { path: 'throttled_per_1000', kind: 'estimate', counter: 'throttled', scale: PER_1000, unit: 'count', label: 'retries throttled per 1000', title: 'retries throttled (gRPC retry throttling) per 1000 actions', short: 'throttled/1000', description: 'retries gRPC\'s retry throttling did not allow, per 1000 actions (where client.retry_throttle is set)', only: 'guard' },
  { path: 'queue_wait_ms.p50', kind: 'quantile', unit: 'ms', label: 'queue wait p50', title: 'queue wait, median', description: 'arrival at the service to a worker\'s start, over every request a worker ran (zero waits included): median', only: 'capacity' },
  { path: 'queue_wait_ms.p95', kind: 'quantile', unit: 'ms', label: 'queue wait p95', title: 'queue wait, 95th percentile', short: 'wait p95', description: 'arrival at the service to a worker\'s start, over every request a worker ran (zero waits included): 95th percentile', only: 'capacity' },
  { path: 'queue_wait_ms.p99', kind: 'quantile', unit: 'ms', label: 'queue wait p99', title: 'queue wait, 99th percentile', description: 'arrival at the service to a worker\'s start, over every request a worker ran (zero waits included): 99th percentile', only: 'capacity' },
  { path: 'utilisation', kind: 'value', unit: 'fraction', label: 'utilisation (workers busy)', title: 'worker utilisation', description: 'handler time inside the load over service.capacity.workers × the load\'s length (load.duration, else the last primary\'s arrival); none without service.capacity (a retry budget or breaker alone)', only: 'capacity' },
  { path: 'saturated_share', kind: 'value', unit: 'fraction', label: 'saturated (no worker free)', title: 'share of the load saturated (no worker free)', short: 'saturated', description: 'time inside the load with every worker in force busy (a pause of 0 workers included) over the load\'s length, measured exactly at each worker\'s start and end; none without service.capacity', only: 'capacity' },
  { path: 'offered_utilisation', kind: 'value', unit: 'fraction', label: 'offered utilisation (first attempts)', title: 'offered utilisation (first attempts, from the scenario)', short: 'offered util.', description: 'from the scenario: the mean arrival rate of actions (twins included) times the mean service time over service.capacity.workers; retries, re-plans and replays come on top; none without service.capacity', only: 'capacity' },
  { path: 'peak_offered_utilisation', kind: 'value', unit: 'fraction', label: 'peak offered utilisation (first attempts)', title: 'peak offered utilisation (first attempts, from the scenario)', short: 'peak offered util.', description: 'offered_utilisation at the highest rate of load.profile (equal without one); 0.85 or above is warned of; none without service.capacity', only: 'capacity' },
  { path: 'keys_per_action', kind: 'estimate', counter: 'keys', scale: PER_ACTION, unit: 'count', label: 'keys per action', description: 'key rows per action: the writes of one key whose lifetimes overlap make one row (docs/model.md v2)' },
  { path: 'peak_live_keys', kind: 'value', unit: 'keys', label: 'peak live keys (simulated)', description: 'most records live at one instant (on a grid; see docs/model-decisions.md)' },
  { path: 'keys', kind: 'value', unit: 'keys', label: 'steady-state keys at rate × retention', description: 'steady-state rows: keys_per_action × action rate × retention' },
  { path: 'key_store_mb', kind: 'value', unit: 'MB', label: 'steady-state key store (MB)', short: 'key store MB', description: 'keys × record_bytes / 1e6' },
  { path: 'alert_baselines_per_s.dedup_hits', kind: 'estimate', counter: 'dedup_hits', scale: PER_SECOND, unit: 'count', label: 'dedup hits', title: 'dedup hits per second (alert baseline at load.rate_per_s)', description: 'dedup hits per second at load.rate_per_s, or with incidents in the time outside every window and its grace (an alert baseline)' },
  { path: 'alert_baselines_per_s.conflicts_409', kind: 'estimate', counter: 'conflicts_409', scale: PER_SECOND, unit: 'count', label: '409 in progress', title: '409 in progress per second (alert baseline at load.rate_per_s)', description: '409 answers per second at load.rate_per_s, or with incidents in the time outside every window and its grace (an alert baseline)' },
  { path: 'alert_baselines_per_s.mismatches_422', kind: 'estimate', counter: 'mismatches_422', scale: PER_SECOND, unit: 'count', label: '422 fingerprint mismatch', title: '422 fingerprint mismatch per second (alert baseline at load.rate_per_s)', description: '422 answers per second at load.rate_per_s, or with incidents in the time outside every window and its grace (an alert baseline)' },
  { path: 'alert_baselines_per_s.unknown_outcomes', kind: 'estimate', counter: 'unknown_outcomes', scale: PER_SECOND, unit: 'count', label: 'unknown outcomes returned to the model', title: 'unknown outcomes returned to the model per second (alert baseline at load.rate_per_s)', description: 'unknown outcomes per second at load.rate_per_s, or with incidents in the time outside every window and its grace (an alert baseline)' },
  { path: 'actions', kind: 'value', unit: 'actions', label: 'actions simulated', description: 'actions simulated, twins included: the denominator of every rate' },
  { path: 'primary_actions', kind: 'value', unit: 'actions', label: 'primary actions simulated', description: 'primary actions simulated (the scenario\'s actions)' },
] as const satisfies readonly MetricDef[];

type Def = (typeof DEFS)[number];
export type MetricPath = Def['path'];
/** The definition of `P` as written: its kind and `only` as literal types (results/metric-paths.ts holds them to `Metrics`). */
export type DefOf<P extends MetricPath> = Extract<Def, { path: P }>;
/** Metrics that are a counter's mean: they carry a 95% interval. */
export type CounterMetricPath = Extract<Def, { counter: CounterName }>['path'];

/** Every numeric metric, in report order. */
export const ALL_METRIC_PATHS: readonly MetricPath[] = DEFS.map((d) => d.path);
/** The metrics every run reports, in report order (the others only where they apply: `only`). */
export const METRIC_PATHS: readonly MetricPath[] = DEFS.filter((d) => !('only' in d)).map((d) => d.path);
/** The metrics that only some settings report and that a sweep charts and a precision run could watch: a coupled run's, a later guard's, a trigger's. */
const SETTINGS_ONLY: ReadonlySet<MetricDef['only']> = new Set(['capacity', 'guard', 'trigger']);
/** What a sweep can chart (`--metric`, `sweep.metric`): every run's metrics, a coupled run's and a trigger's (checked against the sweep's scenario). */
export const SWEEP_METRIC_PATHS: readonly MetricPath[] = DEFS.filter((d) => !('only' in d) || SETTINGS_ONLY.has(d.only)).map((d) => d.path);

/** Each metric's definition by path. */
export const METRICS: Readonly<Record<MetricPath, MetricDef>> = Object.fromEntries(DEFS.map((d) => [d.path, d])) as Record<MetricPath, MetricDef>;

/** The definition of `path`, or undefined for a name that is no metric. */
export function metricDef(path: string): MetricDef | undefined {
  return Object.hasOwn(METRICS, path) ? METRICS[path as MetricPath] : undefined;
}

/** How `path` reads standing alone (its `title`, else its `label`). */
export function metricTitle(path: MetricPath): string {
  const d = METRICS[path];
  return d.title ?? d.label;
}

/** `path` where room is short (its `short`, else the path itself). */
export function metricShort(path: MetricPath): string {
  return METRICS[path].short ?? path;
}

/** The factor from a counter's per-action mean to the metric, at `actionsPerSecond` (twins included). */
export function scaleFactor(scale: Scale, actionsPerSecond: number): number {
  switch (scale.per) {
    case 'actions': return scale.times;
    case 'second': return actionsPerSecond;
    case 'day': return actionsPerSecond * 86_400;
    default: return assertNever(scale);
  }
}

/** The counter and scale of a counter metric. */
export function counterOf(path: CounterMetricPath): { counter: CounterName; scale: Scale } {
  const d = METRICS[path];
  return { counter: d.counter as CounterName, scale: d.scale as Scale };
}

/** A counter metric with a constant scale (per action, per 1000 actions), not a rate per second or per day. */
export interface PerActionMetric { readonly path: MetricPath; readonly counter: CounterName; readonly times: number }

/**
 * The counter metrics with a constant scale, in report order: what `--precision` can target
 * (those every run reports, a coupled run's counters and a trigger's: a run without them counts 0;
 * results/precision.ts keeps those every run reports).
 */
export const PER_ACTION_METRICS: readonly PerActionMetric[] = DEFS.flatMap((d) =>
  ('counter' in d && d.scale.per === 'actions' && (!('only' in d) || SETTINGS_ONLY.has(d.only)) ? [{ path: d.path, counter: d.counter, times: d.scale.times }] : []));

/** The metric that is `counter` per action or per 1000 actions (the first in report order). */
export function perActionMetric(counter: CounterName): PerActionMetric | undefined {
  return PER_ACTION_METRICS.find((d) => d.counter === counter);
}

function assertNever(x: never): never {
  throw new TypeError(`unhandled ${JSON.stringify(x)}`);
}
