/**
 * With workers far above the peak concurrency, a coupled run measures what the chunk engine
 * measures (docs/model.md, "Capacity": every version-2 metric unchanged within Monte Carlo
 * error): every bundled scenario, and random ones, run both ways from the same seed. Each rate's
 * two estimates must agree within 4 standard errors of their difference (their intervals give
 * each one's: half-width / 1.96); the runs are independent draws (the coupled engine takes its
 * draws from a stream of its own), so the difference's variance is the sum of theirs.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadScenario } from '../src/cli/shared/load.js';
import { simulate } from '../src/exec/simulate.js';
import { isCoupled } from '../src/model/capacity.js';
import { ALL_METRIC_PATHS } from '../src/results/metric-paths.js';
import type { Estimate, Metrics } from '../src/results/metrics.js';
import type { Scenario } from '../src/model/types.js';
import fc from 'fast-check';
import { arbScenario } from './arbitrary.js';
import { ROOT, se } from './helpers.js';

const UNLIMITED = { workers: 1_000_000, queue: null, order: 'fifo', drop_expired: false, retry_after: null } as const;

function valueAt(m: Metrics, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], m);
}

/** The paths whose estimates differ by more than 4 standard errors, with both values. */
function disagreements(a: Metrics, b: Metrics): string[] {
  const out: string[] = [];
  for (const path of ALL_METRIC_PATHS) {
    const x = valueAt(a, path) as Estimate | undefined;
    const y = valueAt(b, path) as Estimate | undefined;
    if (!x || typeof x !== 'object' || !('ci95' in x) || !y) continue;
    const bound = 4 * Math.hypot(se(x), se(y)) + 1e-9 * Math.max(1, Math.abs(x.value));
    if (Math.abs(x.value - y.value) > bound) out.push(`${path}: ${x.value} against ${y.value} (bound ${bound})`);
  }
  return out;
}

function bothWays(s: Scenario, actions: number, seed: string): string[] {
  const plain = simulate({ ...s, actions, load: { ...s.load, duration: null } }, seed).metrics;
  const coupled = simulate({ ...s, actions, load: { ...s.load, duration: null }, service: { ...s.service, capacity: { ...UNLIMITED } } }, seed).metrics;
  expect(coupled.utilisation).toBeLessThan(0.01);
  return disagreements(plain, coupled);
}

describe('unlimited workers agree with the chunk engine', () => {
  // The bundled scenarios of version 2 (those of "Capacity" are coupled already).
  const files = readdirSync(join(ROOT, 'scenarios')).filter((f) => f.endsWith('.yaml') && !isCoupled(loadScenario(join(ROOT, 'scenarios', f), []).scenario));
  test.each(files)('%s', (file) => {
    const s = loadScenario(join(ROOT, 'scenarios', file), []).scenario;
    expect(bothWays(s, 40_000, '11')).toEqual([]);
  });

  test('random scenarios', () => {
    const found: string[] = [];
    const scenarios = fc.sample(arbScenario(), { numRuns: 12, seed: 99 });
    for (const [k, s] of scenarios.entries()) found.push(...bothWays(s, 8_000, String(k)).map((d) => `#${k} ${d}`));
    expect(found).toEqual([]);
  });
});
