/**
 * How many workers may run handlers at each instant (docs/model.md, "Capacity"): the base
 * count, or an incident window's `service.capacity.workers` (a capacity drop; 0 a pause). The
 * engine reads the count at each handler's start and at each window edge.
 */
import { inForceAt, segmentStarts } from '../../model/incidents.js';
import type { Scenario } from '../../model/types.js';

export class WorkerSchedule {
  /** Instants where the count may change, ascending, and the count from each on. */
  readonly edges: Float64Array;
  private readonly counts: Float64Array;
  readonly base: number;

  constructor(s: Scenario) {
    this.base = s.service.capacity?.workers ?? Infinity;
    const starts = segmentStarts(s.incidents.filter((w) => w.service.capacity.workers !== null));
    this.edges = Float64Array.from(starts);
    this.counts = Float64Array.from(starts.map((t) => inForceAt(s.incidents, t).workers ?? this.base));
  }

  /** The count at time `t`. */
  at(t: number): number {
    const e = this.edges;
    let lo = 0, hi = e.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((e[mid] as number) <= t) lo = mid + 1; else hi = mid;
    }
    return lo === 0 ? this.base : (this.counts[lo - 1] as number);
  }
}
