/**
 * Coupled runs (docs/model.md, "Capacity") through the binary: each is one simulation on one
 * thread, and a command's several coupled runs (a sweep's points, run's scenarios) go side by
 * side on --threads, one a worker, giving the same bytes whatever --threads; a sweep's shards
 * hold whole points; run --shard and --precision are refused; Ctrl-C stops runs on workers.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cli, ROOT } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-coupled-parallel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** About 18 workers' worth of load (50/s × 359 ms): the points below it queue without end. */
const SERVICE = `actions: 8000
load: {rate_per_s: 50}
service:
  latency: {median: 300ms, sigma: 0.6}
  capacity: {workers: 20}
client:
  timeout: 1s
  retries: 3
`;
const file = join(dir, 'service.yaml');
writeFileSync(file, SERVICE);

/** The bundled storm and its guards, shortened to 5 minutes with the pause at minute 2. */
const SCENARIOS = ['capacity-storm.yaml', 'capacity-guards.yaml'].map((f) => join(ROOT, 'scenarios', f));
const SHORT = ['--set', 'load.duration=5m', '--set', 'incidents[0].from=2m', '--set', 'incidents[0].to=150s'];

function ok(args: string[]): string {
  const r = cli(args, { cwd: dir });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('coupled runs side by side', () => {
  it('a sweep of a coupled scenario gives the same bytes on 1 and 3 threads', () => {
    const args = ['sweep', file, '--vary', 'service.capacity.workers=18,20,22,26', '--json'];
    const one = ok([...args, '--threads', '1']);
    expect(ok([...args, '--threads', '3'])).toBe(one);
    expect(JSON.parse(one).points).toHaveLength(4);
  });

  it('run of coupled scenarios, with their series and alerts, gives the same bytes on 1 and 2 threads; so does one alone', () => {
    const both = ['run', ...SCENARIOS, ...SHORT, '--series', '1m', '--json'];
    const one = ok([...both, '--threads', '1']);
    expect(ok([...both, '--threads', '2'])).toBe(one);
    expect(JSON.parse(one).results.map((r: { metrics: { utilisation: number } }) => r.metrics.utilisation > 0)).toEqual([true, true]);
    const alone = ['run', file, '--json'];
    expect(ok([...alone, '--threads', '2'])).toBe(ok([...alone, '--threads', '1']));
  });

  it('a sweep of coupled points in shards merges to the unsharded sweep, byte for byte', () => {
    const args = ['sweep', file, '--vary', 'service.capacity.workers=18,22,30', '--format', 'csv'];
    const parts = [1, 2].map((i) => {
      const out = join(dir, `part-${i}.json`);
      ok([...args, '--shard', `${i}/2`, '--threads', '2', '--out', out]);
      return out;
    });
    expect(ok(['merge', ...parts, '--format', 'csv'])).toBe(ok([...args, '--threads', '1']));
  });
});

describe('a coupled run is not split', () => {
  it('run --shard and --precision: exit 2, one line naming the file, its line, the key and the fix; nothing written', () => {
    for (const [option, says] of [[['--shard', '1/2'], 'which --shard 1/2 cannot split. Run it whole, without --shard'], [['--precision', '5', '--set', 'load.duration=none'], 'does not bound the error of the whole run. Run a fixed number of actions, without --precision']] as const) {
      const r = cli(['run', file, ...option], { cwd: dir });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`idem-sim: error: ${file}:5:3, key service.capacity: with service.capacity set,`);
      expect(r.stderr).toContain(says);
      // One line besides the near-capacity warning (20 workers at 0.9: docs/capacity.md, "Near capacity").
      expect(r.stderr.trimEnd().split('\n').filter((l) => !l.startsWith('idem-sim: warning:'))).toHaveLength(1);
    }
  });
});

describe('Ctrl-C', () => {
  it('stops a sweep whose coupled points run on workers: exit 130, nothing written', async () => {
    const out = mkdtempSync(join(tmpdir(), 'idem-sim-coupled-int-'));
    writeFileSync(join(out, 's.yaml'), SERVICE.replace('actions: 8000', 'actions: 2e7'));
    // Workers well above the load, so that no point storms into the in-flight limit (exit 2) before the signal.
    const child = spawn(process.execPath, [BIN, 'sweep', 's.yaml', '--vary', 'service.capacity.workers=30,34,38,42', '--threads', '2', '--out', 'o.csv', '--format', 'csv'],
      { cwd: out, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += String(d); });
    // Listened for before the signal: a child that ended first must not leave the test waiting for its close.
    const closed = new Promise<number | null>((r) => child.on('close', r));
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGINT');
    const code = await closed;
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('interrupted by SIGINT; nothing was written');
    expect(readdirSync(out)).toEqual(['s.yaml']);
    rmSync(out, { recursive: true, force: true });
  });
});
