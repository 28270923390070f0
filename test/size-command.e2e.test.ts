/**
 * `idem-sim size` carries the version and a replay command as `run` does (text footer and
 * --json), and the replay gives the same output again. Through the real binary.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../src/scenario/shell-quote.js';
import { BIN, cli, ROOT } from './helpers.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const SCENARIO = 'scenarios/mission-2-slow-downstream.yaml';

/** Runs a `replay:` command line as a shell would, with `idem-sim` being the built binary. */
function replay(command: string): string {
  expect(command).toMatch(/^idem-sim size /);
  const r = spawnSync('sh', ['-c', `"$NODE" "$BIN" ${command.slice('idem-sim '.length)}`], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', NODE: process.execPath, BIN },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

function footer(stdout: string): string[] {
  return stdout.trimEnd().split('\n').slice(-2);
}

describe('size reports its version and a replay command, as run does', () => {
  it('without a scenario: nothing simulated, so no seed; the replay gives the same text', () => {
    const r = cli(['size', '--rate', '50', '--retention', '24h', '--record-bytes', '300']);
    expect(r.status, r.stderr).toBe(0);
    expect(footer(r.stdout)).toEqual([
      `nothing simulated (no scenario), so no seed; idem-sim ${VERSION}`,
      'replay: idem-sim size --rate 50 --retention 24h --record-bytes 300',
    ]);
    expect(replay('idem-sim size --rate 50 --retention 24h --record-bytes 300')).toBe(r.stdout);
  });

  it('--json: tool, version, replay (with --json) and a null seed, next to the figures', () => {
    const r = cli(['size', '--rate', '50', '--retention', '24h', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      tool: 'idem-sim', version: VERSION, replay: 'idem-sim size --rate 50 --retention 24h --json', seed: null,
      keys: 4_320_000, key_store_mb: 864,
    });
    expect(replay(doc.replay)).toBe(r.stdout);
  });

  it('with a scenario: the seed it simulated with (the default when not given) is in the footer, the JSON and the replay', () => {
    const text = cli(['size', SCENARIO, '--actions', '3000', '--set', 'idempotency.retention=2h', '--threads', '2']);
    expect(text.status, text.stderr).toBe(0);
    expect(footer(text.stdout)).toEqual([
      `actions simulated: 3,000; ± is the 95% confidence interval, 0 (≤ x) none seen and at most x at 95%; seed 1; idem-sim ${VERSION}`,
      // --threads never changes a number, so the replay leaves it out, as run's does.
      `replay: idem-sim size ${SCENARIO} --set idempotency.retention=2h --actions 3000 --seed 1`,
    ]);
    expect(replay(footer(text.stdout)[1]?.replace(/^replay: /, '') as string)).toBe(text.stdout);

    const json = cli(['size', SCENARIO, '--actions', '3000', '--seed', 'nightly run', '--json']);
    expect(json.status, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ version: VERSION, seed: 'nightly run', replay: `idem-sim size ${SCENARIO} --actions 3000 --seed 'nightly run' --json` });
    expect(doc.keys_per_action_source).toContain('seed nightly run');
    expect(replay(doc.replay)).toBe(json.stdout);
  });

  it('--from-probe: the replay names the probe file, and the figures come from it again', () => {
    // The fields size takes from a `probe --json` result (a real one is tested in probe.services.test.ts).
    const file = join(mkdtempSync(join(tmpdir(), 'idem-sim-size-')), 'probe.json');
    writeFileSync(file, JSON.stringify({
      kind: 'probe', store: { kind: 'redis' }, measurement: { bytes_per_record: 250 },
      scenario: { load: { rate_per_s: 20 }, idempotency: { retention: 3_600_000 } },
    }));
    const r = cli(['size', '--from-probe', file]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('at 250 bytes a record (measured by idem-sim probe on redis');
    expect(footer(r.stdout)).toEqual([
      `nothing simulated (no scenario), so no seed; idem-sim ${VERSION}`,
      `replay: idem-sim size --from-probe ${shellQuote(file)}`,
    ]);
    expect(replay(`idem-sim size --from-probe ${shellQuote(file)}`)).toBe(r.stdout);
  });
});

describe('size --rate and --record-bytes', () => {
  it('are held to the scenario keys\' limits before anything runs (past them a figure was Infinity, or 0 keys at 1e-300/s)', () => {
    for (const [args, error] of [
      [['--rate', '1e308'], 'idem-sim: error: --rate 1e308: is outside 0.00001 to 10^9 actions a second, load.rate_per_s\'s range. Give --rate a rate in that range, such as 50.\n'],
      [['--rate', '1e-300'], 'idem-sim: error: --rate 1e-300: is outside 0.00001 to 10^9 actions a second, load.rate_per_s\'s range. Give --rate a rate in that range, such as 50.\n'],
      [['--rate', '5', '--record-bytes', '1e20'], 'idem-sim: error: --record-bytes 1e20: is over 16,777,216 (16 MiB), idempotency.record_bytes\'s limit. Give the bytes one key record takes, such as 200.\n'],
    ] as const) expect(cli(['size', ...args, '--retention', '1h'])).toEqual({ status: 2, stdout: '', stderr: error });
    expect(cli(['size', '--rate', '1e9', '--retention', '1h', '--record-bytes', String(16 * 1024 * 1024)]).status).toBe(0);
  });
});

describe('size --retention', () => {
  it('a bare number is refused with the units to choose from (24 would be 24 ms, surely meant as hours)', () => {
    const r = cli(['size', '--rate', '5', '--retention', '24']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('idem-sim: error: --retention 24: the duration has no unit. Write the unit: 24h for hours, 24m for minutes (or 24ms if you mean milliseconds).\n');
    expect(cli(['size', '--rate', '5', '--retention', '24ms']).status).toBe(0);
  });

  it('a unit in another case gets its right spelling', () => {
    const r = cli(['size', '--rate', '5', '--retention', '24H']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('idem-sim: error: --retention 24H: "24H" is not a duration. Did you mean `24h`? A unit is one of ms, s, m, h and d, in lower case.\n');
  });
});

describe('size of a simulated scenario', () => {
  it('gives keys per action, keys and memory with their 95% intervals, one the multiple of the other', () => {
    const text = cli(['size', SCENARIO, '--actions', '3000']);
    expect(text.status, text.stderr).toBe(0);
    // mission 2 keys every call (scope: call), so keys per action is above 1 and has a spread.
    expect(text.stdout).toMatch(/^keys per action {3}\d\.\d+ ± 0\.\d+ \(simulated: /m);
    expect(text.stdout).toMatch(/^keys {14}[\d,]+ ± [\d,]+ {3}= keys per action × rate × retention$/m);
    expect(text.stdout).toMatch(/^key store {9}[\d.]+ ± [\d.]+ MB {3}at 200 bytes a record$/m);

    const json = cli(['size', SCENARIO, '--actions', '3000', '--json']);
    expect(json.status, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout);
    const [low, high] = doc.keys_per_action_ci95 as [number, number];
    expect(low).toBeGreaterThan(0);
    expect(low).toBeLessThan(doc.keys_per_action);
    expect(high).toBeGreaterThan(doc.keys_per_action);
    const perKey = doc.rate_per_s * (doc.retention_ms / 1000);
    expect(doc.keys_ci95[0]).toBeCloseTo(low * perKey, 6);
    expect(doc.keys_ci95[1]).toBeCloseTo(high * perKey, 6);
    expect(doc.key_store_mb_ci95[1]).toBeCloseTo((high * perKey * doc.record_bytes) / 1e6, 6);
    expect(doc.warnings).toEqual([]);
  });

  it('--retention is the retention the scenario is simulated with, not only the one it multiplies by', () => {
    // Mission 3's replays come up to 20 min after their step: at its own 5 min retention some claim a
    // second key, at 2 h none does. Its keys per action with --retention 2h are those of the scenario set to 2 h.
    const json = (args: string[]) => JSON.parse(cli(['size', 'scenarios/mission-3-crash-replays.yaml', '--rate', '10', '--actions', '3000', '--json', ...args]).stdout);
    const given = json(['--retention', '2h']);
    const set = json(['--set', 'idempotency.retention=2h']);
    expect(given.keys_per_action).toBe(set.keys_per_action);
    expect(given.keys).toBe(set.keys);
    expect(given.keys_per_action).toBeLessThan(json([]).keys_per_action);
  });

  it('with idempotency.scope none: warns that the store is empty (with run\'s reason), and 0 keys is exact, not a count that saw none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-size-'));
    const file = join(dir, 'no-key.yaml');
    // The lab's chances written out: no note after the warning (docs/scenarios.md, "The lab's values").
    writeFileSync(file, 'load: {rate_per_s: 20}\nidempotency:\n  scope: none\nnetwork: {reply_loss: 0.02}\nagent: {replan_probability: 0.6}\n');
    const r = cli(['size', file, '--actions', '2000']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(`idem-sim: warning: ${file}:3:3, key idempotency.scope: sizes an empty key store: idempotency.scope is none, so no key is claimed, stored or looked up. `
      + 'Set idempotency.scope (intent is the guide\'s choice) to size the store its keys would fill.\n');
    expect(r.stdout).toMatch(/^keys per action {3}0 \(simulated: /m);
    expect(r.stdout).toMatch(/^keys {14}0 {3}=/m);
    const doc = JSON.parse(cli(['size', file, '--actions', '2000', '--json']).stdout);
    expect(doc).toMatchObject({ keys_per_action: 0, keys_per_action_ci95: [0, 0], keys: 0, key_store_mb: 0 });
    expect(doc.warnings).toEqual([r.stderr.replace(/^idem-sim: warning: /, '').trimEnd()]);
  });

  it('a scenario that leaves the scope at its default (none) is warned the same, at the file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'idem-sim-size-')), 'default-scope.yaml');
    writeFileSync(file, 'load: {rate_per_s: 20}\n');
    const r = cli(['size', file, '--actions', '2000']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^idem-sim: warning: \S+default-scope\.yaml:1:1, key idempotency\.scope: sizes an empty key store: idempotency\.scope is none/);
  });
});
