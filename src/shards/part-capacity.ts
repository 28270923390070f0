/** The check of a part's capacity sums (docs/model.md, "Capacity"; results/capacity.ts). */
import { COUPLING_WORDS } from '../model/capacity.js';
import { C, NUM_COUNTERS } from '../model/counters.js';
import type { SaturationOutput } from '../engine/chunk-output.js';
import { MAX_INCIDENTS } from '../model/limits.js';
import type { RunStateData } from '../results/metrics.js';
import type { PartChecker } from './part-check.js';

/**
 * A run's `capacity` field, there only when the run is `coupled` and then whenever it simulated
 * an action: whole counts, a finite busy time >= 0, and one queue wait (zero included) for every
 * handler started.
 */
export function capacityOf(c: PartChecker, v: unknown, field: string, coupled: boolean, actions: number): Pick<RunStateData, 'capacity'> {
  if (v === undefined) {
    if (coupled && actions > 0) c.fail(field, `is missing, but the run is coupled (${COUPLING_WORDS})`);
    return {};
  }
  if (!coupled) c.fail(field, `is there, but the run is not coupled (no ${COUPLING_WORDS})`);
  const o = c.object(v, field, ['queueWait', 'busyUs', 'loadMs', 'started', 'succeeded'], ['saturation']);
  const capacity = {
    queueWait: c.bins(o['queueWait'], `${field}.queueWait`), busyUs: c.int(o['busyUs'], `${field}.busyUs`, 0, Number.MAX_SAFE_INTEGER), loadMs: c.number(o['loadMs'], `${field}.loadMs`),
    started: c.int(o['started'], `${field}.started`), succeeded: c.int(o['succeeded'], `${field}.succeeded`),
    ...(o['saturation'] === undefined ? {} : { saturation: saturationOf(c, o['saturation'], `${field}.saturation`) }),
  };
  const waits = capacity.queueWait.counts.reduce((a, b) => a + b, capacity.queueWait.zero);
  if (waits !== capacity.started) c.fail(`${field}.queueWait`, `holds ${waits} waits, but the part counts ${capacity.started} handlers started`);
  return { capacity };
}

/**
 * A run's saturation (results/saturation.ts), written by a part of a whole coupled run (--shard
 * 1/1): times >= 0, one reading per incident (the merge's scenario checks their count), episodes
 * as [start, end] pairs. A part of an earlier build has none, and merges without the readings.
 */
function saturationOf(c: PartChecker, v: unknown, field: string): SaturationOutput {
  const o = c.object(v, field, ['saturatedMs', 'clearedMs', 'pastLoad', 'overload', 'offered']);
  const cleared = c.array(o['clearedMs'], `${field}.clearedMs`, 0, MAX_INCIDENTS).map((x, i) => c.number(x, `${field}.clearedMs[${i}]`));
  const pastLoad = c.array(o['pastLoad'], `${field}.pastLoad`, cleared.length, cleared.length).map((x, i) => (typeof x === 'boolean' ? x : c.fail(`${field}.pastLoad[${i}]`, 'expected true or false')));
  const overload = c.array(o['overload'], `${field}.overload`).map((x, i) => {
    const [a, b] = c.array(x, `${field}.overload[${i}]`, 2, 2).map((t, j) => c.number(t, `${field}.overload[${i}][${j}]`));
    return [a, b] as [number, number];
  });
  const offered = o['offered'] === null ? null : c.object(o['offered'], `${field}.offered`, ['offered_utilisation', 'peak_offered_utilisation']);
  return {
    saturatedMs: c.number(o['saturatedMs'], `${field}.saturatedMs`), clearedMs: cleared, pastLoad, overload,
    offered: offered && { offered_utilisation: c.number(offered['offered_utilisation'], `${field}.offered.offered_utilisation`), peak_offered_utilisation: c.number(offered['peak_offered_utilisation'], `${field}.offered.peak_offered_utilisation`) },
  };
}

/**
 * A run's counter sums. Parts of earlier builds hold fewer, and are read with the missing ones at
 * 0 where 0 is what they would hold, or no output reads them: before "Capacity" added its four
 * counters (0 in every run that is not coupled; a coupled run's part must hold them all), before
 * `duplicated` (read only by an agent's readings, and an agent file is never sharded), before
 * `throttled` (0 in every run without client.retry_throttle, which a coupled run's part would set),
 * and before the four of "Inbound delivery" (0 in every run without a trigger; a `triggered` run's
 * part must hold them all).
 */
export function counterSums(c: PartChecker, v: unknown, field: string, coupled: boolean, triggered = false): number[] {
  const before = (k: number) => Array.isArray(v) && v.length === k;
  const older = (before(C.shed) && !coupled) || before(C.duplicated) || before(C.throttled);
  const known = (older || before(C.duplicates_redelivery)) && !triggered ? (v as unknown[]).length : NUM_COUNTERS;
  return [...c.counts(v, field, known), ...new Array<number>(NUM_COUNTERS - known).fill(0)];
}
