/**
 * The metrics of docs/model.md ("Metrics (per run)") and how chunk results add up to them.
 * Every field name is the one docs/model.md uses; each metric's counter, scale and unit are
 * in src/results/metric-registry.ts.
 */
import { LatencyBins, type BinsData } from '../engine/bins.js';
import { C, CounterTally } from '../model/counters.js';
import type { ChunkOutput } from '../engine/engine.js';
import { counterOf, scaleFactor, type CounterMetricPath } from './metric-registry.js';
import { meanRatePerS } from '../model/clock.js';
import { KeyGrid, type GridData } from '../engine/peak.js';
import { quietBuckets, quietRate } from './quiet.js';
import type { SeriesCounts, SeriesName } from '../model/series.js';
import { SeriesSum } from '../engine/series-tally.js';
import type { WrittenScenario } from '../model/types.js';
import type { CapacityOutput } from '../engine/chunk-output.js';
import { isCoupled } from '../model/capacity.js';
import { CapacitySum } from './capacity.js';
import { deliveryFigures, hasTrigger } from './delivery.js';
import type { SaturationReadings } from './saturation.js';

/** A mean with its 95% confidence interval [low, high] (mean ± 1.96·sd/√n over actions). */
export interface Estimate { value: number; ci95: [number, number] }

export interface Quantiles { p50: number | null; p95: number | null; p99: number | null }

/** A coupled run's saturation readings (docs/model.md v4, "Saturation") are its fields too (results/saturation.ts). */
export interface Metrics extends Partial<SaturationReadings> {
  /** Actions simulated, twins included: the denominator of every rate. */
  actions: number;
  /** Primary actions simulated (the scenario's `actions`). */
  primary_actions: number;
  /** Actions per second, twins included: `load.rate_per_s` × actions / primary_actions. */
  actions_per_second: number;
  /** Executions beyond each action's first, per 1000 actions, split by the kind of call that made them (and, with a trigger, the runs of its redeliveries). */
  duplicates_per_1000: Estimate & { transport: Estimate; replan: Estimate; replay: Estimate; redelivery?: Estimate };
  /** Duplicates per day at `load.rate_per_s` (twins arrive on top of that rate); with incidents, the run repeated, incidents and all. */
  duplicates_per_day: Estimate;
  /** With incidents: duplicates per day at the rate of the quiet time (results/quiet.ts); absent where the run has none. */
  duplicates_per_day_outside_incidents?: Estimate;
  /** With incidents: the quiet time the quiet figures and the alert baselines come from (ms). */
  quiet_time_ms?: number;
  /** Actions that never executed, per 1000. */
  lost_per_1000: Estimate;
  /** Of the lost: twins answered with their sibling's stored result, per 1000. */
  merged_per_1000: Estimate;
  /** With a trigger (results/delivery.ts): its deliveries per action (the first included), actions delivered twice or more and actions dead-lettered, per 1000. */
  deliveries_per_action?: Estimate; redelivered_per_1000?: Estimate; dead_lettered_per_1000?: Estimate;
  /** Calls returned to the model failed with the last attempt timed out or answered 409, per 1000 actions. */
  unknown_outcomes_per_1000: Estimate;
  conflicts_409_per_1000: Estimate;
  mismatches_422_per_1000: Estimate;
  /** Stored results replayed by the server (successes and, under on_error: store, 5xx), per 1000 actions. */
  dedup_hits_per_1000: Estimate;
  /** 503s of a key store that is down, per 1000 actions: only for scenarios with an incident that takes it down. */
  store_unavailable_per_1000?: Estimate;
  attempts_per_action: Estimate;
  executions_per_action: Estimate;
  /** First attempt to the tool's return, per call (ms). */
  call_latency_ms: Quantiles;
  /** Arrival to the last call's return, replays included, per action (ms). */
  action_latency_ms: Quantiles;
  /** Capacity (docs/model.md), only for coupled runs: requests shed with a 503 because the queue was full, per 1000 actions. */
  shed_per_1000?: Estimate;
  /** Requests a worker dropped unhandled (drop_expired: their client had timed out), per 1000 actions. */
  expired_per_1000?: Estimate;
  /** Per 1000 actions: retries the retry budget did not allow, attempts the open breaker did not send, retries the throttle did not allow (only where client.retry_throttle is set: model/guards.ts). */
  budget_denied_per_1000?: Estimate;
  breaker_rejected_per_1000?: Estimate;
  throttled_per_1000?: Estimate;
  /** Arrival at the service to a worker's start, over every request a worker ran (ms; zero waits included). */
  queue_wait_ms?: Quantiles;
  /** Handler time inside the load over workers × the load's length; null without service.capacity. */
  utilisation?: number | null;
  /** Key records created per action (each claim; each stored result under check_then_act). */
  keys_per_action: Estimate;
  /** Most records live at one instant (on a grid; see docs/model-decisions.md). */
  peak_live_keys: number;
  /** Steady-state records: keys_per_action × action rate × retention. */
  keys: number;
  /** keys × record_bytes / 1e6. */
  key_store_mb: number;
  /** Share of handler runs (requests not answered from the key store) longer than client.timeout (the guide's 2.2% and 88%). */
  handler_over_timeout_fraction: number;
  /** Share of attempts that ended with an unknown outcome: no reply within the timeout (the guide's 4.2%). */
  attempts_unknown_fraction: number;
  /**
   * What a production dashboard should see per second at `load.rate_per_s` (twins on top),
   * for setting alert thresholds: the guide's dedup-hit, 409, 422 and unknown-outcome rates.
   * With incidents, the rates of the quiet time (results/quiet.ts), or the run's own where it has none.
   */
  alert_baselines_per_s: { dedup_hits: Estimate; conflicts_409: Estimate; mismatches_422: Estimate; unknown_outcomes: Estimate };
}

/** Steady-state key store: keys = keys per action × actions per second × retention. */
export function keyStoreSize(keysPerAction: number, actionsPerSecond: number, retentionMs: number, recordBytes: number) {
  const keys = keysPerAction * actionsPerSecond * (retentionMs / 1000);
  return { keys, key_store_mb: (keys * recordBytes) / 1e6 };
}

/** A run's (or a shard's) sums, in plain serialisable form: what `--shard` writes and `merge` reads. */
export interface RunStateData {
  primaries: number;
  actions: number;
  handlerRuns: number;
  handlerRunsOverTimeout: number;
  attemptsUnknown: number;
  sum: number[];
  sumSq: number[];
  callLatency: BinsData;
  actionLatency: BinsData;
  grid: GridData;
  /** The series, when the run counts one: its step, and base64 of the little-endian Float64 counts, bucket by bucket (series.ts). */
  series?: { step: number; buckets: number; counts: string };
  /** A coupled run's measures of its workers (results/capacity.ts); absent for every other run. */
  capacity?: CapacityOutput;
}

/**
 * The sums of a run. Every part is an integer count (counters, histogram bins, grid
 * differences), so chunks, threads and shards add up to the same numbers in any order.
 */
export class RunState extends CounterTally {
  primaries = 0;
  private handlerRuns = 0;
  private overTimeout = 0;
  private unknownAttempts = 0;
  private readonly callLatency = new LatencyBins();
  private readonly actionLatency = new LatencyBins();
  readonly grid: KeyGrid; // the engines write their key rows to it as they run (ChunkOutput.grid)
  private readonly seriesSum: SeriesSum | null;
  /** A coupled run's sums, from its first chunk that has them. */
  private capacity: CapacitySum | null = null;

  /** `gridCells`: how many grid cells the run is expected to span, if known (see KeyGrid); `seriesStep`: the series' step in ms, null for none. */
  constructor(gridStep: number, gridCells = 0, seriesStep: number | null = null, gridCap = Infinity) {
    super();
    this.grid = new KeyGrid(gridStep, gridCells, gridCap);
    this.seriesSum = seriesStep === null ? null : new SeriesSum(seriesStep);
  }

  /** Adds one chunk. */
  addChunk(c: ChunkOutput): void {
    this.addTotals(c);
    if (c.grid !== this.grid) this.grid.addGrid(c.grid);
    if (c.series) this.seriesSum?.add(c.series.base, c.series.rows, c.series.step);
    if (c.capacity) this.addCapacity(c.capacity);
  }

  /** Adds a part summed elsewhere (another shard). */
  addData(d: RunStateData): void {
    this.addTotals(d);
    this.grid.addData(d.grid);
    if (d.series) this.seriesSum?.add(0, decodeCounts(d.series.counts), d.series.step);
    if (d.capacity) this.addCapacity(d.capacity);
  }

  private addCapacity(c: CapacityOutput): void {
    (this.capacity ??= new CapacitySum()).add(c);
  }

  /** The run's series, or null when it counts none. */
  series(): SeriesCounts | null {
    return this.seriesSum?.result() ?? null;
  }

  /** The parts a chunk's output and a run's data share. */
  private addTotals(t: Pick<RunStateData, 'primaries' | 'actions' | 'handlerRuns' | 'handlerRunsOverTimeout' | 'attemptsUnknown' | 'callLatency' | 'actionLatency'> & { sum: ArrayLike<number>; sumSq: ArrayLike<number> }): void {
    this.primaries += t.primaries;
    this.handlerRuns += t.handlerRuns;
    this.overTimeout += t.handlerRunsOverTimeout;
    this.unknownAttempts += t.attemptsUnknown;
    this.add(t.actions, t.sum, t.sumSq);
    this.callLatency.addData(t.callLatency);
    this.actionLatency.addData(t.actionLatency);
  }

  toData(): RunStateData {
    return {
      primaries: this.primaries, actions: this.actions,
      handlerRuns: this.handlerRuns, handlerRunsOverTimeout: this.overTimeout, attemptsUnknown: this.unknownAttempts,
      sum: Array.from(this.sum), sumSq: Array.from(this.sumSq),
      callLatency: this.callLatency.toData(), actionLatency: this.actionLatency.toData(), grid: this.grid.toData(),
      ...(this.seriesSum ? { series: encodeSeries(this.seriesSum.result()) } : {}),
      ...(this.capacity ? { capacity: this.capacity.toData() } : {}),
    };
  }

  finish(s: WrittenScenario): Metrics {
    const n = this.actions;
    // Action rate including twins, as measured: primaries arrive at rate_per_s (with a profile, the run's mean rate).
    const actionsPerSecond = this.primaries > 0 ? (meanRatePerS(s) * n) / this.primaries : 0;
    // Counter and scale of each estimate come from the metric registry.
    const est = (path: CounterMetricPath): Estimate => {
      const { counter, scale } = counterOf(path);
      const { mean, half } = this.counter(counter);
      const k = scaleFactor(scale, actionsPerSecond);
      return { value: mean * k, ci95: interval(mean, half, n, k) };
    };
    const attempts = this.sum[C.attempts] as number;
    const keysPerAction = est('keys_per_action');
    const triggered = hasTrigger(s);
    return {
      actions: n,
      primary_actions: this.primaries,
      actions_per_second: actionsPerSecond,
      duplicates_per_1000: {
        ...est('duplicates_per_1000'), transport: est('duplicates_per_1000.transport'), replan: est('duplicates_per_1000.replan'), replay: est('duplicates_per_1000.replay'),
        ...(triggered ? { redelivery: est('duplicates_per_1000.redelivery') } : {}),
      },
      duplicates_per_day: est('duplicates_per_day'),
      lost_per_1000: est('lost_per_1000'),
      merged_per_1000: est('merged_per_1000'),
      ...(triggered ? deliveryFigures(est) : {}),
      unknown_outcomes_per_1000: est('unknown_outcomes_per_1000'),
      conflicts_409_per_1000: est('conflicts_409_per_1000'),
      mismatches_422_per_1000: est('mismatches_422_per_1000'),
      dedup_hits_per_1000: est('dedup_hits_per_1000'),
      ...(s.incidents.some((w) => w.store.down) ? { store_unavailable_per_1000: est('store_unavailable_per_1000') } : {}),
      attempts_per_action: est('attempts_per_action'),
      executions_per_action: est('executions_per_action'),
      call_latency_ms: quantiles(this.callLatency),
      action_latency_ms: quantiles(this.actionLatency),
      ...(isCoupled(s) ? this.capacityFigures(s, est) : {}),
      keys_per_action: keysPerAction,
      peak_live_keys: this.grid.peak(),
      ...keyStoreSize(keysPerAction.value, actionsPerSecond, s.idempotency.retention, s.idempotency.record_bytes),
      handler_over_timeout_fraction: this.handlerRuns > 0 ? this.overTimeout / this.handlerRuns : 0,
      attempts_unknown_fraction: attempts > 0 ? this.unknownAttempts / attempts : 0,
      alert_baselines_per_s: {
        dedup_hits: est('alert_baselines_per_s.dedup_hits'), conflicts_409: est('alert_baselines_per_s.conflicts_409'),
        mismatches_422: est('alert_baselines_per_s.mismatches_422'), unknown_outcomes: est('alert_baselines_per_s.unknown_outcomes'),
      },
      ...this.quietFigures(s),
    };
  }

  /** A coupled run's readings (docs/model.md, "Capacity"): its counters per 1000 actions, queue waits, utilisation. */
  private capacityFigures(s: WrittenScenario, est: (path: CounterMetricPath) => Estimate) {
    return {
      shed_per_1000: est('shed_per_1000'),
      expired_per_1000: est('expired_per_1000'),
      budget_denied_per_1000: est('budget_denied_per_1000'),
      breaker_rejected_per_1000: est('breaker_rejected_per_1000'),
      ...(s.client.retry_throttle !== null ? { throttled_per_1000: est('throttled_per_1000') } : {}),
      ...(this.capacity ?? new CapacitySum()).readings(s),
    };
  }

  /** With incidents: the figures of the quiet time, and the alert baselines from it (results/quiet.ts). */
  private quietFigures(s: WrittenScenario): Pick<Metrics, 'quiet_time_ms' | 'duplicates_per_day_outside_incidents'> & Partial<Pick<Metrics, 'alert_baselines_per_s'>> {
    const series = this.series();
    if (s.incidents.length === 0 || series === null) return {};
    const quiet = quietBuckets(s, series.step, series.buckets);
    if (quiet.length === 0) return { quiet_time_ms: 0 };
    const rate = (name: SeriesName) => quietRate(series, quiet, name);
    return {
      quiet_time_ms: quiet.length * series.step,
      duplicates_per_day_outside_incidents: quietRate(series, quiet, 'duplicates', 86_400),
      alert_baselines_per_s: { dedup_hits: rate('dedup_hits'), conflicts_409: rate('conflicts_409'), mismatches_422: rate('mismatches_422'), unknown_outcomes: rate('unknown_outcomes') },
    };
  }

}

/**
 * The 95% interval of a count's per-action mean, scaled by `k` (docs/model.md v2): mean ± half,
 * its lower end clipped at 0 (counts are never negative); a count of 0 gets [0, 3/n] (the rule
 * of three), so that "none seen" says how many could hide behind it.
 */
export function interval(mean: number, half: number, n: number, k: number): [number, number] {
  if (mean === 0) return [0, n > 0 ? (3 / n) * k : Infinity];
  return [Math.max(0, mean - half) * k, (mean + half) * k];
}

/** The half-width 1.96·sd/√n of an estimate: its upper half (the lower may be clipped); 0 for a zero count (whose interval is the rule of three). */
export function halfWidth(e: Estimate): number {
  return e.value === 0 ? 0 : e.ci95[1] - e.value;
}

const quantiles = (bins: LatencyBins): Quantiles => ({ p50: bins.quantile(0.5), p95: bins.quantile(0.95), p99: bins.quantile(0.99) });

/** A series as a part file holds it: exact (integers in Float64), compact. */
function encodeSeries(s: SeriesCounts): { step: number; buckets: number; counts: string } {
  const bytes = new Uint8Array(s.counts.buffer, s.counts.byteOffset, s.counts.byteLength);
  return { step: s.step, buckets: s.buckets, counts: Buffer.from(bytes).toString('base64') };
}

/** A series as `encodeSeries` wrote it, counts and all. */
export function decodeSeries(d: NonNullable<RunStateData['series']>): SeriesCounts {
  return { step: d.step, buckets: d.buckets, counts: decodeCounts(d.counts) };
}

/** The counts of `encodeSeries` (a part file checked by shards/part-check.ts). */
function decodeCounts(text: string): Float64Array {
  const bytes = Buffer.from(text, 'base64');
  const copy = new Uint8Array(bytes.length - (bytes.length % 8));
  copy.set(bytes.subarray(0, copy.length));
  return new Float64Array(copy.buffer);
}
