/**
 * Sweeps over the capacity keys (docs/model.md, "Capacity"), in-process on one thread: --vary
 * creates the section as --set does, every point runs from the same seed (common random
 * numbers), and more workers mean less queueing. Through the binary on several threads, with
 * shards and refusals: coupled-parallel.e2e.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { command } from './command-line.js';
import type { Estimate, Metrics } from '../src/results/metrics.js';
import { InputError } from '../src/scenario/errors.js';
import { capturingIo } from './merge-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-coupled-sweep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Offered load 50/s × 359 ms (the mean of lognormal(300 ms, 0.6)) ≈ 18 busy workers: at 18 and
 * 20 the queue grows without end and blind retries pile on; from 22 it drains.
 */
const SERVICE = `actions: 20000
load: {rate_per_s: 50}
service:
  latency: {median: 300ms, sigma: 0.6}
client:
  timeout: 1s
  retries: 3
`;

function scenarioFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

type Point = { params: Record<string, unknown>; metrics: Metrics };

async function sweep(file: string, vary: string[], set: string[] = []): Promise<Point[]> {
  const io = capturingIo();
  expect(await command(['sweep', file, ...vary.flatMap((v) => ['--vary', v]), ...set.flatMap((v) => ['--set', v]), '--format', 'json', '--threads', '1'], io)).toBe(0);
  return (JSON.parse(io.out()) as { points: Point[] }).points;
}

/** The standard error of an estimate, from its 95% interval (half-width 1.96 σ). */
const se = (e: Estimate) => (e.ci95[1] - e.ci95[0]) / (2 * 1.96);

describe('a sweep over the capacity keys', () => {
  it('over service.capacity.workers: fewer duplicates and shorter queue waits as workers grow', async () => {
    const points = await sweep(scenarioFile('workers.yaml', SERVICE), ['service.capacity.workers=18,20,22,26,40']);
    expect(points.map((p) => p.params['service.capacity.workers'])).toEqual([18, 20, 22, 26, 40]);
    const dup = points.map((p) => p.metrics.duplicates_per_1000);
    const p95 = points.map((p) => p.metrics.queue_wait_ms?.p95 as number);
    const utilisation = points.map((p) => p.metrics.utilisation as number);
    for (let i = 1; i < points.length; i++) {
      const [before, after] = [dup[i - 1] as Estimate, dup[i] as Estimate];
      // Never more duplicates with more workers, beyond 4 standard errors of the difference
      // (per-action noise; the points share their random numbers, so they differ by less).
      expect(after.value).toBeLessThan(before.value + 4 * Math.hypot(se(before), se(after)));
      expect(p95[i]).toBeLessThanOrEqual(p95[i - 1] as number);
      expect(utilisation[i]).toBeLessThan(utilisation[i - 1] as number);
    }
    // Where the queue grows without end (18, 20) against where it drains (22): well separated.
    for (const [more, fewer] of [[1, 0], [2, 1]] as const) {
      const [a, b] = [dup[more] as Estimate, dup[fewer] as Estimate];
      expect(b.value - a.value).toBeGreaterThan(4 * Math.hypot(se(a), se(b)));
    }
    expect(p95[2]).toBeGreaterThan(p95[3] as number);
    expect(p95[4]).toBe(0); // 40 workers: a quantile inside the share that waited 0
  });

  it('every point runs from the same seed: where the varied key never acts, the points are the same numbers', async () => {
    // A breaker that needs 10^9 outcomes never opens, so open_for never matters; a budget of
    // 10^8 tokens is never short (20,000 actions spend at most 20,000 × 3 retries × 10 tokens).
    const file = scenarioFile('inert.yaml', `${SERVICE}  breaker: {min_calls: 1000000000}\n  retry_budget: {tokens: 100000000}\n`);
    for (const vary of ['client.breaker.open_for=1s,30s,5m', 'client.retry_budget.tokens=100000000,500000000']) {
      const points = await sweep(file, [vary]);
      expect(points.length).toBeGreaterThan(1);
      for (const p of points) expect(p.metrics).toEqual(points[0]?.metrics);
      expect(points[0]?.metrics.budget_denied_per_1000?.value).toBe(0);
      expect(points[0]?.metrics.breaker_rejected_per_1000?.value).toBe(0);
    }
  });

  it('--vary creates the section it names, as --set does', async () => {
    const file = scenarioFile('plain.yaml', SERVICE);
    const [tight, loose] = await sweep(file, ['client.retry_budget.tokens=1,1000000']);
    expect(tight?.metrics.budget_denied_per_1000?.value).toBeGreaterThan(0);
    expect(loose?.metrics.budget_denied_per_1000?.value).toBe(0);
    const [breaker] = await sweep(file, ['client.breaker.open_for=5s']);
    expect(breaker?.metrics.breaker_rejected_per_1000).toBeDefined();
    const [workers] = await sweep(file, ['service.capacity.workers=40']);
    expect(workers?.metrics.utilisation).toBeGreaterThan(0);
  });
});

describe('a coupled run is not split', () => {
  const refusal = async (run: () => Promise<number>): Promise<InputError> => {
    const e = await run().then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  };

  it('run --shard and --precision, and sweep --precision, are refused naming the file, the line and the key', async () => {
    const file = scenarioFile('coupled.yaml', `${SERVICE}  breaker: {min_calls: 50}\n`);
    const shard = await refusal(() => command(['run', file, '--shard', '1/2'], capturingIo()));
    expect(shard.message).toBe(`${file}:8:3, key client.breaker: with client.breaker set, the run is one simulation in time order (every action shares the breaker with every other), which --shard 1/2 cannot split. Run it whole, without --shard: several scenarios, or a sweep's points, still run side by side on --threads, and sweep --shard splits a sweep by its points.`);
    const precision = await refusal(() => command(['run', file, '--precision', '5'], capturingIo()));
    expect(precision.message).toMatch(/^.*coupled\.yaml:8:3, key client\.breaker: with client\.breaker set, the run's actions share the breaker, so the per-action interval --precision watches does not bound the error of the whole run\. Run a fixed number of actions, without --precision/);
    const plain = scenarioFile('plain2.yaml', SERVICE);
    const swept = await refusal(() => command(['sweep', plain, '--vary', 'service.capacity.workers=20,40', '--precision', '5'], capturingIo()));
    expect(swept.message).toContain('--vary service.capacity.workers=20,40 (value 20), key service.capacity: with service.capacity set, the run\'s actions share the workers and the queue');
    expect(swept.message).toContain('(at the point service.capacity.workers=20)');
  });

});
