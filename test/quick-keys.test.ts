/**
 * A simple group's bin read from its uniform's range (engine/quick-keys.ts) is the bin the engine
 * computes from its latency, binKey((s + L) − s), for every uniform of the range and any arrival
 * s the keys are used with: checked at each filled range's first and last uniform, and at random
 * ones, against arrivals up to SPAN_MS, for the lab's lognormal, an exponential, and a window's
 * multiplier that pushes some latencies onto the timeout.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binKey } from '../src/engine/bins.js';
import { compile, type Params } from '../src/engine/compile.js';
import { D_NONE, withinTimeout } from '../src/engine/draws.js';
import { MIXED, QUICK_ENTRIES, QuickKeys, SPAN_MS } from '../src/engine/quick-keys.js';
import { parseRunnable } from './helpers.js';

/** A simple group's bin as the engine's loop computes it from uniform u and arrival s (engine.ts, simulateSpan). */
function binOf(p: Params, u: number, s: number): number {
  const simpleP = p.reach[D_NONE] as number;
  const drawn = p.cut.below(u / simpleP);
  const done = s + withinTimeout(drawn, p);
  return binKey(done - s);
}

const CASES: [string, (p: Params) => Params][] = [
  ['the lab', (p) => p],
  ['an exponential of mean 200 ms', (p) => p],
  ['a window that doubles the latency, so that some reach the timeout', (p) => ({ ...p, latencyScale: 2 })],
];
const YAML = ['', 'service: {latency: {dist: exponential, mean: 200ms}}', ''];

describe('quick keys', () => {
  CASES.forEach(([name, adjust], c) => {
    it(`${name}: every uniform of a range with a key lands in that bin, at any arrival`, () => {
      const p = adjust(compile(parseRunnable(YAML[c] as string, 'quick.yaml')));
      const quick = new QuickKeys(p);
      const filled: number[] = [];
      for (let e = 0; e < QUICK_ENTRIES; e++) if (quick.keyOf(e) > MIXED) filled.push(e);
      // Most ranges of the simple groups' uniforms have a key (else the fast path gains nothing).
      const simpleRanges = Math.floor((p.reach[D_NONE] as number) * QUICK_ENTRIES);
      expect(filled.length).toBeGreaterThan(0.8 * simpleRanges);
      const arrivals = [0, 0.1, 123_456.789, 2 ** 24 + 0.3, SPAN_MS - p.timeout - 1];
      for (const e of filled) {
        const key = quick.keyOf(e);
        for (const u of [e / QUICK_ENTRIES, (e + 1) / QUICK_ENTRIES - 2 ** -32]) {
          for (const s of arrivals) expect(binOf(p, u, s)).toBe(key);
        }
      }
      fc.assert(fc.property(fc.integer({ min: 0, max: filled.length - 1 }), fc.integer({ min: 0, max: 2 ** 18 - 1 }), fc.double({ min: 0, max: SPAN_MS - p.timeout - 1, noNaN: true }), (i, k, s) => {
        const e = filled[i] as number;
        expect(binOf(p, (e * 2 ** 18 + k) * 2 ** -32, s)).toBe(quick.keyOf(e));
      }), { numRuns: 20_000 });
    });
  });

  it('a range holding a bin edge, or holding groups that are not simple, has none', () => {
    const p = compile(parseRunnable('', 'quick.yaml'));
    const quick = new QuickKeys(p);
    const keys = Array.from({ length: QUICK_ENTRIES }, (_, e) => quick.keyOf(e));
    const simpleRanges = Math.floor((p.reach[D_NONE] as number) * QUICK_ENTRIES);
    expect(keys.slice(simpleRanges).every((k) => k === MIXED)).toBe(true);
    // Bins are 1% wide (bins.ts) and a range of the lab's is some 0.01 ms: a few ranges hold an edge.
    const edges = keys.slice(0, simpleRanges).filter((k) => k === MIXED).length;
    expect(edges).toBeGreaterThan(0);
    expect(edges).toBeLessThan(0.2 * simpleRanges);
  });
});
