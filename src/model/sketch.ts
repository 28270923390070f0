/**
 * Latency quantiles from a mergeable sketch (DDSketch, relative accuracy 0.5%), so that
 * memory does not grow with the number of samples and chunks merge exactly.
 */
import { DDSketch } from '@datadog/sketches-js';

/** Relative accuracy of reported quantiles; MODEL.md allows 1%. */
export const SKETCH_RELATIVE_ACCURACY = 0.005;

export function newSketch(): DDSketch {
  return new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY });
}

/** The q-quantile, or null for an empty sketch. */
export function quantile(sketch: DDSketch, q: number): number | null {
  return sketch.count === 0 ? null : sketch.getValueAtQuantile(q);
}

export type { DDSketch };
