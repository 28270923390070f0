/**
 * The coupled engine against queueing theory's closed forms (docs/model.md, "Capacity"; the
 * contract's reference points): exponential service, Poisson arrivals, no loss, no retries, no
 * key, a timeout far above every wait. Each measure is taken per block of CHUNK_ACTIONS finished
 * actions and its standard error comes from the spread of the block means (batch means: waits
 * in a queue are correlated, so the per-request binomial error would be too small); each figure
 * must fall within 4 standard errors of the formula.
 */
import { DDSketch } from '@datadog/sketches-js';
import { describe, expect, test } from 'vitest';
import { SKETCH_RELATIVE_ACCURACY } from '../src/engine/bins.js';
import type { ChunkOutput } from '../src/engine/chunk-output.js';
import { C } from '../src/model/counters.js';
import { coupledBlocks } from './coupled-helpers.js';

const MAPPING = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY }).mapping;

/** The mean of per-block values and its batch-means standard error. */
function batch(values: number[]): { mean: number; se: number } {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  return { mean, se: Math.sqrt(variance / n) };
}

/** Requests that waited, and their mean wait (ms, from the bins: within their 0.5%). */
const waitedShare = (o: ChunkOutput) => 1 - o.capacity!.queueWait.zero / o.capacity!.started;
function meanWait(o: ChunkOutput): number {
  const q = o.capacity!.queueWait;
  let total = 0;
  q.counts.forEach((c, j) => { total += c * MAPPING.value(q.offset + j); });
  return total / o.capacity!.started;
}

const MM = (workers: number, rate: number, extra = '') => `actions: 500000
load: {rate_per_s: ${rate}}
service: {latency: {dist: exponential, mean: 100ms}, capacity: {workers: ${workers}${extra}}}
network: {reply_loss: 0}
client: {timeout: 1h, retries: 0}
agent: {replan_probability: 0}
`;

describe('closed forms', () => {
  test('Erlang C: 3 workers at λ/μ = 2 wait with probability 4/9 and for C/(cμ − λ) = 44.4 ms on average', () => {
    const blocks = coupledBlocks(MM(3, 20));
    const share = batch(blocks.map(waitedShare));
    expect(Math.abs(share.mean - 4 / 9)).toBeLessThan(4 * share.se);
    const wait = batch(blocks.map(meanWait));
    // The bins place each wait within 0.5% of itself: the mean moves by at most that much too.
    expect(Math.abs(wait.mean - (4 / 9) / 0.01)).toBeLessThan(4 * wait.se + 0.005 * wait.mean);
  });

  test('Erlang B: 5 workers and no waiting room at λ/μ = 3 shed 0.110 of requests', () => {
    const blocks = coupledBlocks(MM(5, 30, ', queue: 0'));
    const shed = batch(blocks.map((o) => (o.sum[C.shed] as number) / o.actions));
    const erlangB = (3 ** 5 / 120) / [1, 3, 4.5, 4.5, 3.375, 2.025].reduce((a, b) => a + b, 0);
    expect(Math.abs(shed.mean - erlangB)).toBeLessThan(4 * shed.se);
    expect(erlangB).toBeCloseTo(0.110, 3);
  });

  test('M/M/1 at ρ = 0.5: the mean wait is ρ/(μ − λ) = 100 ms', () => {
    const blocks = coupledBlocks(MM(1, 5));
    const wait = batch(blocks.map(meanWait));
    expect(Math.abs(wait.mean - 100)).toBeLessThan(4 * wait.se + 0.005 * wait.mean);
  });
});
