/**
 * Incident windows (docs/model.md, "Time") as the engine uses them: the run's time cut at every
 * window's `from` and `to` into segments, each with the parameters in force in it (for each key
 * the last listed window containing the time wins), compiled once per segment.
 */
import { compile, type Params } from './compile.js';
import { simpleChances, type SimpleChances } from './draws.js';
import type { Scenario, WrittenScenario } from './types.js';

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
}

/** The changes in force at time `t` (ms from the run's start). */
export function inForceAt(incidents: readonly Incident[], t: number): InForce {
  const at: InForce = {
    latencyMultiplier: null, errorRate: null, crashProbability: null, requestLoss: null, replyLoss: null, storeDown: null, runtimeCrash: null,
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
  }
  return at;
}

/** Whether anything is changed. */
export function changes(f: InForce): boolean {
  return f.storeDown === true || Object.values(f).some((v) => typeof v === 'number');
}

/** What is in force with the scenario's own values filled in (two windows' effects compare equal when these do). */
function settled(s: WrittenScenario, f: InForce): readonly (number | boolean)[] {
  return [f.latencyMultiplier ?? 1, f.errorRate ?? s.service.error_rate, f.crashProbability ?? s.service.crash_probability, f.requestLoss ?? s.network.request_loss,
    f.replyLoss ?? s.network.reply_loss, f.storeDown ?? false, f.runtimeCrash ?? s.runtime.crash_probability];
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

/** What the fast path runs with in a segment: its parameters and their chances. */
export interface FastPath { params: Params; simple: SimpleChances }

/**
 * A span of a chunk's time, up to `to` (chunk time, ms), with the fast path of the parameters a
 * simple group arriving in it meets throughout (its one attempt at its arrival, its step's end
 * within the timeout), or null where it could meet two sets of them, or a down key store (the
 * fast path assumes a lookup that finds nothing and a key written).
 */
export interface FastSpan { to: number; fast: FastPath | null }

/** The run's segments and the engine's parameters in each. */
export class Regimes {
  /** Segment j (1-based) starts at `starts[j - 1]`; segment 0 is the time before every window. */
  private readonly starts: Float64Array;
  private readonly params: Params[];
  /** Each segment's fast path (null: a down key store, none); segments of the base parameters share one. */
  private readonly fast: (FastPath | null)[];

  constructor(s: Scenario, readonly base: Params) {
    const starts = segmentStarts(s.incidents);
    this.starts = Float64Array.from(starts);
    this.params = [base, ...starts.map((t) => {
      const f = inForceAt(s.incidents, t);
      return changes(f) ? regime(s, f) : base;
    })];
    const baseFast: FastPath = { params: base, simple: simpleChances(base) };
    this.fast = this.params.map((p) => (p === base ? baseFast : p.storeDown ? null : { params: p, simple: simpleChances(p) }));
  }

  /** Which segments a chunk's spans cover, as text: equal for chunks that meet the same windows. */
  signature(spans: readonly FastSpan[]): string {
    return spans.map((s) => (s.fast === null ? '-' : String(this.fast.indexOf(s.fast)))).join(',');
  }

  /**
   * The spans of a chunk starting at run time `offset`, in order, the last open-ended: each
   * segment's own (the fast path with its parameters) up to one timeout before the next
   * segment, then that timeout (none).
   */
  fastSpans(offset: number): FastSpan[] {
    const spans: FastSpan[] = [];
    const timeout = this.base.timeout;
    for (let j = 0; j < this.params.length; j++) {
      const next = j < this.starts.length ? (this.starts[j] as number) - offset : Infinity;
      const fast = this.fast[j] ?? null;
      if (next === Infinity) { spans.push({ to: Infinity, fast }); break; }
      if (next <= 0) continue; // the segment ended before the chunk began
      spans.push({ to: next - timeout, fast }, { to: next, fast: null });
    }
    return spans;
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
  return compile(changed, { latencyScale: f.latencyMultiplier ?? 1, storeDown: f.storeDown === true });
}
