/**
 * The metrics of MODEL.md ("Metrics (per run)") and how chunk results add up to them.
 * Every field name is the one MODEL.md uses; units are in the name.
 */
import { C, CounterSums, meanCi, type CounterName } from './counters.js';
import type { ChunkResult } from './engine.js';
import { PeakTracker, peakGridStep } from './peak.js';
import { newSketch, quantile, type DDSketch } from './sketch.js';
import type { Scenario } from './types.js';

/** A mean with its 95% confidence interval [low, high] (mean ± 1.96·sd/√n over actions). */
export interface Estimate { value: number; ci95: [number, number] }

export interface Quantiles { p50: number | null; p95: number | null; p99: number | null }

export interface Metrics {
  /** Actions simulated, twins included: the denominator of every rate. */
  actions: number;
  /** Primary actions simulated (the scenario's `actions`). */
  primary_actions: number;
  /** Executions beyond each action's first, per 1000 actions, split by the kind of call that made them. */
  duplicates_per_1000: Estimate & { transport: Estimate; replan: Estimate; replay: Estimate };
  /** Duplicates per day at `load.rate_per_s` (twins arrive on top of that rate). */
  duplicates_per_day: Estimate;
  /** Actions that never executed, per 1000. */
  lost_per_1000: Estimate;
  /** Of the lost: twins answered with their sibling's stored result, per 1000. */
  merged_per_1000: Estimate;
  /** Calls returned to the model failed with the last attempt timed out or answered 409, per 1000 actions. */
  unknown_outcomes_per_1000: Estimate;
  conflicts_409_per_1000: Estimate;
  mismatches_422_per_1000: Estimate;
  /** Stored results replayed by the server (successes and, under on_error: store, 5xx), per 1000 actions. */
  dedup_hits_per_1000: Estimate;
  attempts_per_action: Estimate;
  executions_per_action: Estimate;
  /** First attempt to the tool's return, per call (ms). */
  call_latency_ms: Quantiles;
  /** Arrival to the last call's return, replays included, per action (ms). */
  action_latency_ms: Quantiles;
  /** Key records created per action (each claim; each stored result under check_then_act). */
  keys_per_action: Estimate;
  /** Most records live at one instant (on a grid; see docs/model-decisions.md). */
  peak_live_keys: number;
  /** Steady-state records: keys_per_action × action rate × retention. */
  keys: number;
  /** keys × record_bytes / 1e6. */
  key_store_mb: number;
  /** Share of attempts the server took longer than client.timeout on (the guide's 2.2%). */
  attempts_over_timeout_fraction: number;
  /** Share of attempts that ended with an unknown outcome: no reply within the timeout (the guide's 4.2%). */
  attempts_unknown_fraction: number;
}

/** Steady-state key store: keys = keys per action × actions per second × retention. */
export function keyStoreSize(keysPerAction: number, actionsPerSecond: number, retentionMs: number, recordBytes: number) {
  const keys = keysPerAction * actionsPerSecond * (retentionMs / 1000);
  return { keys, key_store_mb: (keys * recordBytes) / 1e6 };
}

/** Sums chunk results in chunk order. */
export class Totals {
  private primaries = 0;
  private actions = 0;
  private attempts = 0;
  private overTimeout = 0;
  private unknownAttempts = 0;
  private offset = 0;
  private readonly counters = new CounterSums();
  private readonly callLatency: DDSketch = newSketch();
  private readonly actionLatency: DDSketch = newSketch();
  private readonly peak: PeakTracker;

  constructor(private readonly scenario: Scenario) {
    this.peak = new PeakTracker(peakGridStep(scenario.idempotency.retention, scenario.load.rate_per_s));
  }

  add(chunk: ChunkResult, primaries: number): void {
    this.primaries += primaries;
    this.actions += chunk.actions;
    this.overTimeout += chunk.attemptsOverTimeout;
    this.unknownAttempts += chunk.attemptsUnknown;
    this.counters.merge(chunk.counters);
    this.callLatency.merge(chunk.callLatency);
    this.actionLatency.merge(chunk.actionLatency);
    this.peak.add(chunk.recordStart, chunk.recordEnd, chunk.records, this.offset, this.offset + chunk.span);
    this.offset += chunk.span;
  }

  finish(): Metrics {
    const s = this.scenario;
    const n = this.actions;
    const est = (name: CounterName, scale: number): Estimate => {
      const k = C[name];
      const { mean, half } = meanCi(this.counters.sum[k] as number, this.counters.sumSq[k] as number, n);
      return { value: mean * scale, ci95: [(mean - half) * scale, (mean + half) * scale] };
    };
    // Action rate including twins, as measured: primaries arrive at rate_per_s.
    const actionsPerSecond = this.primaries > 0 ? (s.load.rate_per_s * n) / this.primaries : 0;
    const attempts = this.counters.sum[C.attempts] as number;
    const keysPerAction = est('keys', 1);
    return {
      actions: n,
      primary_actions: this.primaries,
      duplicates_per_1000: {
        ...est('duplicates', 1000),
        transport: est('duplicates_transport', 1000),
        replan: est('duplicates_replan', 1000),
        replay: est('duplicates_replay', 1000),
      },
      duplicates_per_day: est('duplicates', actionsPerSecond * 86_400),
      lost_per_1000: est('lost', 1000),
      merged_per_1000: est('merged', 1000),
      unknown_outcomes_per_1000: est('unknown_outcomes', 1000),
      conflicts_409_per_1000: est('conflicts_409', 1000),
      mismatches_422_per_1000: est('mismatches_422', 1000),
      dedup_hits_per_1000: est('dedup_hits', 1000),
      attempts_per_action: est('attempts', 1),
      executions_per_action: est('executions', 1),
      call_latency_ms: quantiles(this.callLatency),
      action_latency_ms: quantiles(this.actionLatency),
      keys_per_action: keysPerAction,
      peak_live_keys: this.peak.finish(),
      ...keyStoreSize(keysPerAction.value, actionsPerSecond, s.idempotency.retention, s.idempotency.record_bytes),
      attempts_over_timeout_fraction: attempts > 0 ? this.overTimeout / attempts : 0,
      attempts_unknown_fraction: attempts > 0 ? this.unknownAttempts / attempts : 0,
    };
  }
}

function quantiles(sketch: DDSketch): Quantiles {
  return { p50: quantile(sketch, 0.5), p95: quantile(sketch, 0.95), p99: quantile(sketch, 0.99) };
}
