/**
 * The run's one clock (docs/model.md, "Time"): `load.profile` makes the arrival rate piecewise
 * constant, and `load.duration` bounds the arrivals in time instead of counting them.
 *
 * Arrivals of a Poisson process of intensity λ(t) are those of a unit-rate process in the
 * operational time Λ(t) = ∫λ. Chunks are planned in operational time, measured here in ms at
 * `load.rate_per_s` (so without a profile it is the run's time itself, to the bit), and each
 * arrival is mapped back to the run's time by `real`.
 */
import { poisson } from '../random/poisson.js';
import { streamRng } from '../random/rng.js';
import { isCoupled } from './capacity.js';
import { DEFAULT_SCENARIO, withoutCapacity, withoutLaterGuards, withoutTrigger } from './shape.js';
import type { WrittenScenario } from './types.js';

export class Clock {
  /** Without a profile: operational time is the run's time. */
  readonly identity: boolean;
  /** Segment j starts at run time `at[j]` and operational time `op[j]`, and its rate is `factor[j]` × rate_per_s. */
  private readonly at: number[];
  private readonly op: number[];
  private readonly factor: number[];

  constructor(ratePerS: number, profile: readonly { at: number; rate_per_s: number }[]) {
    this.identity = profile.length === 0;
    this.at = [0];
    this.op = [0];
    this.factor = [1];
    for (const { at, rate_per_s } of profile) {
      const j = this.at.length - 1;
      const start = this.op[j]! + (at - this.at[j]!) * this.factor[j]!;
      if (at === this.at[j]) { this.factor[j] = rate_per_s / ratePerS; continue; } // a change at 0 replaces the first rate
      this.at.push(at);
      this.op.push(start);
      this.factor.push(rate_per_s / ratePerS);
    }
  }

  /** Operational time at run time `t` (ms). */
  operational(t: number): number {
    if (this.identity) return t;
    const j = lastAtOrBelow(this.at, t);
    return this.op[j]! + (t - this.at[j]!) * this.factor[j]!;
  }

  /** Run time at operational time `u` (ms). */
  real(u: number): number {
    if (this.identity) return u;
    let j = lastAtOrBelow(this.op, u);
    // The earliest run time at u (a lull spans no operational time, so its start and its end
    // share u): the expected last arrival at a lull's start is the start; nothing arrives in it.
    while (j > 0 && this.op[j - 1] === u) j--;
    return this.factor[j] === 0 ? this.at[j]! : this.at[j]! + (u - this.op[j]!) / this.factor[j]!;
  }
}

/** The last index j with xs[j] <= x (xs ascending, xs[0] <= x). */
function lastAtOrBelow(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (xs[mid]! <= x) lo = mid; else hi = mid - 1;
  }
  return lo;
}

export function clockOf(s: WrittenScenario): Clock {
  return new Clock(s.load.rate_per_s, s.load.profile);
}

/** Primaries expected in a run of `load.duration` (null without one). */
export function expectedPrimaries(s: WrittenScenario): number | null {
  const d = s.load.duration;
  return d === null ? null : (clockOf(s).operational(d) * s.load.rate_per_s) / 1000;
}

/**
 * The primary actions of a run: `actions`, or with `load.duration` the Poisson number of
 * arrivals in it, drawn from the seed's stream of its own (so every thread and shard agrees).
 */
export function primaryCount(s: WrittenScenario, seed: string): number {
  const mean = expectedPrimaries(s);
  return mean === null ? s.actions : poisson(streamRng(seed, 'count'), mean);
}

/** The scenario with `actions` set to the run's primaries (`primaryCount`): what every layer below the command simulates. */
export function withPrimaries<S extends WrittenScenario>(s: S, seed: string): S {
  return s.load.duration === null ? s : { ...s, actions: primaryCount(s, seed) };
}

/** The run's time its primaries span: `load.duration`, or the expected time of the last of `actions` arrivals. */
export function arrivalSpan(s: WrittenScenario): number {
  return s.load.duration ?? clockOf(s).real((s.actions * 1000) / s.load.rate_per_s);
}

/**
 * The run's mean arrival rate of primaries per second (docs/model.md: with a profile,
 * duplicates_per_day and steady-state keys use it): `load.rate_per_s` without a profile.
 */
export function meanRatePerS(s: WrittenScenario): number {
  if (s.load.profile.length === 0) return s.load.rate_per_s;
  const span = arrivalSpan(s);
  return span > 0 ? (clockOf(s).operational(span) * s.load.rate_per_s) / span : s.load.rate_per_s;
}

/** Whether the scenario uses any key of docs/model.md's "Time" (else its outputs are those of version 1's keys). */
export function usesTime(s: WrittenScenario): boolean {
  return s.load.profile.length > 0 || s.load.duration !== null || s.incidents.length > 0 || s.alerts.length > 0
    || s.idempotency.on_store_down !== DEFAULT_SCENARIO.idempotency.on_store_down;
}

/** How a run's chunks sit in time: its clock, and with `load.duration` the operational time its arrivals fill (else null). */
export interface ArrivalTime {
  clock: Clock;
  window: number | null;
}

export function arrivalTime(s: WrittenScenario): ArrivalTime {
  const clock = clockOf(s);
  return { clock, window: s.load.duration === null ? null : clock.operational(s.load.duration) };
}

/**
 * The scenario as outputs echo it: a scenario that uses no key of "Time" is echoed as before
 * version 2 added them (its outputs stay byte-identical), likewise without the keys of
 * "Capacity" (version 3) or the guards added after it that it does not set, or without
 * `trigger` when it has none (version 4), and one with `load.duration` has no `actions` (the
 * run's primaries are its `primary_actions`).
 */
export function echoed<S extends WrittenScenario>(s: S): Partial<S> {
  const out = withoutTrigger(echoedTime(s));
  return isCoupled(s) ? withoutLaterGuards(out) : withoutCapacity(out);
}

function echoedTime<S extends WrittenScenario>(s: S): Partial<S> {
  if (!usesTime(s)) {
    const { incidents: _i, alerts: _a, ...rest } = s;
    const { profile: _p, duration: _d, ...load } = s.load;
    const { on_store_down: _o, ...idempotency } = s.idempotency;
    return { ...rest, load, idempotency } as unknown as Partial<S>;
  }
  if (s.load.duration === null) return s;
  const { actions: _n, ...rest } = s;
  return rest as Partial<S>;
}
