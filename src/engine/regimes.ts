/**
 * The run's time cut at every incident window's `from` and `to` into segments (model/incidents.ts
 * says what is in force in each), with the engine's parameters in each, compiled once per segment.
 */
import { compile, type Params } from './compile.js';
import { changes, inForceAt, segmentStarts, serviceInForce, type InForce } from '../model/incidents.js';
import type { Scenario } from '../model/types.js';

/**
 * A span of a chunk's time, up to `to` (chunk time, ms), with the parameters a group arriving in
 * it meets through its first decisions (its first attempt at its arrival, its step's end within
 * the timeout), which one uniform then settles (draws.ts), or null where it could meet two sets
 * of them, or a down key store (a simple group's lookup finds nothing and its key is written).
 */
export interface FastSpan { to: number; fast: Params | null }

/** The run's segments and the engine's parameters in each. */
export class Regimes {
  /** Segment j (1-based) starts at `starts[j - 1]`; segment 0 is the time before every window. */
  private readonly starts: Float64Array;
  private readonly params: Params[];
  /** Each segment's parameters for a span's first decisions (null: a down key store, none). */
  private readonly fast: (Params | null)[];

  constructor(s: Scenario, readonly base: Params) {
    const starts = segmentStarts(s.incidents);
    this.starts = Float64Array.from(starts);
    this.params = [base, ...starts.map((t) => {
      const f = inForceAt(s.incidents, t);
      return changes(f) ? regime(s, f) : base;
    })];
    this.fast = this.params.map((p) => (p.storeDown ? null : p));
  }

  /**
   * The spans of a chunk starting at run time `offset`, in order, the last open-ended: each
   * segment's own (its parameters) up to one timeout before the next segment, then that timeout
   * (none).
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
