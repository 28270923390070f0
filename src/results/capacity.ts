/**
 * The capacity readings of a coupled run (docs/model.md, "Capacity"): the sums of its workers
 * (queue waits, handler time, handlers started, calls that succeeded), the metrics they give, and
 * which series counts a run lists. A run that is not coupled has none of them.
 */
import { LatencyBins } from '../engine/bins.js';
import type { CapacityOutput, SaturationOutput } from '../engine/chunk-output.js';
import { isCoupled } from '../model/capacity.js';
import { GUARDS, LATER_GUARDS } from '../model/guards.js';
import { arrivalSpan } from '../model/clock.js';
import { CAPACITY_SERIES, SERIES_NAMES, TRIGGER_SERIES, type SeriesName } from '../model/series.js';
import { hasTrigger } from './delivery.js';
import type { WrittenScenario } from '../model/types.js';
import type { Quantiles } from './metrics.js';
import { saturationReadings, type SaturationReadings } from './saturation.js';

export { CAPACITY_SERIES } from '../model/series.js';

/** Whether metrics are a coupled run's (docs/model.md, "Capacity"): only those carry its readings. */
export function coupledMetrics(m: { shed_per_1000?: unknown }): boolean {
  return m.shed_per_1000 !== undefined;
}

/**
 * The series counts a run of `s` lists (JSON buckets, CSV columns, charts), in SERIES_NAMES order:
 * a coupled run's only where it is coupled, a guard's added after version 3 only where it is set
 * (model/guards.ts), a trigger's only where the scenario has one (results/delivery.ts).
 */
export function listedSeries(s: WrittenScenario): readonly SeriesName[] {
  const unset = isCoupled(s) ? LATER_GUARDS.filter((n) => s.client[n] === null).map((n): SeriesName => GUARDS[n].series) : [...CAPACITY_SERIES];
  if (!hasTrigger(s)) unset.push(...TRIGGER_SERIES);
  return unset.length === 0 ? SERIES_NAMES : SERIES_NAMES.filter((n) => !unset.includes(n));
}

/** The readings of a coupled run that are not counters' means (results/metrics.ts has those). */
export interface CapacityReadings extends SaturationReadings {
  queue_wait_ms: Quantiles;
  utilisation: number | null;
}

/**
 * A coupled run's sums of `CapacityOutput`. Its counts, bins and busy time (whole µs) are
 * integers, so its sums are exact in any grouping.
 */
export class CapacitySum {
  private readonly queueWait = new LatencyBins();
  private busyUs = 0;
  /** T, the load's end (every block of a run gives the same); null before the first. */
  private loadMs: number | null = null;
  private startedCount = 0;
  private succeededCount = 0;
  /** The run's saturation (its last block's: a coupled run is one simulation). */
  private saturation: SaturationOutput | undefined;

  add(c: CapacityOutput): void {
    if (c.saturation) this.saturation = c.saturation;
    this.queueWait.addData(c.queueWait);
    this.busyUs += c.busyUs;
    this.loadMs = Math.max(this.loadMs ?? 0, c.loadMs);
    this.startedCount += c.started;
    this.succeededCount += c.succeeded;
  }

  /** What the `started` and `succeeded` series add up to (model/series.ts, seriesTotalFromSums). */
  get started(): number { return this.startedCount; }
  get succeeded(): number { return this.succeededCount; }

  toData(): CapacityOutput {
    return {
      queueWait: this.queueWait.toData(), busyUs: this.busyUs, loadMs: this.loadMs ?? 0, started: this.startedCount, succeeded: this.succeededCount,
      ...(this.saturation ? { saturation: this.saturation } : {}),
    };
  }

  /**
   * Queue-wait quantiles over every request a worker ran, zero waits included (a quantile at or
   * below their share is exactly 0); utilisation: handler time inside the load `[0, T)` over
   * `workers × T`, `T` the load's end as the engine took it (clock.ts, arrivalSpan, before the
   * first block), by the base worker count; null without `service.capacity` (a budget or breaker
   * alone) or for a load of no length; and the saturation readings (results/saturation.ts).
   */
  readings(s: WrittenScenario): CapacityReadings {
    const q = this.queueWait;
    const span = this.loadMs ?? arrivalSpan(s);
    const workers = s.service.capacity?.workers ?? 0;
    return {
      queue_wait_ms: { p50: q.quantile(0.5), p95: q.quantile(0.95), p99: q.quantile(0.99) },
      utilisation: workers > 0 && span > 0 ? this.busyUs / 1000 / (workers * span) : null,
      ...saturationReadings(s, this.saturation, span),
    };
  }
}
