/** The real binary, as a user meets it: exit codes, messages, outputs. */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, ROOT } from './helpers.js';

function scenarioFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-'));
  const file = join(dir, 'scenario.yaml');
  writeFileSync(file, text);
  return file;
}

/** A bad input: exit 2, one message on stderr naming what to fix, nothing on stdout, no stack trace. */
function expectBadInput(args: string[], ...fragments: (string | RegExp)[]) {
  const r = cli(args);
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^idem-sim: /);
  expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack frames
  for (const f of fragments) expect(r.stderr).toMatch(f);
  return r;
}

describe('bad input exits 2 with a message a person can act on', () => {
  it('malformed YAML: file and line', () => {
    const f = scenarioFile('client:\n  timeout: [1s\n');
    expectBadInput(['run', f], `${f}:2:12`, 'not valid YAML', 'the [ opened here is never closed');
  });

  it('an unclosed flow mapping: the line where it was opened, not where the parser gave up', () => {
    const f = scenarioFile('service:\n  latency: {median: 300ms, sigma: 0.6\nclient: {timeout: 2s}\n');
    expectBadInput(['run', f], `${f}:2:12`, 'the { opened here is never closed', 'Close it with }');
    // Not misled by an apostrophe in a word, an escaped backslash before a closing quote, or
    // a comment that makes the parser's first complaint another one.
    const words = scenarioFile('service:\n  latency: {median: 300ms\ndescription: [don\'t, "a\\\\"]\n');
    expectBadInput(['run', words], `${words}:2:12`, 'the { opened here is never closed');
    const comment = scenarioFile('service:\n  latency: {median: 300ms,\n# the default [retry policy\nclient: {timeout: 2s}\n');
    expectBadInput(['run', comment], `${comment}:2:12`, 'the { opened here is never closed');
  });

  it('a .json scenario must be JSON (no trailing comma), with the line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-'));
    const f = join(dir, 'scenario.json');
    writeFileSync(f, '{\n  "client": {"timeout": "2s",}\n}\n');
    expectBadInput(['run', f], `${f}:2:30`, 'is not valid JSON', 'trailing comma');
    writeFileSync(f, '{\n  "client": {"timeout": "2s"}, "actions": 100\n}\n');
    expect(cli(['run', f]).status).toBe(0);
    writeFileSync(f, '\uFEFF{\n  "client": {"timeout": "2s",}\n}\n'); // a byte-order mark does not shift the column
    expectBadInput(['run', f], `${f}:2:30`, 'is not valid JSON');
    writeFileSync(f, '');
    expect(cli(['run', f, '--set', 'actions=100']).status).toBe(0); // empty is the lab, as for YAML
  });

  it('an empirical latency file that is missing: the scenario line that names it', () => {
    const f = scenarioFile('actions: 10\nservice:\n  latency: {dist: empirical, file: no-such-file.txt}\n');
    expectBadInput(['run', f], `${f}:3:30, key service.latency.file`, 'no-such-file.txt does not exist');
  });

  it('--set into a list past its end names the index and the length', () => {
    expectBadInput(['run', '--set', 'service.latency={dist: mixture, components: [{weight: 1, median: 1s}, {weight: 1, dist: constant, value: 5ms}]}',
      '--set', 'service.latency.components[5].weight=3'], 'index 5 is out of range: service.latency.components holds 2 items', 'or [2] to add an item');
  });

  it('misspelt key: file, line, column, key path and "did you mean"', () => {
    const f = scenarioFile('idempotency:\n  scpoe: intent\n');
    expectBadInput(['run', f], `${f}:2:3`, 'key idempotency.scpoe', 'Did you mean `scope`?');
  });

  it('misspelt section', () => {
    const f = scenarioFile('clinet:\n  timeout: 1s\n');
    expectBadInput(['run', f], `${f}:1:1`, 'Did you mean `client`?');
  });

  it('probability of 1.5', () => {
    const f = scenarioFile('network:\n  reply_loss: 1.5\n');
    expectBadInput(['run', f], `${f}:2:15`, 'key network.reply_loss', 'got 1.5', 'between 0 and 1');
  });

  it('negative duration', () => {
    const f = scenarioFile('idempotency:\n  retention: -5m\n');
    expectBadInput(['run', f], 'key idempotency.retention', 'got "-5m"', 'duration >= 0');
  });

  it('wrong type', () => {
    const f = scenarioFile('client:\n  retries: three\n');
    expectBadInput(['run', f], 'key client.retries', 'whole number');
  });

  it('unknown enum value, with a suggestion', () => {
    const f = scenarioFile('idempotency:\n  scope: intnet\n');
    expectBadInput(['run', f], 'key idempotency.scope', 'Did you mean `intent`?', 'none, attempt, call, intent, business, text');
  });

  it('exclusive outcomes over 1', () => {
    const f = scenarioFile('service:\n  error_rate: 0.7\n  crash_probability: 0.4\n');
    expectBadInput(['run', f], 'key service.crash_probability', 'at most 1');
  });

  it('a key that this distribution does not take', () => {
    const f = scenarioFile('service:\n  latency: {dist: uniform, min: 1s, max: 2s, median: 3s}\n');
    expectBadInput(['run', f], 'key service.latency.median', 'unknown key');
  });

  it('--set is validated like the file and named in the message', () => {
    expectBadInput(['run', '--set', 'client.timeot=2s'], '--set client.timeot=2s', 'Did you mean `timeout`?');
    expectBadInput(['run', '--set', 'client.timeout'], 'expected key.path=value');
    expectBadInput(['run', '--actions', '0'], '--actions 0', 'whole number >= 1');
  });

  it('missing scenario file', () => {
    expectBadInput(['run', 'no-such-file.yaml'], 'no-such-file.yaml', 'does not exist');
  });

  it('bad empirical data: the data file and its line', () => {
    expectBadInput(['run', 'test/fixtures/bad-empirical.yaml'], /bad-latencies\.txt:2:1/, 'line 2 (4 characters) is not a latency');
  });

  it('unwritable output path, and no file left behind', () => {
    expectBadInput(['run', '--out', '/nonexistent-dir/report.txt'], 'cannot create /nonexistent-dir/report.txt', 'no such file or directory');
  });

  it('--out refuses a directory, a read-only file and the run\'s own scenario, before running', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-out-'));
    expectBadInput(['run', '--out', dir], `${dir} is a directory`);
    const readOnly = join(dir, 'ro.txt');
    writeFileSync(readOnly, 'keep');
    chmodSync(readOnly, 0o444);
    expectBadInput(['run', '--out', readOnly], 'is read-only');
    expect(readFileSync(readOnly, 'utf8')).toBe('keep');
    const f = scenarioFile('actions: 100\n');
    expectBadInput(['run', f, '--out', f], "is one of this run's inputs");
    expect(readFileSync(f, 'utf8')).toBe('actions: 100\n');
  });

  it('--out and --junit refuse a data file the scenario reads, and an empty path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-out-'));
    const data = join(dir, 'observed.txt');
    writeFileSync(data, '120\n340\n');
    const f = join(dir, 'empirical.yaml');
    writeFileSync(f, 'actions: 100\nservice: {latency: {dist: empirical, file: observed.txt}}\nexpect: {duplicates_per_1000: "<= 1000"}\n');
    expectBadInput(['run', f, '--out', data], 'the empirical latency file of service.latency', "one of this run's inputs");
    expectBadInput(['check', f, '--junit', data], '--junit', "one of this run's inputs");
    expect(readFileSync(data, 'utf8')).toBe('120\n340\n');
    expect(readdirSync(dir).sort()).toEqual(['empirical.yaml', 'observed.txt']); // no temporary file left
    expectBadInput(['run', '--out', ''], "--out '': the path is empty");
  });

  it('--out through a link in a linked directory lands where the link points; a loop of links and one file for two outputs are refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-out-'));
    mkdirSync(join(dir, 'real'));
    mkdirSync(join(dir, 'a'));
    symlinkSync(join(dir, 'real'), join(dir, 'a', 'linked'));
    symlinkSync('../x.json', join(dir, 'real', 'out.json')); // '..' climbs from real/, not from a/linked/
    expect(cli(['run', '--actions', '100', '--json', '--out', join(dir, 'a', 'linked', 'out.json')]).status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'x.json'), 'utf8')).tool).toBe('idem-sim');
    expect(existsSync(join(dir, 'a', 'x.json'))).toBe(false);
    symlinkSync('loop-b', join(dir, 'loop-a'));
    symlinkSync('loop-a', join(dir, 'loop-b'));
    expectBadInput(['run', '--out', join(dir, 'loop-a')], 'is a loop of symbolic links');
    expect(lstatSync(join(dir, 'loop-a')).isSymbolicLink()).toBe(true);
    const same = join(dir, 'same.txt');
    expectBadInput(['check', 'scenarios/solutions/mission-1-blind-retries.yaml', '--junit', same, '--out', same], 'is also where --junit writes');
    expect(existsSync(same)).toBe(false);
  });

  it('check: a bad --out leaves no --junit file behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-out-'));
    expectBadInput(['check', 'scenarios/solutions/mission-1-blind-retries.yaml', '--junit', join(dir, 'j.xml'), '--out', dir], 'is a directory');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('standard output that cannot be written (a full device): one line, exit 2', () => {
    const r = spawnSync(`${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} run --actions 100 --json > /dev/full`, { shell: '/bin/sh', encoding: 'utf8', cwd: ROOT });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^idem-sim: error: cannot write to standard output \(no space left on the device, ENOSPC\)/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('YAML that expands without bound, and several documents in one file', () => {
    const bomb = scenarioFile('a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n');
    expectBadInput(['run', bomb], 'cannot be read');
    const two = scenarioFile('actions: 10\n---\nactions: 20\n');
    expectBadInput(['run', two], 'more than one YAML document', 'one scenario per file');
  });

  it('an empty seed, and an empty --set value', () => {
    expectBadInput(['run', '--seed', ''], 'the seed is empty');
    expectBadInput(['run', '--set', 'idempotency.scope='], 'an empty value is not one of the allowed values');
  });

  it('an error caused by --set names the option, even when the key is in the file', () => {
    expectBadInput(['run', 'scenarios/mission-3-crash-replays.yaml', '--set', 'idempotency.retention.x=1'], '--set idempotency.retention.x=1, key idempotency.retention');
    expectBadInput(['run', 'scenarios/mission-2-slow-downstream.yaml', '--set', 'service.latency.dist=constant', '--set', 'service.latency.value=5ms'],
      'unknown key "median"', '--set service.latency.dist=constant, --set service.latency.value=5ms changed this mapping');
  });

  it('unknown option', () => {
    expectBadInput(['run', '--bogus'], "unknown option '--bogus'");
  });
});

describe('outputs', () => {
  it('--out writes through a symbolic link and to - (stdout)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-out-'));
    writeFileSync(join(dir, 'real.json'), 'old');
    symlinkSync('real.json', join(dir, 'link.json'));
    expect(cli(['run', '--actions', '100', '--json', '--out', join(dir, 'link.json')]).status).toBe(0);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'real.json'), 'utf8')).tool).toBe('idem-sim');
    symlinkSync('not-yet.json', join(dir, 'dangling.json')); // a link to a file not made yet: written through too
    expect(cli(['run', '--actions', '100', '--json', '--out', join(dir, 'dangling.json')]).status).toBe(0);
    expect(lstatSync(join(dir, 'dangling.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'not-yet.json'), 'utf8')).tool).toBe('idem-sim');
    expect(JSON.parse(cli(['run', '--actions', '100', '--json', '--out', '-']).stdout).tool).toBe('idem-sim');
  });

  it('--set reaches into lists with [n]', () => {
    const r = cli(['run', '--actions', '200', '--json', '--set', 'service.latency={dist: mixture, components: [{weight: 1, median: 1s}, {weight: 1, dist: constant, value: 5ms}]}',
      '--set', 'service.latency.components[1].weight=3']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).results[0].scenario.service.latency.components[1].weight).toBe(3);
  });

  it('with no command it prints help and exits 0', () => {
    const r = cli([]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: idem-sim');
  });

  it('two scenario files with the same base name get distinct columns', () => {
    const a = scenarioFile('actions: 100\n');
    const b = scenarioFile('actions: 100\n');
    const header = cli(['run', a, b]).stdout.split('\n')[1] ?? '';
    expect(header).toContain(a);
    expect(header).toContain(b);
  });

  it('runs the built-in lab defaults with no file', () => {
    const r = cli(['run']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('lab-defaults');
    expect(r.stdout).toContain('duplicates per 1000 actions');
    expect(r.stdout).toContain('replay: idem-sim run --seed 1');
    expect(r.stderr).toBe('');
  });

  it('no colour codes in a pipe', () => {
    const r = cli(['run', '--actions', '100'], { env: { NO_COLOR: '' } });
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('--json carries every metric, the resolved scenario, the seed and the version', () => {
    const r = cli(['run', 'scenarios/mission-2-slow-downstream.yaml', '--json', '--actions', '500', '--seed', 'abc']);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(doc.version).toBe(pkg.version);
    const [res] = doc.results;
    expect(res.seed).toBe('abc');
    expect(res.scenario.client.timeout).toBe(600);
    expect(res.scenario.idempotency.scope).toBe('call');
    expect(Object.keys(res.metrics)).toEqual(expect.arrayContaining([
      'duplicates_per_1000', 'duplicates_per_day', 'lost_per_1000', 'merged_per_1000', 'unknown_outcomes_per_1000',
      'conflicts_409_per_1000', 'mismatches_422_per_1000', 'dedup_hits_per_1000', 'attempts_per_action',
      'executions_per_action', 'call_latency_ms', 'action_latency_ms', 'keys_per_action', 'peak_live_keys', 'keys', 'key_store_mb',
    ]));
    expect(Object.keys(res.metrics.duplicates_per_1000)).toEqual(['value', 'ci95', 'transport', 'replan', 'replay']);
  });

  it('same seed gives byte-identical JSON; another seed does not', () => {
    const a = cli(['run', 'scenarios/mission-3-crash-replays.yaml', '--json', '--seed', '5']).stdout;
    const b = cli(['run', 'scenarios/mission-3-crash-replays.yaml', '--json', '--seed', '5']).stdout;
    const c = cli(['run', 'scenarios/mission-3-crash-replays.yaml', '--json', '--seed', '6']).stdout;
    expect(a.length).toBeGreaterThan(1000);
    expect(a).toBe(b);
    expect(JSON.parse(a).results[0].metrics).not.toEqual(JSON.parse(c).results[0].metrics);
  });

  it('several files make one column each', () => {
    const r = cli(['run', 'scenarios/mission-1-blind-retries.yaml', 'scenarios/mission-2-slow-downstream.yaml', '--actions', '300']);
    expect(r.status).toBe(0);
    const header = r.stdout.split('\n')[1] ?? '';
    expect(header).toContain('mission-1-blind-retries');
    expect(header).toContain('mission-2-slow-downstream');
  });

  it('--out writes the whole report and leaves no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-out-'));
    const out = join(dir, 'report.json');
    const r = cli(['run', '--json', '--actions', '200', '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8')).results).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('a bad scenario with --out leaves no output file at all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-out-'));
    const out = join(dir, 'report.json');
    const r = cli(['run', '--set', 'network.reply_loss=2', '--out', out]);
    expect(r.status).toBe(2);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('empirical latencies are read relative to the scenario file', () => {
    const r = cli(['run', 'test/fixtures/empirical.yaml', '--json', '--actions', '300']);
    expect(r.status, r.stderr).toBe(0);
    const m = JSON.parse(r.stdout).results[0].metrics;
    // Observed values 120, 250, 900: every successful first attempt takes one of them (within the sketch's 1%).
    expect(m.call_latency_ms.p50).toBeGreaterThan(118);
    expect(m.call_latency_ms.p50).toBeLessThan(910);
  });

  it('schema prints the committed JSON Schema', () => {
    const r = cli(['schema']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(ROOT, 'schema/scenario.schema.json'), 'utf8'));
  });

  it('--help and --version exit 0', () => {
    expect(cli(['--help']).status).toBe(0);
    expect(cli(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('reporters, exactly', () => {
  it('table', () => {
    const r = cli(['run', 'test/fixtures/tiny.yaml', '--seed', '1']);
    expect(r.stdout).toMatchSnapshot();
  });

  it('JSON', () => {
    const r = cli(['run', 'test/fixtures/tiny.yaml', '--seed', '1', '--json']);
    expect(r.stdout).toMatchSnapshot();
  });
});

describe('bundled scenarios', () => {
  for (const file of readdirSync(join(ROOT, 'scenarios')).filter((f) => f.endsWith('.yaml'))) {
    it(`${file} runs`, () => {
      // A scenario of load.duration sets how many actions arrive: --actions would contradict it.
      const timed = readFileSync(join(ROOT, 'scenarios', file), 'utf8').includes('duration:');
      const r = cli(['run', `scenarios/${file}`, ...(timed ? [] : ['--actions', '500'])]);
      expect(r.status, r.stderr).toBe(0);
    });
  }
});

describe('README', () => {
  it('shows the real output of `idem-sim run`', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const out = cli(['run']).stdout;
    expect(readme).toContain(out.trimEnd());
  });

  it('the retry storm\'s rows (README, docs/capacity.md) are rows of the real table, padding aside', () => {
    const squash = (line: string) => line.replace(/\s+/g, ' ').trim();
    const out = new Set(cli(['run', 'scenarios/capacity-storm.yaml', 'scenarios/capacity-guards.yaml']).stdout.split('\n').map(squash));
    for (const file of ['README.md', 'docs/capacity.md']) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const block = /\$ (?:npx )?idem-sim run scenarios\/capacity-storm\.yaml scenarios\/capacity-guards\.yaml\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
      const rows = block.split('\n').filter((l) => l.startsWith('│'));
      expect(rows.length, file).toBeGreaterThan(5);
      for (const row of rows) expect(out.has(squash(row)), `${file}: ${row}`).toBe(true);
    }
  });
});
