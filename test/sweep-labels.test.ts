/**
 * A sweep point's labels (sweeps/labels.ts): the values its varied keys took, as the scenario
 * writes them. An empirical latency is labelled by its file, never by its values, and a point's
 * labels are bounded before any point runs; merge holds a part's labels to the same.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { Io } from '../src/io/streams.js';
import { sealJson } from '../src/shards/part-check.js';
import { writtenScenario } from '../src/report/json.js';
import { command } from './command-line.js';
import { DEFAULT_SCENARIO, type Scenario } from '../src/model/types.js';
import { InputError } from '../src/scenario/errors.js';
import { labelChars, MAX_LABEL_CHARS, pointLabel } from '../src/sweeps/labels.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-sweep-labels-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(): Io & { out: () => string } {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (d: Buffer) => { text += d.toString(); });
  return { stdout, stderr: new PassThrough(), env: {}, out: () => text };
}

/** Observed latencies, one a line: `n` of them. */
const dataFile = (name: string, n: number) => writeFileSync(join(dir, name), Array.from({ length: n }, (_, i) => String(100 + (i % 997))).join('\n'));
/** A mixture of `n` lognormal components, as a flow mapping. */
const mixture = (n: number) => `{dist: mixture, components: [${Array.from({ length: n }, (_, i) => `{median: ${100 + i}ms, sigma: 0.5, weight: 1}`).join(', ')}]}`;

describe('pointLabel', () => {
  const withData: Scenario = { ...DEFAULT_SCENARIO, service: { ...DEFAULT_SCENARIO.service, latency: { dist: 'empirical', file: 'a.txt', values: [1, 2, 3] } } };

  it('labels an empirical latency by its file: the scenario as written holds no values', () => {
    expect(pointLabel(writtenScenario(withData), ['service', 'latency'])).toBe('{"dist":"empirical","file":"a.txt"}');
    expect(pointLabel(writtenScenario(withData), ['service', 'latency', 'file'])).toBe('a.txt');
  });

  it('gives numbers as they are, a fitted percentile from fitted_to, and nothing for none or a missing key', () => {
    expect(pointLabel(DEFAULT_SCENARIO, ['client', 'retries'])).toBe(DEFAULT_SCENARIO.client.retries);
    const fitted = { ...DEFAULT_SCENARIO, service: { ...DEFAULT_SCENARIO.service, latency: { dist: 'lognormal' as const, median: 300, sigma: 0.6, fitted_to: { p50: 300, p99: 1200 } } } };
    expect(pointLabel(fitted, ['service', 'latency', 'p99'])).toBe(1200);
    expect(pointLabel(DEFAULT_SCENARIO, ['client', 'nothing'])).toBeUndefined();
    expect(pointLabel({ ...DEFAULT_SCENARIO, idempotency: { ...DEFAULT_SCENARIO.idempotency, lease: null } } as Scenario, ['idempotency', 'lease'])).toBeUndefined();
  });

  it('labelChars counts every key\'s label as printed', () => {
    expect(labelChars({ a: 'abc', b: 1200, c: true, d: null })).toBe(3 + 4 + 4 + 4);
  });
});

describe('a sweep over data files', () => {
  it('labels its points by the files: 2 points of 100,000 values each make a few KB, not MB', async () => {
    dataFile('a.txt', 100_000);
    dataFile('b.txt', 100_000);
    const s = join(dir, 'data.yaml');
    writeFileSync(s, 'actions: 100\nsweep:\n  vary:\n    service.latency: [{dist: empirical, file: a.txt}, {dist: empirical, file: b.txt}]\n');
    for (const format of ['csv', 'table', 'json', 'html'] as const) {
      const w = io();
      expect(await command(['sweep', s, '--format', format], w)).toBe(0);
      expect(w.out(), format).toMatch(/dist.{1,20}empirical.{1,20}file.{1,20}a\.txt/);
      expect(w.out().length, format).toBeLessThan(format === 'html' ? 1_000_000 : 20_000);
      expect(w.out(), format).not.toMatch(/100,101,102|"values"|&quot;values&quot;/);
    }
  });

  it('merges its shards: a part\'s mapping labels are its scenario\'s (they were refused as not)', async () => {
    const s = join(dir, 'mappings.yaml');
    writeFileSync(s, 'actions: 100\nsweep:\n  vary:\n    service.latency: [{dist: empirical, file: a.txt}, {dist: lognormal, median: 300ms, sigma: 0.5}]\n');
    const parts = [1, 2].map((i) => join(dir, `m${i}.json`));
    for (const [i, out] of parts.entries()) expect(await command(['sweep', s, '--shard', `${i + 1}/2`, '--out', out], io())).toBe(0);
    const merged = io();
    expect(await command(['merge', ...parts, '--format', 'csv'], merged)).toBe(0);
    const whole = io();
    await command(['sweep', s, '--format', 'csv'], whole);
    expect(merged.out()).toBe(whole.out());
  });
});

describe('the bound on a point\'s labels', () => {
  it('refuses a point labelled with more than MAX_LABEL_CHARS before any point runs, naming the point', async () => {
    const s = join(dir, 'long.yaml');
    // The first point's label is short: the second's is refused before the first is simulated.
    writeFileSync(s, `actions: 100\nsweep:\n  vary:\n    service.latency: [${mixture(1)}, ${mixture(12)}]\n`);
    const w = io();
    const e = await command(['sweep', s], w).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(InputError);
    expect((e as Error).message).toMatch(new RegExp(`sweep\\.vary\\.service\\.latency .*: the point service\\.latency=.* is labelled with [0-9,]+ characters .*more than ${MAX_LABEL_CHARS}, the limit`));
    expect((e as Error).message.length).toBeLessThan(1200);
    expect(w.out()).toBe('');
  });

  it('merge refuses a part whose labels pass it, resealed', async () => {
    const s = join(dir, 'short.yaml');
    writeFileSync(s, 'actions: 100\nsweep:\n  vary:\n    service.latency.file: [a.txt, b.txt]\nservice:\n  latency: {dist: empirical, file: a.txt}\n');
    const parts = [1, 2].map((i) => join(dir, `s${i}.json`));
    for (const [i, out] of parts.entries()) expect(await command(['sweep', s, '--shard', `${i + 1}/2`, '--out', out], io())).toBe(0);
    const p = JSON.parse(readFileSync(parts[1] as string, 'utf8')) as { points: { params: Record<string, unknown> }[]; digest?: string };
    (p.points[0] as { params: Record<string, unknown> }).params['service.latency.file'] = 'x'.repeat(MAX_LABEL_CHARS + 1);
    delete p.digest;
    writeFileSync(parts[1] as string, sealJson(JSON.stringify(p)));
    await expect(command(['merge', ...parts], io())).rejects.toThrow(/s2\.json, key points\[0\]\.params: is longer than 500 characters/);
  });
});
