/**
 * The run's time cut at every incident window's `from` and `to` into segments (model/incidents.ts
 * says what is in force in each), with the engine's parameters in each, compiled once per segment.
 */
import { compile, type Params } from './compile.js';
import { simpleChances, type SimpleChances } from './draws.js';
import { changes, inForceAt, segmentStarts, serviceInForce, type InForce } from '../model/incidents.js';
import type { Scenario } from '../model/types.js';

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
