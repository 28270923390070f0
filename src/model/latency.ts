/** Latency distributions of docs/model.md, compiled once into samplers (validated at the boundary). */
import { normal } from './normal.js';
import { exponential, type Rng } from './rng.js';
import type { LatencySpec } from './types.js';

/** Draws one latency in ms. */
export type LatencySampler = (rng: Rng) => number;

export function compileLatency(spec: LatencySpec): LatencySampler {
  switch (spec.dist) {
    case 'lognormal': {
      const mu = Math.log(spec.median);
      const sigma = spec.sigma;
      if (sigma === 0) return () => spec.median; // exactly, not exp(log(median))
      return (rng) => Math.exp(mu + sigma * normal(rng));
    }
    case 'constant': {
      const v = spec.value;
      return () => v;
    }
    case 'uniform': {
      const { min } = spec;
      const width = spec.max - spec.min;
      return (rng) => min + width * rng.next();
    }
    case 'exponential': {
      const { mean } = spec;
      return (rng) => exponential(rng, mean);
    }
    case 'empirical': {
      if (!spec.values || spec.values.length === 0) {
        throw new RangeError(`empirical latency file ${spec.file} was not loaded or is empty`);
      }
      const values = Float64Array.from(spec.values);
      const n = values.length;
      return (rng) => values[(rng.next() * n) | 0] as number;
    }
    case 'mixture': {
      const samplers = spec.components.map((c) => compileLatency(c));
      const total = spec.components.reduce((s, c) => s + c.weight, 0);
      const cumulative = new Float64Array(spec.components.length);
      let acc = 0;
      spec.components.forEach((c, i) => { acc += c.weight / total; cumulative[i] = acc; });
      const last = samplers.length - 1;
      return (rng) => {
        const u = rng.next();
        let i = 0;
        while (i < last && u >= (cumulative[i] as number)) i++;
        return (samplers[i] as LatencySampler)(rng);
      };
    }
  }
}
