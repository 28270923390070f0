/**
 * One group of the general model: a primary action and its possible twin, simulated against
 * the group's own key store. Attempts are handled in the order they are sent: every server
 * write is scheduled at or after the send time of the attempt that causes it, so when an
 * attempt is handled all writes it could see are known. At the end each action's counts go
 * into the chunk's sums. A layer of the engine's one class (engine-state.ts says why).
 */
import { AttemptModel } from './attempt.js';
import { binKey } from './bins.js';
import { C } from '../model/counters.js';
import { SER } from '../model/series.js';
import { uniform } from '../random/uniform.js';

/** Counter of the duplicates made by each kind of call. */
const DUPLICATES_BY_KIND = [C.duplicates_transport, C.duplicates_replan, C.duplicates_replay];

export class GroupModel extends AttemptModel {
  /** Simulates the chunk's group `a` (its arrival is `arrivals[a]`) from its start. */
  protected simulateGroup(a: number): void {
    const p = this.p;
    const arrival = this.arrivals[a] as number;
    this.beginGroup(arrival, 0);
    const twin = this.twinDrawn();
    this.startAction(0, arrival);
    if (twin) this.startAction(1, arrival + uniform(this.rng, p.twinMin, p.twinMax));
    else this.sendAt[1] = Infinity;
    for (;;) {
      const i = (this.sendAt[0] as number) <= (this.sendAt[1] as number) ? 0 : 1;
      if (this.sendAt[i] === Infinity) break;
      this.sendAttempt(i);
    }
    this.finishAction(0);
    if (twin) this.finishAction(1);
    this.rows.flushTo(this.totals.grid);
  }

  /** Actor `i`'s action is over: its counts and latency go into the chunk's totals. */
  protected finishAction(i: number): void {
    const t = this.totals;
    const n = this.execCount[i] as number;
    this.countTallies(i);
    t.count(C.keys, this.rows.owned(i & 1)); // rows, not writes (docs/model.md v2)
    t.count(C.executions, n);
    const sr = this.series;
    // Every execution was counted as a duplicate at its commit (attempt.ts); the first is none.
    if (sr !== null) {
      if (n > 0) sr.add(SER.duplicates, this.execFirst[i] as number, -1);
      else sr.add(SER.lost, this.arrival[i] as number);
    }
    this.countExecutions(n, this.gotStoredSuccess[i] as number, i, 0);
    // Most actions make one call, whose latency is the action's: reuse its bin key.
    const latency = (this.lastReturn[i] as number) - (this.arrival[i] as number);
    t.actionLatency.countKey(latency === this.lastCallLatency[i] ? (this.lastCallKey[i] as number) : binKey(latency));
    t.actions++;
  }

  /** A group (or, in the coupled engine, the entered group's slot `slot`) starts at `arrival`: its key store empty, its numbering from 0. */
  protected beginGroup(arrival: number, slot: number): void {
    this.log.clear();
    this.nextCall = 0;
    this.nextText = 0;
    this.hooks.onGroup(arrival, slot);
    if (this.series !== null) this.series.add(SER.arrivals, arrival);
  }

  /**
   * An action's `n` executions into the chunk's sums: lost (merged when `stored`: a twin got its
   * sibling's stored result), or its duplicates by the kind of call that made them, the first
   * execution being actor `first`'s first, and `redelivered` of them by runs a redelivery started.
   */
  protected countExecutions(n: number, stored: number, first: number, redelivered: number): void {
    const t = this.totals;
    if (n === 0) {
      t.count(C.lost, 1);
      if (stored) t.count(C.merged, 1);
    } else if (n > 1) {
      const kind = this.execFirstKind[first] as number;
      for (let k = 0; k < 3; k++) t.count(DUPLICATES_BY_KIND[k] as number, (this.execByKind[first * 3 + k] as number) - (k === kind ? 1 : 0));
      t.count(C.duplicates_redelivery, redelivered);
      t.count(C.duplicates, n - 1);
      t.count(C.duplicated, 1);
    }
  }

  /** Actor `i`'s per-action tallies of the counters that do not derive from executions, into the chunk's sums. */
  protected countTallies(i: number): void {
    const t = this.totals;
    t.count(C.attempts, this.attemptsSent[i] as number);
    t.count(C.mismatches_422, this.mismatches422[i] as number);
    t.count(C.conflicts_409, this.conflicts409[i] as number);
    t.count(C.dedup_hits, this.dedupHits[i] as number);
    t.count(C.unknown_outcomes, this.unknownOutcomes[i] as number);
    t.count(C.store_unavailable, this.storeUnavailable[i] as number);
  }
}
