/** `{dist: uniform, min, max}`: every latency in [min, max] equally likely. */
import type { Rng } from '../../random/rng.js';
import { duration } from '../params.js';
import { ConstantSampler, type LatencyCut, type LatencyForm, type LatencySampler } from './form.js';
import { nextUp } from './next-up.js';

export interface UniformSpec { dist: 'uniform'; min: number; max: number }

class UniformSampler implements LatencySampler {
  private readonly width: number;
  constructor(private readonly min: number, private readonly max: number) {
    this.width = max - min;
  }
  sample(rng: Rng): number {
    return this.min + this.width * rng.next();
  }
  cut(at: number): LatencyCut {
    // min = max draws min every time.
    return this.width > 0 ? new UniformCut(this.min, this.max, at) : new ConstantSampler(this.min).cut(at);
  }
}

/**
 * A uniform on [min, max] (min < max) split at `at`: each side is uniform on its part, drawn by
 * the same linear map and held to its part.
 */
class UniformCut implements LatencyCut {
  readonly pBelow: number;
  readonly pAbove: number;
  /** The ends of the parts: [min, lowEnd] below the cut, [highStart, max] above it. */
  private readonly lowEnd: number;
  private readonly highStart: number;
  constructor(private readonly min: number, private readonly max: number, at: number) {
    const width = max - min;
    this.pBelow = Math.min(1, Math.max(0, (at - min) / width));
    this.pAbove = Math.min(1, Math.max(0, (max - at) / width));
    // A side of chance 0 (never drawn) keeps to its side of the cut all the same.
    this.lowEnd = Math.min(at, max);
    this.highStart = Math.max(nextUp(at), min);
  }
  belowQuick(): number {
    return NaN; // no table: every draw through below
  }
  quickBetween(): boolean {
    return false;
  }

  readonly smooth = true;
  belowCdf(): number {
    return NaN; // belowExact is bisected
  }
  belowExact(v: number): number {
    return this.below(v); // exact already
  }
  below(v: number): number {
    return Math.min(this.lowEnd, this.min + v * (this.lowEnd - this.min));
  }
  above(v: number): number {
    return Math.max(this.highStart, Math.min(this.max, this.highStart + v * (this.max - this.highStart)));
  }
}

export const uniform: LatencyForm<UniformSpec> = {
  keys: { min: duration(undefined, 'shortest latency'), max: duration(undefined, 'longest latency') },
  required: ['min', 'max'],
  check: (s) => (s.min <= s.max ? undefined : { key: 'max', problem: `max (${s.max}ms) is below min (${s.min}ms)`, fix: 'Make max at least min.' }),
  sampler: (s) => new UniformSampler(s.min, s.max),
  mean: (s) => (s.min + s.max) / 2,
};
