/**
 * The offered utilisation (docs/model.md, "Saturation"): computed from the scenario, not the run.
 * The mean arrival rate of actions (twins included) times the mean of the distribution
 * `service.latency` draws from, over the base `service.capacity.workers`; the peak takes the
 * profile's highest rate instead. Incidents are left out, and so are retries, re-plans and
 * replays: they come on top, so a figure near 1 already means a storm waiting for a trigger.
 */
import { arrivalSpan, meanRatePerS } from './clock.js';
import { formOf, type LatencySpec, type WrittenLatency } from './latency.js';
import type { WrittenScenario } from './types.js';

/** The share of the workers a scenario's first attempts keep busy, on average and at its highest rate. */
export interface OfferedUtilisation {
  offered_utilisation: number;
  peak_offered_utilisation: number;
}

/** Where implementations warn (docs/model.md), and the figure a warning's worker count aims at. */
export const NEAR_CAPACITY = 0.85;
export const COMFORTABLE = 0.7;

/** The mean of a distribution in ms, or null where it needs data not loaded (an empirical or histogram file's). */
export function latencyMean(spec: WrittenLatency | LatencySpec): number | null {
  const mean = formOf(spec as LatencySpec).mean(spec as LatencySpec);
  return Number.isFinite(mean) ? mean : null;
}

/** The highest rate of primaries per second the load reaches while it lasts (rate_per_s without a profile). */
export function peakRatePerS(s: WrittenScenario): number {
  const profile = s.load.profile;
  const span = arrivalSpan(s);
  const rates = [...(profile.length === 0 || (profile[0]?.at ?? 0) > 0 ? [s.load.rate_per_s] : []), ...profile.filter((e) => e.at < span || e.at === 0).map((e) => e.rate_per_s)];
  return Math.max(...rates);
}

/**
 * Both figures of `s`, or null without `service.capacity` or where the latency's mean needs data
 * not loaded (a written scenario naming an empirical or histogram file).
 */
export function offeredUtilisation(s: WrittenScenario): OfferedUtilisation | null {
  const workers = s.service.capacity?.workers;
  const mean = latencyMean(s.service.latency);
  if (workers === undefined || mean === null) return null;
  const perWorker = ((1 + s.workload.twin_probability) * mean) / 1000 / workers;
  return { offered_utilisation: meanRatePerS(s) * perWorker, peak_offered_utilisation: peakRatePerS(s) * perWorker };
}

/** The fewest workers at which the peak offered utilisation is at most `target` (COMFORTABLE). */
export function workersFor(s: WrittenScenario, peak: number, target = COMFORTABLE): number {
  const workers = s.service.capacity?.workers ?? 1;
  return Math.max(1, Math.ceil((peak * workers) / target - 1e-9));
}
