/** `{dist: mixture, components: [{weight, ...a distribution}, ...]}`: say 95% fast, 5% stuck. */
import type { Rng } from '../../random/rng.js';
import type { LatencySpec } from '../latency.js';
import type { Components } from '../params.js';
import type { LatencyCut, LatencyForm, LatencySampler } from './form.js';

/** One component of a mixture; weights are relative (normalised by their sum). */
export type MixtureComponent = LatencySpec & { weight: number };

export interface MixtureSpec { dist: 'mixture'; components: readonly MixtureComponent[] }

class MixtureSampler implements LatencySampler {
  private readonly cumulative: Float64Array;
  constructor(private readonly components: readonly LatencySampler[], private readonly weights: readonly number[]) {
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
  cut(at: number): LatencyCut {
    return new MixtureCut(this.components.map((c) => c.cut(at)), this.weights);
  }
}

/** One side of a mixture's cut: the components with a chance on it, and their chances wᵢ·pᵢ added up. */
interface MixtureSide { readonly cuts: readonly LatencyCut[]; readonly cumulative: Float64Array; readonly total: number }

function sideOf(cuts: readonly LatencyCut[], weights: readonly number[], chance: (cut: LatencyCut) => number): MixtureSide {
  // A component without a chance on the side is left out, so that no draw, not even at v = 1, picks it.
  const on = cuts.map((cut, i) => ({ cut, mass: (weights[i] as number) * chance(cut) })).filter((c) => c.mass > 0);
  let acc = 0;
  const cumulative = Float64Array.from(on, (c) => (acc += c.mass));
  return { cuts: on.map((c) => c.cut), cumulative, total: acc };
}

/** The component whose slot of the side holds t (in [0, total]). */
function slotOf(side: MixtureSide, t: number): number {
  const last = side.cuts.length - 1;
  let i = 0;
  while (i < last && t >= (side.cumulative[i] as number)) i++;
  return i;
}

/** t's place within slot i, in [0, 1]. */
function within(side: MixtureSide, i: number, t: number): number {
  const start = i === 0 ? 0 : side.cumulative[i - 1] as number;
  return Math.min(1, Math.max(0, (t - start) / ((side.cumulative[i] as number) - start)));
}

/**
 * A mixture split at `at`: the chance of a side is the components' chances of it by their weights,
 * and a draw from it picks a component with chance wᵢ·pᵢ / Σ wⱼ·pⱼ and draws from that
 * component's side with v rescaled within the component's slot.
 */
class MixtureCut implements LatencyCut {
  readonly pBelow: number;
  readonly pAbove: number;
  private readonly low: MixtureSide;
  private readonly high: MixtureSide;
  constructor(cuts: readonly LatencyCut[], weights: readonly number[]) {
    const weight = weights.reduce((s, w) => s + w, 0);
    this.low = sideOf(cuts, weights, (c) => c.pBelow);
    this.high = sideOf(cuts, weights, (c) => c.pAbove);
    this.pBelow = this.low.total / weight;
    this.pAbove = this.high.total / weight;
  }
  /** A side of chance 0 is never drawn; it answers with the first component's. */
  belowQuick(): number {
    return NaN; // no table: every draw through below
  }
  quickBetween(): boolean {
    return false;
  }

  below(v: number): number {
    const side = this.low, t = v * side.total;
    if (side.cuts.length === 0) return this.high.cuts[0]?.below(v) ?? 0;
    const i = slotOf(side, t);
    return (side.cuts[i] as LatencyCut).below(within(side, i, t));
  }
  readonly smooth = false;
  belowCdf(): number {
    return NaN; // belowExact is bisected
  }
  belowExact(v: number): number {
    const side = this.low, t = v * side.total;
    if (side.cuts.length === 0) return this.high.cuts[0]?.belowExact(v) ?? 0;
    const i = slotOf(side, t);
    return (side.cuts[i] as LatencyCut).belowExact(within(side, i, t));
  }
  above(v: number): number {
    const side = this.high, t = v * side.total;
    if (side.cuts.length === 0) return this.low.cuts[0]?.above(v) ?? Infinity;
    const i = slotOf(side, t);
    return (side.cuts[i] as LatencyCut).above(within(side, i, t));
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
