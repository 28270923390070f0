/** `idem-sim sweep` and `merge` of sweeps through the built binary; values and grids in-process: sweep.test.ts. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, withoutNotes } from './helpers.js';

const TINY = ['sweep', 'test/fixtures/tiny.yaml', '--vary', 'client.timeout=500ms,1s', '--vary', 'idempotency.scope=call,intent', '--actions', '200'];

describe('sweep through the CLI', () => {
  it('CSV: a header, param_ columns first, one row per point (exact)', () => {
    const r = cli([...TINY, '--format', 'csv']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]?.startsWith('param_client.timeout_ms,param_idempotency.scope,duplicates_per_1000,duplicates_per_1000_ci95_low,')).toBe(true);
    expect(lines[0]?.endsWith(',seed,idem_sim_version')).toBe(true);
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(['500,call', '500,intent', '1000,call', '1000,intent']);
    expect(r.stdout).toMatchSnapshot();
  });

  it('table: a heat map for two keys, rows for one', () => {
    const two = cli([...TINY, '--metric', 'conflicts_409_per_1000']);
    expect(two.stdout).toContain('conflicts_409_per_1000');
    expect(two.stdout).toContain('client.timeout \\ idempotency.scope');
    const one = cli(['sweep', 'test/fixtures/tiny.yaml', '--vary', 'idempotency.scope=none,intent', '--actions', '200']);
    expect(one.stdout.split('\n')[1]).toContain('dup/1000');
    expect(one.stdout).not.toMatch(/\u001b\[/); // no colour in a pipe
  });

  it('common random numbers: a point is the same alone or inside the sweep', () => {
    const sweep = JSON.parse(cli([...TINY, '--format', 'json']).stdout);
    const alone = JSON.parse(cli(['run', 'test/fixtures/tiny.yaml', '--set', 'client.timeout=1s', '--set', 'idempotency.scope=call', '--actions', '200', '--json']).stdout);
    const point = sweep.points.find((p: { params: Record<string, unknown> }) => p.params['client.timeout'] === 1000 && p.params['idempotency.scope'] === 'call');
    expect(point.metrics).toEqual(alone.results[0].metrics);
  });

  it('a sweep: block in the file, and --vary over it', () => {
    const file = 'scenarios/mission-3-crash-replays.yaml';
    const r = cli(['sweep', file, '--vary', 'idempotency.retention=5m,1h', '--actions', '500', '--format', 'json']);
    expect(JSON.parse(r.stdout).points.map((p: { params: Record<string, number> }) => p.params['idempotency.retention'])).toEqual([300_000, 3_600_000]);
  });

  it('whole mappings as a list in a sweep: block: each point is the run with that mapping --set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-sweep-'));
    const file = join(dir, 'latencies.yaml');
    writeFileSync(file, 'actions: 300\nsweep:\n  vary:\n    service.latency:\n      - {dist: constant, value: 2s}\n      - {dist: uniform, min: 100ms, max: 400ms}\n');
    const r = cli(['sweep', file, '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const points = JSON.parse(r.stdout).points as { params: Record<string, string>; metrics: unknown }[];
    expect(points.map((p) => JSON.parse(p.params['service.latency'] as string))).toEqual([{ dist: 'constant', value: 2000 }, { dist: 'uniform', min: 100, max: 400 }]);
    const alone = JSON.parse(cli(['run', file, '--set', 'service.latency={dist: uniform, min: 100ms, max: 400ms}', '--json']).stdout);
    expect(points[1]?.metrics).toEqual(alone.results[0].metrics);
    writeFileSync(file, 'sweep: {vary: {service.latency: [{dist: constant, valeu: 2s}]}}\n');
    const bad = cli(['sweep', file]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('key service.latency.valeu: unknown key "valeu". Did you mean `value`?');
  });

  it('shards over points merge into exactly the unsharded sweep', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-sweep-'));
    const parts = [1, 2, 3].map((i) => {
      const file = join(dir, `part-${i}.json`);
      expect(cli([...TINY, '--shard', `${i}/3`, '--out', file]).status).toBe(0);
      return file;
    });
    for (const format of ['csv', 'json', 'table']) {
      expect(cli(['merge', ...parts, '--format', format]).stdout).toBe(cli([...TINY, '--format', format]).stdout);
    }
    const missing = cli(['merge', ...parts.slice(1)]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('shard 1/3 missing');
  });

  it('| head does not crash', () => {
    const r = spawnSync('sh', ['-c', `node ${BIN} sweep test/fixtures/tiny.yaml --vary client.timeout=100ms..3s:40 --actions 300 --format csv | head -1`], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('param_client.timeout_ms,')).toBe(true);
    expect(withoutNotes(r.stderr)).toBe('');
  });

  it('--series on a scenario with no alerts: warned of as having no effect, and the report the same without it', () => {
    const args = ['sweep', 'test/fixtures/tiny.yaml', '--vary', 'client.retries=0,1', '--format', 'csv'];
    const plain = cli(args);
    const series = cli([...args, '--series', '1m']);
    expect(withoutNotes(series.stderr)).toBe("idem-sim: warning: --series 1m has no effect: test/fixtures/tiny.yaml has no alerts: and no incidents:, and a sweep counts series only for its alerts' buckets and the quiet time outside incidents (its tables, CSV and JSON hold no series). Drop --series, or add alerts: to the scenario (docs/time.md).\n");
    expect(series.stdout.replace(/--series 1m/g, '')).toBe(plain.stdout);
    // With incidents and no alerts the series measure the quiet time (alert baselines), which --series moves: no warning.
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-sweep-series-'));
    writeFileSync(join(dir, 's.yaml'), 'load: {rate_per_s: 50, duration: 20m}\nidempotency: {scope: intent}\nincidents:\n  - {name: slow, from: 5m, to: 10m, service: {latency_multiplier: 4}}\n');
    const quiet = (step: string) => cli(['sweep', join(dir, 's.yaml'), '--vary', 'client.retries=0,1', '--series', step, '--format', 'csv']);
    const [coarse, fine] = [quiet('5m'), quiet('1m')];
    expect([coarse.status, fine.status], coarse.stderr).toEqual([0, 0]);
    expect(coarse.stderr).not.toMatch(/has no effect/);
    expect(coarse.stdout).not.toBe(fine.stdout); // the quiet time's baselines change with the step
  });
});

describe('sweep bad input: exit 2, a clear message, no output file', () => {
  const bad = (args: string[], ...fragments: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-sweep-bad-'));
    const r = cli([...args, '--out', join(dir, 'out.csv')]);
    expect(r.status, r.stderr).toBe(2);
    for (const f of fragments) expect(r.stderr).toContain(f);
    expect(readdirSync(dir)).toEqual([]);
  };
  it('an unknown key path', () => bad(['sweep', 'test/fixtures/tiny.yaml', '--vary', 'client.timout=1s,2s'], '--vary client.timout=1s,2s', 'Did you mean `timeout`?'));
  it('an invalid value', () => bad(['sweep', 'test/fixtures/tiny.yaml', '--vary', 'network.reply_loss=0.1,1.5'], 'value 1.5', 'between 0 and 1'));
  it('an empty range', () => bad(['sweep', 'test/fixtures/tiny.yaml', '--vary', 'client.timeout=1s..2s:1'], 'empty or a single value'));
  it('a grid over the limit names the flag', () => bad(['sweep', 'test/fixtures/tiny.yaml', '--vary', 'client.timeout=1..100:100', '--vary', 'client.retries=0..200:201'], '20,100 points', '--max-points'));
  it('nothing to vary', () => bad(['sweep', 'test/fixtures/tiny.yaml'], 'nothing to vary'));
  it('an unknown format', () => bad(['sweep', 'test/fixtures/tiny.yaml', '--vary', 'client.retries=1,2', '--format', 'xlsx'], 'Use one of: table, csv, json'));
});

describe('sweep edge cases', () => {
  const S = 'test/fixtures/tiny.yaml';
  it('refuses a key varied twice, a repeated value, the seed, and negative durations', () => {
    expect(cli(['sweep', S, '--vary', 'client.timeout=1s,2s', '--vary', 'client.timeout=3s']).stderr).toContain('varied twice');
    expect(cli(['sweep', S, '--vary', 'client.timeout=1s,1s']).stderr).toContain('given twice');
    expect(cli(['sweep', S, '--vary', 'seed=1,2']).stderr).toContain('common random numbers');
    const r = cli(['sweep', S, '--vary', 'client.timeout=log:-1..2s:3']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('negative duration');
  });

  it('labels keys the resolved scenario does not hold (presets) and none', () => {
    const r = JSON.parse(cli(['sweep', S, '--vary', 'preset=stripe,powertools', '--vary', 'idempotency.lease=none,1s', '--actions', '200', '--json']).stdout);
    expect(r.points.map((p: { params: Record<string, unknown> }) => [p.params['preset'], p.params['idempotency.lease']]))
      .toEqual([['stripe', 'none'], ['stripe', 1000], ['powertools', 'none'], ['powertools', 1000]]);
  });

  it('merge refuses run parts mixed with sweep parts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-mixed-'));
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    expect(cli(['sweep', S, '--vary', 'client.retries=1,2', '--actions', '200', '--shard', '1/2', '--out', a]).status).toBe(0);
    expect(cli(['run', S, '--actions', '200', '--shard', '2/2', '--out', b]).status).toBe(0);
    expect(cli(['merge', a, b]).stderr).toContain('is not a part of the same sweep');
  });
});

describe('sweep shards must come from one scenario', () => {
  it('merge refuses a shard whose scenario file changed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-fp-'));
    const scenario = join(dir, 's.yaml');
    writeFileSync(scenario, 'actions: 200\n');
    const vary = ['--vary', 'client.retries=1,2'];
    expect(cli(['sweep', scenario, ...vary, '--shard', '1/2', '--out', join(dir, 'a.json')]).status).toBe(0);
    writeFileSync(scenario, 'actions: 200\nnetwork: {reply_loss: 0.1}\n');
    expect(cli(['sweep', scenario, ...vary, '--shard', '2/2', '--out', join(dir, 'b.json')]).status).toBe(0);
    const r = cli(['merge', join(dir, 'a.json'), join(dir, 'b.json')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('the scenario differs');
  });

  it('a threshold with a unit that is not a duration is bad input, not a crash', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-th-'));
    const f = join(dir, 's.yaml');
    writeFileSync(f, 'expect:\n  call_latency_ms.p95: "> -1s"\n');
    const r = cli(['check', f]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('is not a duration');
  });
});
