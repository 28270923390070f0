/**
 * Incident windows (docs/model.md, "Time") as the engine uses them: the run's time cut at every
 * window's `from` and `to` into segments, each with the parameters in force in it (for each key
 * the last listed window containing the time wins), compiled once per segment.
 */
import { compile, type Params } from './compile.js';
import type { Scenario, WrittenScenario } from './types.js';

type Incident = WrittenScenario['incidents'][number];

/** What the windows containing one instant change (null: the scenario's own value). */
export interface InForce {
  latencyMultiplier: number | null;
  errorRate: number | null;
  crashProbability: number | null;
  requestLoss: number | null;
  replyLoss: number | null;
  storeDown: boolean;
  runtimeCrash: number | null;
}

/** The changes in force at time `t` (ms from the run's start). */
export function inForceAt(incidents: readonly Incident[], t: number): InForce {
  const at: InForce = {
    latencyMultiplier: null, errorRate: null, crashProbability: null, requestLoss: null, replyLoss: null, storeDown: false, runtimeCrash: null,
  };
  for (const w of incidents) {
    if (!(w.from <= t && t < w.to)) continue;
    at.latencyMultiplier = w.service.latency_multiplier ?? at.latencyMultiplier;
    at.errorRate = w.service.error_rate ?? at.errorRate;
    at.crashProbability = w.service.crash_probability ?? at.crashProbability;
    at.requestLoss = w.network.request_loss ?? at.requestLoss;
    at.replyLoss = w.network.reply_loss ?? at.replyLoss;
    at.storeDown ||= w.store.down;
    at.runtimeCrash = w.runtime.crash_probability ?? at.runtimeCrash;
  }
  return at;
}

/** Whether anything is changed. */
export function changes(f: InForce): boolean {
  return f.storeDown || Object.values(f).some((v) => typeof v === 'number');
}

/** The scenario's service keys as they are in force (for the check that error_rate + crash_probability stays at most 1). */
export function serviceInForce(s: WrittenScenario, f: InForce): { error_rate: number; crash_probability: number } {
  return { error_rate: f.errorRate ?? s.service.error_rate, crash_probability: f.crashProbability ?? s.service.crash_probability };
}

/** Every instant where what is in force may change, ascending: the windows' ends. */
export function segmentStarts(incidents: readonly Incident[]): number[] {
  return [...new Set(incidents.flatMap((w) => [w.from, w.to]))].sort((a, b) => a - b);
}

/** The run's segments and the engine's parameters in each. */
export class Regimes {
  /** Segment j (1-based) starts at `starts[j - 1]`; segment 0 is the time before every window. */
  private readonly starts: Float64Array;
  private readonly params: Params[];
  /**
   * Where the fast path must not go (engine.ts): [start - timeout, end) of every changed
   * segment, merged, ascending, as flat pairs. A simple group's one attempt is sent at its
   * arrival and its step ends within the timeout, so outside these it meets only the base.
   */
  readonly unsafe: Float64Array;

  constructor(s: Scenario, readonly base: Params) {
    const starts = segmentStarts(s.incidents);
    this.starts = Float64Array.from(starts);
    this.params = [base, ...starts.map((t) => {
      const f = inForceAt(s.incidents, t);
      return changes(f) ? regime(s, f) : base;
    })];
    const unsafe: number[] = [];
    starts.forEach((t, j) => {
      if (this.params[j + 1] === base) return;
      const from = t - s.client.timeout;
      const to = starts[j + 1] ?? Infinity;
      if (unsafe.length > 0 && from <= unsafe[unsafe.length - 1]!) unsafe[unsafe.length - 1] = to;
      else unsafe.push(from, to);
    });
    this.unsafe = Float64Array.from(unsafe);
  }

  /** The parameters in force at run time `t`. */
  at(t: number): Params {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((starts[mid] as number) <= t) lo = mid + 1; else hi = mid;
    }
    return this.params[lo] as Params;
  }
}

/** The engine's parameters with the changes `f` in force. */
function regime(s: Scenario, f: InForce): Params {
  const changed: Scenario = {
    ...s,
    service: { ...s.service, ...serviceInForce(s, f) },
    network: { request_loss: f.requestLoss ?? s.network.request_loss, reply_loss: f.replyLoss ?? s.network.reply_loss },
    runtime: { ...s.runtime, crash_probability: f.runtimeCrash ?? s.runtime.crash_probability },
  };
  return { ...compile(changed), latencyScale: f.latencyMultiplier ?? 1, storeDown: f.storeDown };
}
