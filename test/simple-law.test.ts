/**
 * The law a counted simple group is drawn from (engine/simple-law.ts) against the model it stands
 * for: simple groups drawn one by one (a uniform v for the latency, a uniform place x in the arrival's
 * cell) and their (bin, first cell, last cell) counted, for claims atomic and not, retentions that are
 * and are not whole grid steps, latencies of a fraction of a step and of a hundred, tabled and uniform.
 *
 * Tolerance: Pearson's chi-square of the draws' counts against the law's chances, categories
 * expecting fewer than 5 pooled; with k degrees of freedom it has mean k and standard deviation
 * sqrt(2k), and a correct law leaves |z| = |chi2 - k| / sqrt(2k) above 4.5 about once in 300,000
 * (the seed is fixed, so each case's verdict is too). With 400,000 draws and some 700 degrees of
 * freedom that sees a category of 1% chance off by a fifth of it (chi2 + 160, z about 4.3), or a
 * tenth of the chance moved between the two cells of many categories (mutations of the law's
 * formulas fail every case); the exact checks (chances summing to 1, every category drawn being
 * one of the law's) keep its bookkeeping.
 */
import { describe, expect, it } from 'vitest';
import { binKey } from '../src/engine/bins.js';
import { compile } from '../src/engine/compile.js';
import { MAX_SEGMENTS, simpleLatency, simpleLaw } from '../src/engine/simple-law.js';
import { chunkRng } from '../src/random/rng.js';
import { DEFAULT_SCENARIO, type Scenario } from '../src/model/types.js';
import { parseRunnable } from './helpers.js';

const DRAWS = 400_000;

/** The chi-square z of DRAWS simple groups drawn one by one against the law, and categories drawn that the law lacks. */
function fit(scenario: Scenario, step: number): { z: number; missing: number; size: number; total: number } {
  const p = compile(scenario);
  const law = simpleLaw(p, step);
  if (law === null) throw new Error('no law');
  const index = new Map<string, number>();
  for (let k = 0; k < law.size; k++) index.set(`${law.bin[k]},${law.first[k]},${law.last[k]}`, k);
  const seen = new Float64Array(law.size);
  let missing = 0;
  const rng = chunkRng('simple-law', 0);
  for (let j = 0; j < DRAWS; j++) {
    const l = simpleLatency(p, rng.next());
    const x = 1 - rng.next();
    const first = p.atomic ? 0 : Math.ceil(x + l / step) - 1;
    const last = Math.ceil(x + (l + p.retention) / step) - 1;
    const k = index.get(`${binKey(l)},${first},${last}`);
    if (k === undefined) missing++;
    else seen[k]!++;
  }
  let chi2 = 0, dof = -1, pooledSeen = 0, pooledExpected = 0;
  for (let k = 0; k < law.size; k++) {
    const e = (law.mass[k] as number) * DRAWS;
    if (e < 5) { pooledSeen += seen[k] as number; pooledExpected += e; continue; }
    chi2 += ((seen[k] as number) - e) ** 2 / e;
    dof++;
  }
  if (pooledExpected > 0) { chi2 += (pooledSeen - pooledExpected) ** 2 / pooledExpected; dof++; }
  return { z: (chi2 - dof) / Math.sqrt(2 * dof), missing, size: law.size, total: law.mass.reduce((s, m) => s + m, 0) };
}

describe('the law of a counted simple group', () => {
  const cases: [string, string, number][] = [
    ['the lab at scope intent, atomic claim', 'idempotency: {scope: intent}', 100],
    ['check_then_act: the row starts at the execution', 'idempotency: {scope: intent, claim: check_then_act}', 100],
    ['a retention of no whole steps, not atomic', 'idempotency: {scope: intent, claim: check_then_act, retention: 1234ms}', 70],
    ['a retention shorter than a step', 'idempotency: {scope: attempt, retention: 30ms}', 100],
    ['a uniform latency', '{idempotency: {scope: call}, service: {latency: {dist: uniform, min: 10ms, max: 900ms}}}', 100],
    ['an atomic claim, latencies of a hundred steps and a retention of no whole steps', '{idempotency: {scope: intent, retention: 1234ms}, service: {latency: {median: 1s, sigma: 0.5}}, client: {timeout: 3s}}', 10],
    ['mission 2: the timeout cuts below the median', '{idempotency: {scope: intent}, service: {latency: {median: 1200ms, sigma: 0.6}}, client: {timeout: 600ms}}', 100],
  ];
  for (const [name, yaml, step] of cases) {
    it(`matches simple groups drawn one by one: ${name}`, () => {
      const { z, missing, total } = fit(parseRunnable(yaml), step);
      expect(missing).toBe(0);
      expect(Math.abs(total - 1)).toBeLessThan(1e-12);
      expect(Math.abs(z)).toBeLessThan(4.5);
    });
  }

  it('is not made where draws do not rise smoothly with v: a mixture (its slots), an empirical latency (its steps)', () => {
    const values = Array.from({ length: 50 }, (_, i) => 40 + 17 * i);
    const empirical: Scenario = {
      ...DEFAULT_SCENARIO,
      service: { ...DEFAULT_SCENARIO.service, latency: { dist: 'empirical', file: 'latencies.txt', values } },
      idempotency: { ...DEFAULT_SCENARIO.idempotency, scope: 'intent' },
    };
    expect(simpleLaw(compile(empirical), 100)).toBeNull();
    const mixture = parseRunnable('{idempotency: {scope: intent}, service: {latency: {dist: mixture, components: [{weight: 0.95, median: 300ms, sigma: 0.6}, {weight: 0.05, median: 900ms, sigma: 0.2}]}}}');
    expect(simpleLaw(compile(mixture), 100)).toBeNull();
  });

  it('is not made past MAX_SEGMENTS segments (a timeout of many steps), nor inside a window', () => {
    const long = compile(parseRunnable('{idempotency: {scope: intent, claim: check_then_act}, client: {timeout: 30m}, service: {latency: {median: 10m, sigma: 0.6}}}'));
    expect(simpleLaw(long, 100)).toBeNull();
    expect(30 * 60_000 / 100).toBeGreaterThan(MAX_SEGMENTS);
    const lab = compile(parseRunnable('idempotency: {scope: intent}'));
    expect(simpleLaw({ ...lab, latencyScale: 2 }, 100)).toBeNull();
    expect(simpleLaw(lab, 100)).not.toBeNull();
  });
});
