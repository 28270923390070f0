/**
 * What a latency distribution is made of, so that a new one is one file (beside these) and one
 * line of `LATENCY_FORMS` in `model/latency.ts`: the keys a scenario writes (from which the
 * schema, the resolver and the duration-ness of each key path follow), the checks the schema
 * cannot make, and its sampler.
 */
import type { Rng } from '../../random/rng.js';
import type { Param, Params } from '../params.js';

/** Draws one latency in ms. */
export interface LatencySampler {
  sample(rng: Rng): number;
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
}
