/**
 * Threads, shards, precision and Ctrl-C: the machinery behind large runs, through the real binary
 * and the built runner (its worker is a file of dist/, so these need `npm run build`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, cli, parseRunnable, ROOT } from './helpers.js';

const SCENARIO = 'scenarios/mission-3-crash-replays.yaml';
const ACTIONS = '50000'; // 4 chunks of 16,384

describe('threads', () => {
  it('--threads 1 and --threads 2 give byte-identical JSON', () => {
    const one = cli(['run', SCENARIO, '--actions', ACTIONS, '--threads', '1', '--json']);
    const two = cli(['run', SCENARIO, '--actions', ACTIONS, '--threads', '2', '--json']);
    expect(one.status, one.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
  });

  // The built runner (its worker is a built file), on runs long enough that the worker, which
  // takes about 0.2 s to start, simulates a good share of the chunks.
  const built = async () => (await import(pathToFileURL(join(ROOT, 'dist/exec/runner.js')).href)) as typeof import('../src/exec/runner.js');
  const scenario = parseRunnable('idempotency: {scope: intent}', 'x.yaml');

  it('a worker that takes chunks changes no count: the sums are the same on 1, 2 and 3 threads', async () => {
    const { runScenario } = await built();
    const run = (threads: number) => runScenario({ scenario: { ...scenario, actions: 5_000_000 }, seed: '7', threads });
    const one = await run(1);
    for (const threads of [2, 3]) {
      const more = await run(threads);
      expect(more.chunksPerThread.slice(1).some((c) => c > 0)).toBe(true);
      expect(more.chunksPerThread.reduce((a, b) => a + b)).toBe(one.chunksPerThread[0]);
      expect(JSON.stringify(more.state.toData())).toBe(JSON.stringify(one.state.toData()));
    }
  });

  it('an interrupted run ends its workers, and the next run on new ones gives the same sums', async () => {
    const { runScenario } = await built();
    const stop = new AbortController();
    const long = runScenario({ scenario: { ...scenario, actions: 1e9 }, seed: '7', threads: 2, signal: stop.signal });
    setTimeout(() => stop.abort(), 500);
    await expect(long).rejects.toThrow('interrupted');
    const run = (threads: number) => runScenario({ scenario: { ...scenario, actions: 3_000_000 }, seed: '7', threads });
    const [one, two] = [await run(1), await run(2)];
    expect(JSON.stringify(two.state.toData())).toBe(JSON.stringify(one.state.toData()));
  });

  it('a precision run stops at the same chunk with the same sums on 1 and 2 threads', async () => {
    const { runScenario } = await built();
    const precision = { metric: 'duplicates_per_1000', halfWidth: 0.2, maxActions: 100_000_000 };
    const run = (threads: number) => runScenario({ scenario: { ...scenario, idempotency: { ...scenario.idempotency, scope: 'none' } }, seed: '7', threads, precision });
    const one = await run(1);
    const two = await run(2);
    expect(one.precisionReached).toBe(true);
    expect(two.precisionReached).toBe(true);
    expect(two.chunksPerThread[1]).toBeGreaterThan(0);
    expect(JSON.stringify(two.state.toData())).toBe(JSON.stringify(one.state.toData()));
  });
});

describe('shards', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-shards-'));
  const part = (i: number, n: number, extra: string[] = []) => {
    const file = join(dir, `part-${i}-of-${n}${extra.length ? '-x' : ''}.json`);
    const r = cli(['run', SCENARIO, '--actions', ACTIONS, '--shard', `${i}/${n}`, '--out', file, ...extra]);
    expect(r.status, r.stderr).toBe(0);
    return file;
  };
  const parts = [1, 2, 3].map((i) => part(i, 3));

  it('merging every shard gives exactly the unsharded run, byte for byte', () => {
    const whole = cli(['run', SCENARIO, '--actions', ACTIONS, '--json']);
    const merged = cli(['merge', ...parts, '--json']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toBe(whole.stdout);
    // And the table too.
    expect(cli(['merge', ...parts]).stdout).toBe(cli(['run', SCENARIO, '--actions', ACTIONS]).stdout);
  });

  it('rejects a missing shard, a repeated one, another seed, scenario or version', () => {
    const bad = (files: string[], ...fragments: string[]) => {
      const r = cli(['merge', ...files]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      for (const f of fragments) expect(r.stderr).toContain(f);
    };
    bad(parts.slice(0, 2), 'shard 3/3 missing');
    bad([parts[0] as string, parts[0] as string, parts[2] as string], 'shard 1/3 is also in');
    bad([...parts.slice(0, 2), part(3, 3, ['--seed', '99'])], 'the command differs');
    const otherScenario = join(dir, 'other.json');
    expect(cli(['run', SCENARIO, '--actions', ACTIONS, '--shard', '3/3', '--out', otherScenario, '--set', 'runtime.crash_probability=0.2']).status).toBe(0);
    bad([...parts.slice(0, 2), otherScenario], 'differs from');
    const oldVersion = join(dir, 'old.json');
    writeFileSync(oldVersion, readFileSync(parts[2] as string, 'utf8').replace(/"version":"[^"]+"/, '"version":"0.0.1"'));
    bad([...parts.slice(0, 2), oldVersion], 'the idem-sim version differs', 'Run every shard with the same idem-sim version');
    const notPartial = join(dir, 'not.json');
    writeFileSync(notPartial, '{"hello": 1}');
    bad([notPartial], 'is not a partial result of idem-sim');
  });

  it('--shard is refused with --precision, and must read i/n', () => {
    expect(cli(['run', '--shard', '1/2', '--precision', '1']).stderr).toContain('cannot be combined with --precision');
    expect(cli(['run', '--shard', '3/2']).stderr).toContain('expected i/n with 1 <= i <= n');
  });
});

describe('--precision', () => {
  it('stops at the first chunk where the 95% half-width is within the target', () => {
    const r = cli(['run', '--precision', '1', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout).results[0];
    const d = res.metrics.duplicates_per_1000;
    expect(res.precision).toEqual({ metric: 'duplicates_per_1000', half_width: 1, max_actions: 100_000_000, reached: true });
    expect((d.ci95[1] - d.ci95[0]) / 2).toBeLessThanOrEqual(1);
    // One chunk fewer would not have been enough: the half-width shrinks like 1/sqrt(n).
    const chunks = res.metrics.primary_actions / 16_384;
    expect(Number.isInteger(chunks)).toBe(true);
    const before = ((d.ci95[1] - d.ci95[0]) / 2) * Math.sqrt(chunks / (chunks - 1));
    expect(before).toBeGreaterThan(1 * 0.98); // 2% slack for the change of the sd estimate
  });

  it('reports when --max-actions stopped it first', () => {
    const r = cli(['run', '--precision', '0.01', '--max-actions', '20000', '--json']);
    const res = JSON.parse(r.stdout).results[0];
    expect(res.precision.reached).toBe(false);
    expect(res.metrics.primary_actions).toBe(20_000);
  });

  it('peak_live_keys of a run stopped far below a huge --max-actions is that of the same actions run plainly', () => {
    const precise = JSON.parse(cli(['run', SCENARIO, '--precision', '0.5', '--max-actions', '1e13', '--json']).stdout).results[0].metrics;
    const plain = cli(['run', SCENARIO, '--actions', String(precise.primary_actions), '--json']);
    const fixed = JSON.parse(plain.stdout).results[0].metrics;
    expect(precise.duplicates_per_1000).toEqual(fixed.duplicates_per_1000); // the same chunks
    // The precision run's grid is sized for 10^9 actions at 50/s: a step of about 19 s, and a
    // peak on a grid can be short by the records created within one step before it (50/s x
    // 19 s = 950 on average); twice that covers its Poisson spread many times over.
    expect(precise.peak_live_keys).toBeLessThanOrEqual(fixed.peak_live_keys + 2 * 950);
    expect(precise.peak_live_keys).toBeGreaterThanOrEqual(fixed.peak_live_keys - 2 * 950);
  });

  it('--max-actions over 10^13 and --actions with --precision are refused', () => {
    for (const [args, says] of [[['--max-actions', '1e20'], 'over the limit of 10^13'], [['--actions', '1e6'], 'has no effect with --precision']] as const) {
      const r = cli(['run', '--precision', '0.5', ...args]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(says);
    }
  });

  it('a rate never seen does not stop the run at once (rule of three)', () => {
    const r = cli(['run', '--set', 'idempotency.scope=intent', '--precision', '0.5', '--json']);
    const res = JSON.parse(r.stdout).results[0];
    expect(res.metrics.duplicates_per_1000.value).toBe(0);
    expect(res.metrics.actions).toBeGreaterThanOrEqual(3 * 1000 / 0.5);
  });
});

describe('Ctrl-C', () => {
  for (const threads of ['1', '2']) {
    it(`stops a long run cleanly with --threads ${threads}: exit 130, no output file`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'idem-sim-sigint-'));
      const out = join(dir, 'report.json');
      const child = spawn(process.execPath, [BIN, 'run', '--actions', '1e9', '--threads', threads, '--json', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => { stderr += String(d); });
      await new Promise((r) => setTimeout(r, 1500)); // well into the run
      child.kill('SIGINT');
      const code = await new Promise<number | null>((r) => child.on('close', r));
      expect(code).toBe(130);
      expect(stderr).toContain('interrupted by SIGINT; nothing was written');
      expect(readdirSync(dir)).toEqual([]);
    });
  }
});
