/** The check of a part's capacity sums (docs/model.md, "Capacity"; results/capacity.ts). */
import { C, NUM_COUNTERS } from '../model/counters.js';
import type { RunStateData } from '../results/metrics.js';
import type { PartChecker } from './part-check.js';

/**
 * A run's `capacity` field, there only when the run is `coupled` and then whenever it simulated
 * an action: whole counts, a finite busy time >= 0, and one queue wait (zero included) for every
 * handler started.
 */
export function capacityOf(c: PartChecker, v: unknown, field: string, coupled: boolean, actions: number): Pick<RunStateData, 'capacity'> {
  if (v === undefined) {
    if (coupled && actions > 0) c.fail(field, 'is missing, but the run is coupled (service.capacity, client.retry_budget or client.breaker)');
    return {};
  }
  if (!coupled) c.fail(field, 'is there, but the run is not coupled (no service.capacity, client.retry_budget or client.breaker)');
  const o = c.object(v, field, ['queueWait', 'busyUs', 'loadMs', 'started', 'succeeded']);
  const capacity = {
    queueWait: c.bins(o['queueWait'], `${field}.queueWait`), busyUs: c.int(o['busyUs'], `${field}.busyUs`, 0, Number.MAX_SAFE_INTEGER), loadMs: c.number(o['loadMs'], `${field}.loadMs`),
    started: c.int(o['started'], `${field}.started`), succeeded: c.int(o['succeeded'], `${field}.succeeded`),
  };
  const waits = capacity.queueWait.counts.reduce((a, b) => a + b, capacity.queueWait.zero);
  if (waits !== capacity.started) c.fail(`${field}.queueWait`, `holds ${waits} waits, but the part counts ${capacity.started} handlers started`);
  return { capacity };
}

/**
 * A run's counter sums, one for every counter of this build. A part written before the last
 * counter was added (`duplicated`, for the agent's readings) lacks a sum that is not 0 in any run
 * with duplicates, so it cannot be read as this build's: it is refused, with what to do.
 */
export function counterSums(c: PartChecker, v: unknown, field: string): number[] {
  // The lengths earlier builds wrote: before "Capacity" (its four counters) and before `duplicated`.
  if (Array.isArray(v) && (v.length === C.shed || v.length === C.duplicated)) {
    c.fail(field, `holds ${v.length} counter sums where this build keeps ${NUM_COUNTERS}: the part was written by an earlier build; run its shard again with this one`);
  }
  return c.counts(v, field, NUM_COUNTERS);
}
