/**
 * Latency distributions of docs/model.md, compiled once into a sampler (validated at the
 * boundary). One class with a switch rather than a closure per distribution: the
 * optimiser inlines a method it has feedback for, and not a closure made per simulator.
 */
import { assertNever } from './enums.js';
import { exponential } from '../random/exponential.js';
import { normal } from '../random/normal.js';
import type { Rng } from '../random/rng.js';
import type { LatencySpec } from './types.js';

/** How a sampler draws, set by the constructor's case for its `dist` (`sampleOther` has a case for each). */
const LOGNORMAL = 0, CONSTANT = 1, UNIFORM = 2, EXPONENTIAL = 3, EMPIRICAL = 4, MIXTURE = 5;
type Kind = typeof LOGNORMAL | typeof CONSTANT | typeof UNIFORM | typeof EXPONENTIAL | typeof EMPIRICAL | typeof MIXTURE;

export class LatencySampler {
  private kind: Kind = CONSTANT;
  /** lognormal: mu, sigma; constant: value; uniform: min, width; exponential: mean. */
  private a = 0;
  private b = 0;
  private values = new Float64Array(0);
  private cumulative = new Float64Array(0);
  private components: LatencySampler[] = [];

  constructor(spec: LatencySpec) {
    switch (spec.dist) {
      case 'lognormal':
        if (spec.sigma === 0) { this.a = spec.median; break; } // exactly, not exp(log(median))
        this.kind = LOGNORMAL; this.a = Math.log(spec.median); this.b = spec.sigma; break;
      case 'constant': this.a = spec.value; break;
      case 'uniform': this.kind = UNIFORM; this.a = spec.min; this.b = spec.max - spec.min; break;
      case 'exponential': this.kind = EXPONENTIAL; this.a = spec.mean; break;
      case 'empirical':
        if (!spec.values || spec.values.length === 0) throw new RangeError(`empirical latency file ${spec.file} was not loaded or is empty`);
        this.kind = EMPIRICAL; this.values = Float64Array.from(spec.values); break;
      case 'mixture': {
        this.kind = MIXTURE;
        this.components = spec.components.map((c) => new LatencySampler(c));
        const total = spec.components.reduce((s, c) => s + c.weight, 0);
        let acc = 0;
        this.cumulative = Float64Array.from(spec.components, (c) => (acc += c.weight / total));
        break;
      }
      default: assertNever(spec);
    }
  }

  /** One latency in ms. */
  sample(rng: Rng): number {
    // The common case first, in a method small enough for the optimiser to inline into the hot loop.
    return this.kind === LOGNORMAL ? Math.exp(this.a + this.b * normal(rng)) : this.sampleOther(rng);
  }

  private sampleOther(rng: Rng): number {
    switch (this.kind) {
      case LOGNORMAL: return Math.exp(this.a + this.b * normal(rng)); // (sample answers it first)
      case CONSTANT: return this.a;
      case UNIFORM: return this.a + this.b * rng.next();
      case EXPONENTIAL: return exponential(rng, this.a);
      case EMPIRICAL: return this.values[(rng.next() * this.values.length) | 0] as number;
      case MIXTURE: {
        const u = rng.next();
        const last = this.components.length - 1;
        let i = 0;
        while (i < last && u >= (this.cumulative[i] as number)) i++;
        return (this.components[i] as LatencySampler).sample(rng);
      }
      default: return assertNever(this.kind);
    }
  }
}

/** The sampler of a latency spec. */
export function compileLatency(spec: LatencySpec): LatencySampler {
  return new LatencySampler(spec);
}
