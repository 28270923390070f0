/**
 * `idem-sim lab AGENT.yaml --tool NAME` (docs/lab.md): the page starts from the tool's scenario as
 * the agent composes it (its defaults, the file it extends, its own keys and the agent's rate), and
 * the page's engine gives the numbers of the tool's column in `run AGENT.yaml`. Without --tool, a
 * one-paragraph refusal listing the tools.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labSettings, startScenario } from '../src/cli/lab.js';
import { labLoad, labRun } from '../src/lab/engine.js';
import { labPage } from '../src/lab/page.js';
import { missions } from '../src/cli/lab.js';
import { roundNoise } from '../src/report/json.js';
import { loadScenario } from '../src/cli/shared/load.js';
import { simulate } from '../src/exec/simulate.js';
import { command } from './command-line.js';
import { ROOT } from './helpers.js';

const AGENT = join(ROOT, 'test/fixtures/agent-report/small-agent.yaml');
const io = () => ({ stdout: new PassThrough(), stderr: new PassThrough(), env: {} });

/** `run AGENT.yaml --json`'s results, by run name. */
async function runJson(args: string[] = []): Promise<Record<string, { metrics: Record<string, unknown> }>> {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  await command(['run', AGENT, '--json', '--threads', '1', ...args], { stdout, stderr: new PassThrough(), env: {} });
  const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { results: { name: string; metrics: Record<string, unknown> }[] };
  return Object.fromEntries(doc.results.map((r) => [r.name, r]));
}

describe('lab of an agent file', () => {
  it('starts from the tool\'s composed scenario: the agent\'s defaults, the base it extends, its own keys, the agent\'s rate', async () => {
    const start = await startScenario(AGENT, labSettings({ tool: 'post_note' }), io());
    expect(start).toMatchObject({ name: 'small-agent.post_note', file: 'scenario.yaml', seed: 'report-1/post_note', overrides: [] });
    const s = labLoad(start).start;
    expect(s.load.rate_per_s).toBe(5 * 0.6); // agent.calls_per_s × share
    expect(s.client.timeout).toBe(1000); // defaults:
    expect(s.service.error_rate).toBe(0.02); // note-base.yaml, which the tool extends
    expect(s.idempotency.scope).toBe('none'); // its own key
    expect(start.goals).toEqual([{ metric: 'duplicates_per_1000', text: '< 100' }]);
    expect(start.tool?.agentCommand).toBe(`idem-sim run ${AGENT} --seed report-1`);
  });

  it('runs in the page as the tool runs in run AGENT.yaml (the same numbers)', async () => {
    for (const tool of ['charge_card', 'post_note']) {
      const start = await startScenario(AGENT, labSettings({ tool }), io());
      const page = labRun({ ...start, kind: 'run', id: 1, command: 'test', version: 'test' });
      const cli = (await runJson())[tool]?.metrics;
      expect(page.metrics).toEqual(JSON.parse(JSON.stringify(cli, roundNoise)));
      expect(page.warnings).toEqual([]);
    }
  });

  it('runs a tool whose latency a histogram file holds (alone, and in a mixture), or one fitted to percentiles, as run AGENT.yaml does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-lab-histogram-'));
    try {
      copyFileSync(join(ROOT, 'test/fixtures/histogram/metrics.prom'), join(dir, 'metrics.prom'));
      // A base in a folder of its own, naming its data relative to itself.
      mkdirSync(join(dir, 'lib'));
      copyFileSync(join(ROOT, 'test/fixtures/latencies.txt'), join(dir, 'lib', 'lat.txt'));
      writeFileSync(join(dir, 'lib', 'base.yaml'), 'service: {latency: {dist: empirical, file: lat.txt}}\n');
      const file = join(dir, 'agent.yaml');
      const get = "{dist: histogram, file: metrics.prom, metric: 'http_request_duration_seconds{method=\"GET\"}'}";
      writeFileSync(file, `agent: {calls_per_s: 5}
defaults: {actions: 3000, client: {timeout: 800ms, retries: 1}, network: {reply_loss: 0.02}}
tools:
  - {name: alone, share: 0.5, scenario: {service: {latency: ${get}}}}
  - {name: fitted, share: 0.1, scenario: {service: {latency: {p50: 150ms, p99: 2s}}}}
  - {name: based, share: 0.1, scenario: {extends: lib/base.yaml}}
  - name: mixed
    share: 0.3
    scenario:
      service:
        latency: {dist: mixture, components: [{weight: 0.7, median: 200ms, sigma: 0.5}, ${get.slice(0, -1)}, weight: 0.3}]}
`);
      const stdout = new PassThrough();
      const chunks: Buffer[] = [];
      stdout.on('data', (c: Buffer) => chunks.push(c));
      expect(await command(['run', file, '--json', '--threads', '1'], { stdout, stderr: new PassThrough(), env: {} })).toBe(0);
      const results = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { results: { name: string; metrics: unknown }[] }).results;
      for (const tool of ['alone', 'fitted', 'based', 'mixed']) {
        const start = await startScenario(file, labSettings({ tool }), io());
        const page = labRun({ ...start, kind: 'run', id: 1, command: 'test', version: 'test' });
        expect(page.metrics, tool).toEqual(JSON.parse(JSON.stringify(results.find((r) => r.name === tool)?.metrics, roundNoise)));
        // The page's "Download scenario.yaml", kept beside the agent file, runs what the page ran: its data files named from there.
        writeFileSync(join(dir, 'scenario.yaml'), start.text);
        const downloaded = loadScenario(join(dir, 'scenario.yaml'), []);
        expect(JSON.parse(JSON.stringify(simulate(downloaded.scenario, start.seed).metrics, roundNoise)), tool).toEqual(page.metrics);
      }
      expect((await startScenario(file, labSettings({ tool: 'based' }), io())).text).toContain('file: lib/lat.txt');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes the agent file\'s --set and --actions before composing', async () => {
    const opts = { tool: 'charge_card', set: [], actions: undefined } as const;
    const start = await startScenario(AGENT, labSettings({ ...opts, set: [{ value: { path: ['agent', 'calls_per_s'], text: '10', option: '--set agent.calls_per_s=10' }, text: 'agent.calls_per_s=10' }] } as never), io());
    expect(labLoad(start).start.load.rate_per_s).toBe(4);
    expect(start.tool?.agentCommand).toBe(`idem-sim run ${AGENT} --set agent.calls_per_s=10 --seed report-1`);
  });

  it('says on the page where it started, and which run it matches', async () => {
    const start = await startScenario(AGENT, labSettings({ tool: 'post_note' }), io());
    const html = labPage({ version: 'test', start, missions: await missions() }, { engine: '', ui: '' });
    expect(html).toContain('<p class="note" id="tool-note">Started from <strong>post_note</strong>, a tool of the agent small-agent');
    expect(html).toContain(`post_note's column of <code>idem-sim run ${AGENT} --seed report-1</code>`);
  });

  it('without --tool: refused, with the tools and the command to give', async () => {
    await expect(startScenario(AGENT, labSettings({}), io())).rejects.toThrow(`${AGENT}: is an agent file of 2 tools (charge_card, post_note), and the lab starts from one scenario.`);
    await expect(startScenario(AGENT, labSettings({}), io())).rejects.toThrow(/Pick one with --tool NAME, such as `idem-sim lab .*small-agent\.yaml --tool charge_card`\.$/);
  });

  it('--tool with a scenario, or an unknown tool: refused', async () => {
    await expect(startScenario(null, labSettings({ tool: 'x' }), io())).rejects.toThrow(/^--tool: names a tool of an agent file, but the built-in lab defaults are a scenario/);
    await expect(startScenario(AGENT, labSettings({ tool: 'x' }), io())).rejects.toThrow(/has no tool named "x"\. Name one of its tools: charge_card, post_note\.$/);
  });
});
