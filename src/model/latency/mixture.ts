/** `{dist: mixture, components: [{weight, ...a distribution}, ...]}`: say 95% fast, 5% stuck. */
import type { Rng } from '../../random/rng.js';
import type { LatencySpec } from '../latency.js';
import type { Components } from '../params.js';
import type { LatencyForm, LatencySampler } from './form.js';

/** One component of a mixture; weights are relative (normalised by their sum). */
export type MixtureComponent = LatencySpec & { weight: number };

export interface MixtureSpec { dist: 'mixture'; components: readonly MixtureComponent[] }

class MixtureSampler implements LatencySampler {
  private readonly cumulative: Float64Array;
  constructor(private readonly components: readonly LatencySampler[], weights: readonly number[]) {
    const total = weights.reduce((s, w) => s + w, 0);
    let acc = 0;
    this.cumulative = Float64Array.from(weights, (w) => (acc += w / total));
  }
  sample(rng: Rng): number {
    const u = rng.next();
    const last = this.components.length - 1;
    let i = 0;
    while (i < last && u >= (this.cumulative[i] as number)) i++;
    return (this.components[i] as LatencySampler).sample(rng);
  }
}

/** Samples (and averages) each component: given by `model/latency.ts`, which knows every form (this file must not import it at run time). */
export function mixtureForm(compile: (spec: LatencySpec) => LatencySampler, mean: (spec: LatencySpec) => number): LatencyForm<MixtureSpec> {
  const components: Components = { kind: 'components', description: 'a list of distributions each with a weight' };
  return {
    keys: { components },
    required: ['components'],
    // The schema caps each weight at MAX_WEIGHT, so the sum is finite and every share well defined.
    check: (s) => (s.components.reduce((sum, c) => sum + c.weight, 0) > 0 ? undefined
      : { key: 'components', problem: 'all mixture weights are 0', fix: 'Give at least one component a weight above 0.' }),
    sampler: (s) => new MixtureSampler(s.components.map(compile), s.components.map((c) => c.weight)),
    // The components' means by their weights, normalised as the sampler does.
    mean: (s) => s.components.reduce((sum, c) => sum + c.weight * mean(c), 0) / s.components.reduce((sum, c) => sum + c.weight, 0),
  };
}
