/**
 * Incident windows (docs/model.md, "Time"): what the windows containing an instant change (for
 * each key the last listed window containing the time wins). The engine's segments and their
 * compiled parameters are in regimes.ts.
 */
import type { WrittenScenario } from './types.js';

type Incident = WrittenScenario['incidents'][number];

/** What the windows containing one instant change (null: the scenario's own value). */
export interface InForce {
  latencyMultiplier: number | null;
  errorRate: number | null;
  crashProbability: number | null;
  requestLoss: number | null;
  replyLoss: number | null;
  storeDown: boolean | null;
  runtimeCrash: number | null;
  /** Handlers that may run at once (docs/model.md, "Capacity"); read at a handler's start, not at the send time. */
  workers: number | null;
}

/** The changes in force at time `t` (ms from the run's start). */
export function inForceAt(incidents: readonly Incident[], t: number): InForce {
  const at: InForce = {
    latencyMultiplier: null, errorRate: null, crashProbability: null, requestLoss: null, replyLoss: null, storeDown: null, runtimeCrash: null, workers: null,
  };
  for (const w of incidents) {
    if (!(w.from <= t && t < w.to)) continue;
    at.latencyMultiplier = w.service.latency_multiplier ?? at.latencyMultiplier;
    at.errorRate = w.service.error_rate ?? at.errorRate;
    at.crashProbability = w.service.crash_probability ?? at.crashProbability;
    at.requestLoss = w.network.request_loss ?? at.requestLoss;
    at.replyLoss = w.network.reply_loss ?? at.replyLoss;
    at.storeDown = w.store.down ?? at.storeDown;
    at.runtimeCrash = w.runtime.crash_probability ?? at.runtimeCrash;
    at.workers = w.service.capacity.workers ?? at.workers;
  }
  return at;
}

/** Whether anything is changed. */
export function changes(f: InForce): boolean {
  return f.storeDown === true || Object.values(f).some((v) => typeof v === 'number');
}

/** What is in force with the scenario's own values filled in (two windows' effects compare equal when these do). */
function settled(s: WrittenScenario, f: InForce): readonly (number | boolean | null)[] {
  return [f.latencyMultiplier ?? 1, f.errorRate ?? s.service.error_rate, f.crashProbability ?? s.service.crash_probability, f.requestLoss ?? s.network.request_loss,
    f.replyLoss ?? s.network.reply_loss, f.storeDown ?? false, f.runtimeCrash ?? s.runtime.crash_probability, f.workers ?? s.service.capacity?.workers ?? null];
}

/**
 * Whether window `i` changes what is in force anywhere in it: false for a window that sets only
 * the values already in force there (the scenario's own, or an earlier window's), or whose every
 * key a later window overrides throughout.
 */
export function windowMatters(s: WrittenScenario, i: number): boolean {
  const w = s.incidents[i];
  if (w === undefined) return false;
  const others = s.incidents.filter((_, j) => j !== i);
  const times = [w.from, ...segmentStarts(s.incidents).filter((t) => w.from < t && t < w.to)];
  return times.some((t) => settled(s, inForceAt(s.incidents, t)).some((v, k) => v !== settled(s, inForceAt(others, t))[k]));
}

/** The scenario's service keys as they are in force (for the check that error_rate + crash_probability stays at most 1). */
export function serviceInForce(s: WrittenScenario, f: InForce): { error_rate: number; crash_probability: number } {
  return { error_rate: f.errorRate ?? s.service.error_rate, crash_probability: f.crashProbability ?? s.service.crash_probability };
}

/** Every instant where what is in force may change, ascending: the windows' ends. */
export function segmentStarts(incidents: readonly Incident[]): number[] {
  return [...new Set(incidents.flatMap((w) => [w.from, w.to]))].sort((a, b) => a - b);
}
