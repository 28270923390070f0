/**
 * The lab (issue 16), in-process: the page's engine gives the CLI's numbers (simulate() and the
 * threaded runner agree, and labRun rounds as `run --json` does), the knobs say what `--set`
 * says, the downloaded scenario runs what the page ran, and the page carries a knob for every
 * key it lists and the missions' own `expect:` blocks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/exec/runner.js';
import { simulate } from '../src/exec/simulate.js';
import { PassThrough } from 'node:stream';
import { labSettings, missions, startScenario, type LabOptions } from '../src/cli/lab.js';
import { optionsOf } from './command-line.js';
import { roundNoise } from '../src/report/json.js';
import { shellQuote } from '../src/scenario/shell-quote.js';
import { loadScenario } from '../src/cli/shared/load.js';
import { parseOverrides } from '../src/scenario/overrides.js';
import { labLoad, labRun } from '../src/lab/engine.js';
import { runCommandLine } from '../src/lab/command.js';
import { KNOB_KEYS, knobSpec } from '../src/lab/knobs.js';
import { knobOverrides, knobState, type KnobState } from '../src/lab/overrides.js';
import { labPage } from '../src/lab/page.js';
import { breakdownSvg } from '../src/lab/breakdown.js';
import { parseScenario } from '../src/scenario/parse.js';
import { formatInputError } from '../src/scenario/errors.js';
import type { RunRequest } from '../src/lab/protocol.js';
import { ROOT } from './helpers.js';

const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
const rounded = (x: unknown) => JSON.parse(JSON.stringify(x, roundNoise)) as unknown;
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** A run request as the page makes it. */
function request(file: string | null, sets: string[], seed = '1', actions?: string): RunRequest {
  const overrides = parseOverrides({ set: sets, actions });
  return {
    kind: 'run', id: 1, text: file ? text(file) : '', source: file ?? '(built-in lab defaults)', overrides, seed, data: {}, histograms: {},
    command: runCommandLine(file, overrides, seed), version: 'test', name: file ?? 'lab-defaults',
  };
}

describe('the lab engine gives the CLI\'s numbers', () => {
  const cases: [string | null, string[], string][] = [
    [null, [], '1'],
    ['scenarios/mission-2-slow-downstream.yaml', ['idempotency.scope=intent'], '7'],
    ['scenarios/belgavi-refunds.yaml', ['client.timeout=2s', 'service.latency={p50: 450ms, p99: 3s}'], 'nightly'],
  ];
  for (const [file, sets, seed] of cases) {
    it(`${file ?? 'lab defaults'} ${sets.join(' ')} --seed ${seed}: labRun = simulate() = the CLI's runner, rounded as --json`, async () => {
      const loaded = loadScenario(file === null ? null : join(ROOT, file), parseOverrides({ set: sets, actions: '20000' }));
      const page = labRun(request(file, sets, seed, '20000'));
      expect(page.metrics).toEqual(rounded(simulate(loaded.scenario, seed).metrics));
      // The CLI's runner (its lanes and chunk sums; worker threads need dist/, so the browser test
      // compares with the binary on two threads).
      const outcome = await runScenario({ scenario: loaded.scenario, seed, threads: 1 });
      expect(JSON.stringify(page.metrics)).toBe(JSON.stringify(rounded(outcome.state.finish(loaded.scenario))));
    });
  }

  it('carries a histogram file\'s buckets into the page: the page\'s run of test/fixtures/histogram/scenario.yaml is the CLI\'s', async () => {
    const file = join(ROOT, 'test/fixtures/histogram/scenario.yaml');
    const start = await startScenario(file, labSettings({}), io);
    expect(Object.keys(start.histograms)).toHaveLength(1);
    const page = labRun({ kind: 'run', id: 1, text: start.text, source: start.source, overrides: [], seed: start.seed, data: start.data, histograms: start.histograms, command: '', version: 'test', name: start.name });
    const cli = loadScenario(file, []);
    expect(page.metrics).toEqual(rounded(simulate(cli.scenario, start.seed).metrics));
    // And the warning run gives of its data: observations above the highest bound.
    expect(cli.warnings.map((w) => w.problem)).toEqual([expect.stringMatching(/of the histogram's observations lie above its highest bound/)]);
    expect(page.warnings).toEqual(cli.warnings.map((w) => formatInputError(w.origin, w.keyPath, w.problem, w.fix)));
  });

  it('judges alert goals on the run\'s series as check does (incident-slowdown: detected after 2 minutes, no false alarm)', () => {
    const r = labRun(request('scenarios/incident-slowdown.yaml', []));
    expect(r.goals.map((g) => [g.metric, g.pass, g.value])).toEqual([
      ['alerts.conflicts.detection_delay_ms.slowdown', true, 120_000],
      ['alerts.conflicts.false_alarms', true, 0],
      ['duplicates_per_1000', true, 0],
    ]);
  });

  it('checks the file\'s expect: block as check does, and draws the report\'s timeline', () => {
    const r = labRun(request('scenarios/mission-1-blind-retries.yaml', []));
    expect(r.goals.map((g) => [g.metric, g.text, g.pass])).toEqual([['duplicates_per_1000', '== 0', false], ['lost_per_1000', '== 0', true]]);
    const solved = labRun(request('scenarios/mission-1-blind-retries.yaml', ['idempotency.scope=intent']));
    expect(solved.goals.every((g) => g.pass)).toBe(true);
    expect(r.timeline).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="timeline"/);
    expect(r.stories.length).toBe((r.timeline.match(/<g class="row/g) ?? []).length);
    expect(r.timeline).toContain('idem-sim run scenarios/mission-1-blind-retries.yaml --seed 1');
  });

  it('refuses what the CLI refuses, with its words', () => {
    const refused = (req: RunRequest) => { try { labRun(req); return ''; } catch (e) { return (e as Error).message; } };
    expect(refused(request(null, ['client.timeout=abc']))).toBe(
      '--set client.timeout=abc, key client.timeout: got "abc", expected a duration above 0 with its unit, at most 3650d (10 years), such as 250ms, 2s, 5m, 1h or 7d (client timeout per attempt). Change the value to one of that form.');
    expect(refused(request(null, [], ' '))).toBe('--seed: the seed is empty. Give a seed such as --seed 42 or --seed nightly-run.');
    expect(refused(request(null, [], '1', '0'))).toMatch(/^--actions 0, key actions: /);
    // A duration with no arrival measures nothing, in the page as in `run`.
    expect(refused(request(null, ['load.duration=1ms', 'load.rate_per_s=50']))).toMatch(/, key load\.duration: brings no action with seed 1: 1ms at the scenario's rate gives 0\.050 arrivals expected/);
  });
});

describe('the knobs', () => {
  it('are all keys of the scenario\'s shape (or the seed), each with a kind the page can show', () => {
    for (const key of KNOB_KEYS) expect(knobSpec(key), key).toBeDefined();
    expect(knobSpec('idempotency.scope')?.values).toContain('intent');
    expect(knobSpec('client.retries')).toMatchObject({ kind: 'count', min: 0, max: 1000 });
    expect(knobSpec('service.latency.p99')?.kind).toBe('duration');
  });

  const defaults = (): KnobState => knobState(parseScenario('', 'x').scenario, '1');

  it('make no --set on the file as it is, and one --set per changed knob, as typed', () => {
    const base = defaults();
    expect(knobOverrides(base, base)).toEqual([]);
    const changed: KnobState = { ...base, texts: { ...base.texts, 'idempotency.scope': 'intent', 'client.timeout': '2s', actions: '800', seed: '9' } };
    expect(knobOverrides(changed, base).map((o) => o.option)).toEqual(['--set idempotency.scope=intent', '--set client.timeout=2s', '--actions 800']);
  });

  it('write the latency per key in the file\'s own form, and whole in another form', () => {
    const base = defaults();
    expect(base.latency).toBe('median');
    const median = { ...base, texts: { ...base.texts, 'service.latency.median': '1200ms' } };
    expect(knobOverrides(median, base).map((o) => o.option)).toEqual(['--set service.latency.median=1200ms']);
    const percentiles: KnobState = { latency: 'percentiles', texts: { ...base.texts, 'service.latency.p50': '450ms', 'service.latency.p99': '3s' } };
    expect(knobOverrides(percentiles, base).map((o) => o.option)).toEqual(['--set service.latency={p50: 450ms, p99: 3s}']);
    // Read back: the knobs of the scenario those overrides make are the knobs that made them.
    const again = knobState(parseScenario('', 'x', knobOverrides(percentiles, base)).scenario, '1');
    expect(again.latency).toBe('percentiles');
    expect([again.texts['service.latency.p50'], again.texts['service.latency.p99']]).toEqual(['450ms', '3s']);
  });
});

describe('the downloaded scenario', () => {
  it('is the file with the overrides and seed written in: the same scenario, seed and expect: block', () => {
    const req = request('scenarios/mission-3-crash-replays.yaml', ['idempotency.retention=1h', 'client.backoff.jitter=none'], '42', '5000');
    const yaml = labRun(req).yaml;
    const fromFile = parseScenario(yaml, 'scenario.yaml');
    const asRun = parseScenario(req.text, req.source, req.overrides);
    expect(fromFile.scenario).toEqual(asRun.scenario);
    expect(fromFile.seed).toBe('42');
    expect(fromFile.expectations.map((e) => e.text)).toEqual(asRun.expectations.map((e) => e.text));
    expect(yaml).toContain('# Check it with: idem-sim check scenario.yaml');
  });

  it('of the lab defaults holds only what was changed', () => {
    const yaml = labRun(request(null, ['idempotency.scope=intent'])).yaml;
    expect(yaml.split('\n').filter((l) => !l.startsWith('#'))).toEqual(['idempotency:', '  scope: intent', '']);
  });
});

describe('the page', () => {
  it('has a knob (data-key) for every key it lists, and each mission\'s own expect: block', async () => {
    const config = { version: 'test', start: await startScenario(null, labSettings({}), io), missions: await missions() };
    const page = labPage(config, { engine: '/* engine */', ui: '/* ui */' });
    for (const key of KNOB_KEYS) expect(page, key).toContain(`data-key="${key}"`);
    expect(config.missions.map((m) => m.id)).toEqual(['mission-1-blind-retries', 'mission-2-slow-downstream', 'mission-3-crash-replays', 'mission-4-slow-and-lossy', 'mission-5-slack-redelivery']);
    for (const m of config.missions) {
      const file = join(ROOT, 'scenarios', `${m.id}.yaml`);
      expect(m.scenario.text).toBe(readFileSync(file, 'utf8'));
      expect(m.scenario.goals).toEqual(loadScenario(file, []).expectations.map((e) => ({ metric: e.metric, text: e.text })));
    }
    const json = /<script type="application\/json" id="lab-config">(.*?)<\/script>/s.exec(page)?.[1] ?? '';
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(config)));
    expect(page.match(/(?:https?:)?\/\/[\w.-]+\.[a-z]{2,}[^\s"'<>)]*/g)?.filter((u) => !u.startsWith('http://www.w3.org/')) ?? []).toEqual([]);
  });

  it('shows the starting scenario\'s knob values before its script runs: the choice, the texts with their units, the latency form', async () => {
    const options = optionsOf<LabOptions>('lab', ['--set', 'idempotency.retention=5m', '--set', 'service.latency={p50: 300ms, p99: 2s}', '--seed', '9']);
    const start = await startScenario(join(ROOT, 'scenarios/belgavi-refunds.yaml'), labSettings(options), io);
    const page = labPage({ version: 'test', start, missions: [] }, { engine: '', ui: '' });
    const knob = (key: string) => new RegExp(`<div class="knob[^"]*" data-knob="${key.replace(/\./g, '\\.')}">[\\s\\S]*?</div>`).exec(page)?.[0] ?? '';
    expect(knob('idempotency.fingerprint')).toContain('<option selected>business</option>');
    expect(knob('idempotency.fingerprint')).not.toContain('<option selected>full</option>');
    expect(knob('idempotency.retention')).toContain('value="5m"');
    expect(knob('idempotency.retention')).toMatch(/<output [^>]*>= 5 min<\/output>/);
    expect(knob('network.reply_loss')).toMatch(/<output [^>]*>= 2%<\/output>[\s\S]*value="0.02"/);
    expect(knob('seed')).toContain('value="9"');
    expect(page).toContain('<option value="percentiles" selected>');
    expect(page).toMatch(/data-latency-form="median" hidden>/);
    expect(page).toMatch(/data-latency-form="percentiles">/);
    expect(knob('service.latency.p99')).toContain('value="2s"');
    expect(page).toContain('<strong id="scenario-name">belgavi-refunds</strong>');
  });

  it('refuses a script that would close its own element', async () => {
    const config = { version: 'test', start: await startScenario(null, labSettings({}), io), missions: [] };
    expect(() => labPage(config, { engine: 'x = "</script>"', ui: '' })).toThrow(/<\/script/);
  });

  it('loads a file with its overrides, and quotes its command as the CLI\'s replay lines do', () => {
    const loaded = labLoad({ text: text('scenarios/mission-1-blind-retries.yaml'), source: 'm1.yaml', overrides: parseOverrides({ set: ['idempotency.scope=call'] }), seed: '1', data: {}, histograms: {} });
    expect([loaded.base.idempotency.scope, loaded.start.idempotency.scope]).toEqual(['none', 'call']);
    // The lab's command line is quoted by the CLI's own shellQuote: a zero-width space is written out there too.
    expect(runCommandLine('a\u200bb.yaml', [], '1')).toBe(`idem-sim run ${shellQuote('a\u200bb.yaml')} --seed 1`);
    expect(runCommandLine('a\u200bb.yaml', [], '1')).toContain("$'a\\xe2\\x80\\x8bb.yaml'");
  });
});

describe('the duplicates-by-source bar', () => {
  const zero = { value: 0, ci95: [0, 0.75] as [number, number] };
  const whiskers = (svg: string) => (svg.match(/stroke="#1b1f24"/g) ?? []).length;

  it('with no duplicate draws no whiskers across the axis: empty bars on 0 to 1, each row saying 0 and its upper bound', () => {
    const svg = breakdownSvg({ duplicates_per_1000: { ...zero, transport: zero, replan: zero, replay: zero } });
    expect(whiskers(svg)).toBe(0);
    expect(svg.match(/>0 \(≤ 0\.75\)</g)).toHaveLength(3);
    expect([...svg.matchAll(/fill="#57606a">([^<]*)</g)].map((m) => m[1])).toEqual(['0', '0.5', '1']);
  });

  it('with a duplicate keeps every source\'s interval', () => {
    const svg = breakdownSvg({ duplicates_per_1000: { value: 2, ci95: [1, 3], transport: { value: 2, ci95: [1, 3] }, replan: zero, replay: zero } });
    expect(whiskers(svg)).toBe(3);
    expect(svg).not.toContain('(≤ 0.75)<');
  });
});
