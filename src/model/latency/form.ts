/**
 * What a latency distribution is made of, so that a new one is one file (beside these) and one
 * line of `LATENCY_FORMS` in `model/latency.ts`: the keys a scenario writes (from which the
 * schema, the resolver and the duration-ness of each key path follow), the checks the schema
 * cannot make, and its sampler.
 */
import type { Rng } from '../../random/rng.js';
import type { Param, Params } from '../params.js';
import { nextUp } from './next-up.js';

/** Draws one latency in ms, and splits its distribution at a cut (`cut`). */
export interface LatencySampler {
  sample(rng: Rng): number;
  /** The distribution split at `at` ms (at >= 0, Infinity allowed): made once per engine parameters, then drawn from per attempt. */
  cut(at: number): LatencyCut;
}

/**
 * A latency distribution L split at `at` ms (the engine's timeout): the chance of each side, and a
 * draw from either side given one uniform, so that the engine first decides on which side of the
 * timeout an attempt's latency falls (most often together with the rest of a simple group's fate,
 * from one uniform) and draws the latency only then, from that side (docs/performance.md).
 */
export interface LatencyCut {
  /** P(L <= at) and P(L > at), each computed directly (not as 1 minus the other), so that a tail of 1e-12 keeps its digits. */
  readonly pBelow: number;
  readonly pAbove: number;
  /** A draw of L given L <= at, from `v` uniform on [0, 1] (1 included): a finite value <= at. Called only when pBelow > 0. */
  below(v: number): number;
  /**
   * below(v) from the exact conditional quantile, building no table (engine/simple-law.ts reads the
   * whole of v's range once, where building every cell of a table cost several times as much): the
   * same as below(v) where below draws exactly, else within the table's tolerance.
   */
  belowExact(v: number): number;
  /**
   * Whether below(v) rises with v without a step (engine/simple-law.ts integrates it over v, and
   * finds where it crosses a value, only then): false for a mixture, whose draws fall back at each
   * component's slot, and for an empirical or histogram latency, whose draws step or jump.
   */
  readonly smooth: boolean;
  /** P(L <= x | L <= at) where the form has its CDF at hand (a table's side), else NaN (engine/simple-law.ts then bisects `belowExact`). */
  belowCdf(x: number): number;
  /**
   * below(v) where it is a few operations (a table's cell), else NaN, and then the caller draws
   * with `below`: small and calling nothing, so that the engine's hot loop inlines it (a double
   * passed to or returned from a call the optimiser does not inline is boxed, an allocation per
   * action; `below` grows past what it inlines once its rare branch has been run). NaN at
   * v = 1, always: an engine asks with 1 for a group it does not settle quickly, since a NaN
   * constant of its own beside this call's value made the optimiser box every value (a heap
   * number allocated each simple group).
   */
  belowQuick(v: number): number;
  /**
   * Whether belowQuick draws every v in [v0, v1] (0 <= v0 <= v1 < 1) from its cells, building
   * the cells it needs: then a draw there is the cells' own function of v, rising with it, and the
   * engine can know a range of draws from its ends (engine/quick-keys.ts). False for a form
   * without a table.
   */
  quickBetween(v0: number, v1: number): boolean;
  /** A draw of L given L > at, from `v` uniform on [0, 1] (1 included): a finite value > at. Called only when pAbove > 0. */
  above(v: number): number;
}

/**
 * A problem with a resolved distribution: the key under it (and, for a key that holds a list,
 * the path below it: [2, 'count'] for the third item's count), what is wrong and what to write.
 */
export interface LatencyProblem { key: string; at?: readonly (string | number)[]; problem: string; fix: string }

/** Fields of a spec that are not written as its own keys: `dist`, loaded `values`, and what a fit was made to. */
type NotKeys = 'dist' | 'values' | 'fitted_to';

/** A form's keys: one parameter for each field of its spec but those. */
export type FormKeys<S> = { readonly [K in Exclude<keyof S, NotKeys>]-?: Param };

export interface LatencyForm<S extends { dist: string }> {
  /** The keys a file writes besides `dist` (and a mixture component's `weight`), in the schema's order. */
  readonly keys: FormKeys<S>;
  /** Keys the form needs written. */
  readonly required: readonly (Exclude<keyof S, NotKeys> & string)[];
  /**
   * Keys a file may write instead (a lognormal's percentiles), and how what was written becomes
   * the spec: `from` gets every key written under the distribution (durations in ms) once any of
   * `keys` is among them.
   */
  readonly fit?: {
    readonly keys: Params;
    from(written: Readonly<Record<string, number>>): S | LatencyProblem;
  };
  /** What the schema cannot say about the resolved values (a median of 0, max below min). */
  check?(spec: S): LatencyProblem | undefined;
  sampler(spec: S): LatencySampler;
  /**
   * The mean of what the sampler draws, in ms (docs/model.md, "Saturation": the offered
   * utilisation); NaN where it needs data not loaded (a written empirical or histogram file's).
   */
  mean(spec: S): number;
}

/** A distribution that always gives the same value (also lognormal's sigma 0: exactly the median). */
export class ConstantSampler implements LatencySampler {
  constructor(private readonly value: number) {}
  sample(): number {
    return this.value;
  }
  cut(at: number): LatencyCut {
    const value = this.value, below = value <= at;
    // The side the value is not on is never drawn; it answers with the nearest value it may hold.
    const other = below ? nextUp(at) : at;
    return { pBelow: below ? 1 : 0, pAbove: below ? 0 : 1, below: below ? () => value : () => other, belowExact: below ? () => value : () => other, belowCdf: () => NaN, smooth: true, belowQuick: () => NaN, quickBetween: () => false, above: below ? () => other : () => value };
  }
}
