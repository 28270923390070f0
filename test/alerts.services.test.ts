/**
 * The exported alert rules against the real promtool (Debian's `prometheus` package, which .ci/run
 * installs): `promtool check rules` takes the rule file, and `promtool test rules` runs it on the
 * simulated series and finds it firing at exactly the bucket ends where the simulated alert fires
 * (docs/prometheus-rules.md). Skipped where promtool is missing, except under CI=true, which fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { ROOT } from './helpers.js';

const HAS_PROMTOOL = spawnSync('sh', ['-c', 'command -v promtool']).status === 0;
/** A test of promtool: skipped where it is missing, except in CI, which must run every test. */
const withPromtool = process.env['CI'] === 'true' ? it : it.skipIf(!HAS_PROMTOOL);
const dir = mkdtempSync(join(tmpdir(), 'idem-sim-promtool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `idem-sim alerts ARGS...` in this process; its standard error must be `expected` (no warning either). */
async function alerts(args: readonly string[], expected = ''): Promise<void> {
  const stderr = new PassThrough();
  let said = '';
  stderr.on('data', (c: Buffer) => { said += c.toString('utf8'); });
  const code = await main(['node', 'idem-sim', 'alerts', ...args], { stdout: new PassThrough(), stderr, env: {} });
  expect({ code, said }).toEqual({ code: 0, said: expected });
}

function promtool(...args: string[]): { status: number | null; output: string } {
  expect(HAS_PROMTOOL, 'promtool is not installed: apt-get install -y prometheus (.ci/run does)').toBe(true);
  const r = spawnSync('promtool', args, { cwd: dir, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** Writes the rule file and its test for `scenario` with `options`, and returns the two files' names. */
async function exported(scenario: string, name: string, options: readonly string[] = []): Promise<{ rules: string; test: string }> {
  const rules = `${name}.rules.yaml`;
  const test = `${name}.test.yaml`;
  await alerts([scenario, ...options, '--format', 'prometheus', '--out', join(dir, rules)]);
  await alerts([scenario, ...options, '--format', 'promtool-test', '--rules', rules, '--out', join(dir, test)]);
  return { rules, test };
}

/** Eval times of the test file where the alert `name` is expected to fire. */
const expectedFirings = (test: string, name: string): string[] =>
  [...readFileSync(join(dir, test), 'utf8').matchAll(/- eval_time: (\S+)\n {8}alertname: "([^"]+)"\n {8}exp_alerts:\n/g)].filter((m) => m[2] === name).map((m) => m[1] as string);

/**
 * Half an hour at 50/s with a 4x slowdown from minute 10 that outlasts the load: alerts that
 * flap (for: 0 on a low threshold), that need several buckets (90s: two of 1m, three of 30s),
 * on another count, and one still firing when the series ends; a name that must be escaped.
 */
const EDGES = `load: {rate_per_s: 50, duration: 30m}
idempotency: {scope: intent}
incidents:
  - {name: slowdown, from: 10m, to: 40m, service: {latency_multiplier: 4}}
alerts:
  - {name: flapping, metric: conflicts_409, above: 2, for: 0m}
  - {name: sustained, metric: conflicts_409, above: 5, for: 90s}
  - {name: attempts, metric: attempts, above: 52, for: 3m}
  - {name: replays, metric: dedup_hits, above: 0.5, for: 0m}
`;

describe('promtool runs the exported rules on the simulated series', () => {
  withPromtool('incident-slowdown.yaml: promtool takes the rules, and they fire at the simulated minutes (22 to 31)', async () => {
    const { rules, test } = await exported(join(ROOT, 'scenarios/incident-slowdown.yaml'), 'slowdown', ['--label', 'tool=refund']);
    expect(promtool('check', 'rules', rules)).toMatchObject({ status: 0 });
    expect(expectedFirings(test, 'conflicts')).toEqual(['22m', '23m', '24m', '25m', '26m', '27m', '28m', '29m', '30m']);
    const r = promtool('test', 'rules', test);
    expect(r.output).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });

  for (const step of ['1m', '30s', '2m']) {
    withPromtool(`flapping, sustained, on another count, still firing at the end; a hostile file name; --series ${step}`, async () => {
      const file = join(dir, `a{{ .Labels }}"b:c,d ${step}.yaml`);
      writeFileSync(file, EDGES);
      const { rules, test } = await exported(file, `edges-${step}`, ['--series', step, '--label', 'tool=it\'s "x"', '--label', 'env=prod', '--metric', 'dedup_hits=app:replays_total']);
      expect(promtool('check', 'rules', rules)).toMatchObject({ status: 0 });
      for (const name of ['flapping', 'sustained', 'attempts', 'replays']) expect(expectedFirings(test, name).length, name).toBeGreaterThan(0);
      // The series' last bucket is the drain after the load; dedup hits stay above 0.5/s in it.
      const last = [...readFileSync(join(dir, test), 'utf8').matchAll(/- eval_time: (\S+)\n {8}alertname: "replays"/g)].at(-1)?.[1];
      expect(expectedFirings(test, 'replays').at(-1)).toBe(last);
      const r = promtool('test', 'rules', test);
      expect(r.output).toContain('SUCCESS');
      expect(r.status).toBe(0);
    });
  }

  withPromtool('the test and its rules written by one command pass, whatever rule file was written before and whatever the test is called', async () => {
    // A new user's two commands: the rules to rules.yml, then the test to test.yml. The test used
    // to read SCENARIO.rules.yaml, which was not there: promtool only warned, and got:[] nine times.
    const slowdown = join(ROOT, 'scenarios/incident-slowdown.yaml');
    await alerts([slowdown, '--format', 'prometheus', '--label', 'tool=refund', '--out', join(dir, 'rules.yml')]);
    await alerts([slowdown, '--format', 'promtool-test', '--label', 'tool=refund', '--out', join(dir, 'test.yml')],
      `idem-sim: wrote the rules the test reads beside it, to ${join(dir, 'test.rules.yml')}; promtool test rules ${join(dir, 'test.yml')} runs them (--rules FILE tests a rule file you keep instead)\n`);
    expect(expectedFirings('test.yml', 'conflicts')).toHaveLength(9);
    const r = promtool('test', 'rules', 'test.yml');
    expect(r.output).not.toContain('no file match pattern');
    expect(r.output).toContain('SUCCESS');
    expect(r.status).toBe(0);
    // The rules promtool ran are those of rules.yml, so the test stands for the deployed file.
    expect(readFileSync(join(dir, 'test.rules.yml'), 'utf8')).toBe(readFileSync(join(dir, 'rules.yml'), 'utf8'));
    // A name promtool would read as a glob ([1] a class, * any text) still names its own rule file alone.
    const glob = join(dir, 'a[1] *.test.yaml');
    writeFileSync(join(dir, 'a1 x.rules.yaml'), 'groups: []\n'); // what [1] and * would match instead
    await alerts([slowdown, '--format', 'promtool-test', '--label', 'tool=refund', '--out', glob],
      `idem-sim: wrote the rules the test reads beside it, to ${join(dir, 'a[1] *.rules.yaml')}; promtool test rules '${glob}' runs them (--rules FILE tests a rule file you keep instead)\n`);
    const g = promtool('test', 'rules', glob);
    expect(g.output).toContain('SUCCESS');
    expect(g.status).toBe(0);
  });

  withPromtool('a test named with a line break reads its rule file by its name as written: promtool finds it, and passes', async () => {
    // rule_files held the name made printable (t.test.yaml\u000ax.rules.yaml as text): promtool warned no file match pattern, then got:[].
    const slowdown = join(ROOT, 'scenarios/incident-slowdown.yaml');
    const test = join(dir, 't.test.yaml\nx');
    await alerts([slowdown, '--format', 'promtool-test', '--out', test],
      `idem-sim: wrote the rules the test reads beside it, to ${join(dir, 't.test.yaml\\u000ax.rules.yaml')}; promtool test rules $'${join(dir, 't.test.yaml\\x0ax')}' runs them (--rules FILE tests a rule file you keep instead)\n`);
    const r = promtool('test', 'rules', test);
    expect(r.output).not.toContain('no file match pattern');
    expect(r.output).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });

  withPromtool('without the compensation it fails: for: as the scenario writes it fires a bucket late', async () => {
    const { rules, test } = await exported(join(ROOT, 'scenarios/incident-slowdown.yaml'), 'late');
    const text = readFileSync(join(dir, rules), 'utf8');
    expect(text).toContain('for: 1m\n');
    writeFileSync(join(dir, rules), text.replace('for: 1m\n', 'for: 2m\n'));
    const r = promtool('test', 'rules', test);
    expect(r.status).toBe(1);
    expect(r.output).toMatch(/alertname: conflicts, time: 22m/);
  });
});
