/**
 * Where each key of a scenario came from (scenario/provenance.ts, `idem-sim explain`): the
 * built-in default, a preset, a file of the extends: chain and its line, the file's own line,
 * --set and --actions, an agent's defaults and what the agent sets; and the lab values a
 * scenario runs on without writing them, which run, sweep and check note.
 */
import { posix } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseAgent } from '../src/agent/parse.js';
import { labDefaultsNote, sayNotes } from '../src/cli/shared/load.js';
import { DEFAULT_SCENARIO, EVENT_CHANCES, paramAt } from '../src/model/shape.js';
import { MAX_TOKENS } from '../src/scenario/document.js';
import { InputError, type Origin } from '../src/scenario/errors.js';
import type { BaseFiles } from '../src/scenario/extends.js';
import { parseOverrides } from '../src/scenario/overrides.js';
import { parseScenario, type ParsedScenario } from '../src/scenario/parse.js';
import { explainKeys, keySource, labDefaultsInherited, labNote, LAB_DEFAULTS, type ExplainedKey } from '../src/scenario/provenance.js';

/** Files in memory, read relative to the file that names them (as the CLI reads them). */
function memory(files: Record<string, string>): BaseFiles & { id: string } {
  return {
    id: 'a.yaml', budget: { left: MAX_TOKENS },
    read(path: string, from: string, origin: Origin) {
      const source = posix.join(posix.dirname(from), path);
      const text = files[source];
      if (text === undefined) throw new InputError(origin, 'extends', `${source} does not exist`, 'Check the path.');
      return { source, id: source, text };
    },
  };
}

const parse = (text: string, opts: { set?: string[]; actions?: string; files?: Record<string, string> } = {}): ParsedScenario =>
  parseScenario(text, 'a.yaml', parseOverrides(opts), memory(opts.files ?? {}));

/** The explained key `key` of `parsed`. */
function explained(parsed: ParsedScenario, key: string): ExplainedKey {
  const found = explainKeys(parsed).find((k) => k.key === key);
  if (!found) throw new Error(`no key ${key}`);
  return found;
}

describe('where a key came from', () => {
  it('a key the file does not write: the built-in default, in a readable form', () => {
    expect(explained(parse('actions: 100\n'), 'client.timeout')).toEqual({ key: 'client.timeout', value: 1000, text: '1s', from: { kind: 'default' } });
    expect(explained(parse('actions: 100\n'), 'client.deadline')).toMatchObject({ value: null, text: 'none', from: { kind: 'default' } });
    expect(explained(parse('actions: 100\n'), 'incidents')).toMatchObject({ value: [], text: 'none', from: { kind: 'default' } });
  });

  it("a key the file writes: the file's own line, and the value as written", () => {
    const p = parse('actions: 100\nclient:\n  retries: 2\n  timeout: 2.5s\n');
    expect(explained(p, 'client.timeout')).toEqual({ key: 'client.timeout', value: 2500, text: '2.5s', from: { kind: 'file', at: { source: 'a.yaml', line: 4, col: 3 } } });
    expect(explained(p, 'actions').from).toEqual({ kind: 'file', at: { source: 'a.yaml', line: 1, col: 1 } });
  });

  it('a key a preset fills: the preset, where it is named; a key written beside it stays the file\'s', () => {
    const p = parse('idempotency: {scope: intent, retention: 2h}\npreset: stripe\nclient: {preset: stripe-sdk}\n');
    expect(explained(p, 'idempotency.on_error')).toEqual({ key: 'idempotency.on_error', value: 'store', text: 'store', from: { kind: 'preset', preset: 'stripe', at: { source: 'a.yaml', line: 2, col: 1 } } });
    expect(explained(p, 'idempotency.retention').from.kind).toBe('file');
    expect(explained(p, 'client.backoff.max')).toMatchObject({ value: 5000, text: '5s', from: { kind: 'preset', preset: 'stripe-sdk', at: { line: 3 } } });
    // A section written as its preset's name (model/params.ts Optional).
    expect(explained(parse('client: {retry_budget: aws-standard}\n'), 'client.retry_budget.tokens').from).toMatchObject({ kind: 'preset', preset: 'aws-standard', at: { line: 1 } });
  });

  it('a key of a file the scenario extends: that file and its line; the scenario\'s own keys win', () => {
    const files = { 'lib/base.yaml': '# the shared client\nclient:\n  timeout: 3s\n  retries: 5\n' };
    const p = parse('extends: lib/base.yaml\nclient: {retries: 1}\n', { files });
    expect(explained(p, 'client.timeout')).toMatchObject({ text: '3s', from: { kind: 'base', at: { source: 'lib/base.yaml', line: 3 } } });
    expect(explained(p, 'client.retries')).toMatchObject({ value: 1, from: { kind: 'file', at: { source: 'a.yaml', line: 2 } } });
  });

  it('a key --set or --actions gives: the option, over the file and its chain', () => {
    const files = { 'base.yaml': 'client: {timeout: 3s}\n' };
    const p = parse('extends: base.yaml\nactions: 100\n', { set: ['client.timeout=4s'], actions: '50', files });
    expect(explained(p, 'client.timeout')).toEqual({ key: 'client.timeout', value: 4000, text: '4s', from: { kind: 'set', at: { source: '--set client.timeout=4s' } } });
    expect(explained(p, 'actions')).toMatchObject({ value: 50, from: { kind: 'set', at: { source: '--actions 50' } } });
    // --set on the built-in defaults.
    expect(explained(parseScenario('', '(built-in lab defaults)', parseOverrides({ set: ['network.reply_loss=0'] })), 'network.reply_loss').from.kind).toBe('set');
  });

  it('a latency fitted to percentiles: the percentiles as written, the lognormal fitted to them', () => {
    const p = parse('service:\n  latency: {p50: 200ms, p99: 2s}\n');
    expect(explained(p, 'service.latency.p99')).toMatchObject({ value: 2000, text: '2s', from: { kind: 'file', at: { line: 2 } } });
    expect(explained(p, 'service.latency.median')).toMatchObject({ value: 200, from: { kind: 'file', fitted: true, at: { line: 2 } } });
    expect(explained(p, 'service.latency.dist').from).toMatchObject({ kind: 'file', fitted: true });
  });

  it('a queue of no bound reads unbounded, as a file writes it; actions under load.duration, the count the duration sets', () => {
    expect(explained(parse('service: {capacity: {workers: 4}}\n'), 'service.capacity.queue')).toMatchObject({ value: null, text: 'unbounded' });
    // 50 a second (the default rate) for an hour: 180,000 expected, the default 4,000 never read.
    expect(explained(parse('load: {duration: 1h}\n'), 'actions')).toMatchObject({ value: 180_000, text: 'set by load.duration: about 180,000 (a Poisson count a seed draws)' });
    expect(explained(parse('actions: 100\n'), 'actions').text).toBe('100');
  });

  it('every key the run takes, once, in the order of the shape', () => {
    const keys = explainKeys(parse('actions: 100\n')).map((k) => k.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.slice(0, 3)).toEqual(['actions', 'load.rate_per_s', 'load.profile']);
    expect(keys).toEqual(expect.arrayContaining(['service.latency.median', 'service.latency.sigma', 'client.backoff.jitter', 'agent.replan_delay.max', 'idempotency.on_store_down', 'alerts']));
    expect(explainKeys(parse('actions: 100\n')).every((k) => k.from.kind === 'default' || k.key === 'actions')).toBe(true);
  });
});

const AGENT = `agent: {calls_per_s: 10, auto_retry: idempotent}
defaults:
  client: {timeout: 2s}
  network: {reply_loss: 0.01}
tools:
  - name: pay
    share: 0.5
    scenario:
      client: {timeout: 5s}
      idempotency: {scope: intent}
  - name: look
    share: 0.5
    annotations: {readOnlyHint: true}
`;

describe("an agent file's tools", () => {
  const tool = (name: string, overrides = parseOverrides({})) => parseAgent(AGENT, 'agent.yaml', 'agent', overrides).tools.find((t) => t.name === name)?.parsed as ParsedScenario;

  it("a key of the agent's defaults: its line under defaults:; the tool's own key: its line under the tool", () => {
    expect(keySource(tool('look'), ['client', 'timeout'])).toEqual({ kind: 'agent-defaults', at: { source: 'agent.yaml', line: 3, col: 12 } });
    expect(keySource(tool('pay'), ['network', 'reply_loss'])).toMatchObject({ kind: 'agent-defaults', at: { line: 4 } });
    expect(keySource(tool('pay'), ['client', 'timeout'])).toMatchObject({ kind: 'file', at: { source: 'agent.yaml', line: 9 } });
    expect(keySource(tool('pay'), ['agent', 'replan_probability'])).toEqual({ kind: 'default' });
  });

  it('what the agent sets: the load, and no retries for a tool its client does not retry', () => {
    expect(explained(tool('pay'), 'load.rate_per_s')).toMatchObject({ value: 5, text: '5', from: { kind: 'agent', why: "its calls a second times the tool's share" } });
    // pay has no annotations: under auto_retry: idempotent its client does not retry it; look is read-only.
    expect(keySource(tool('pay'), ['client', 'retries'])).toEqual({ kind: 'agent', why: 'its client does not retry this tool (agent.auto_retry)' });
    expect(keySource(tool('look'), ['client', 'retries'])).toEqual({ kind: 'default' });
  });

  it('--set of a tool or of the defaults, and --actions: the option', () => {
    const overrides = parseOverrides({ set: ['tools.pay.client.timeout=7s', 'defaults.network.reply_loss=0.03'], actions: '300' });
    expect(keySource(tool('pay', overrides), ['client', 'timeout'])).toEqual({ kind: 'set', at: { source: '--set tools.pay.client.timeout=7s' } });
    expect(keySource(tool('look', overrides), ['network', 'reply_loss'])).toEqual({ kind: 'set', at: { source: '--set defaults.network.reply_loss=0.03' } });
    expect(keySource(tool('look', overrides), ['actions'])).toEqual({ kind: 'set', at: { source: '--actions 300' } });
  });
});

describe('the lab values a scenario runs on without writing them', () => {
  const inherited = (p: ParsedScenario) => labDefaultsInherited(p).map((d) => d.path);

  it('are the chances of what goes wrong, and of re-plans, whose default is not 0: 2% lost replies, 60% re-plans', () => {
    for (const path of EVENT_CHANCES) expect(paramAt(path)?.kind, path).toBe('probability');
    expect(LAB_DEFAULTS).toEqual(['network.reply_loss', 'agent.replan_probability']);
    expect(DEFAULT_SCENARIO.network.reply_loss).toBe(0.02);
  });

  it('a file that writes neither runs on both', () => {
    expect(labDefaultsInherited(parse('idempotency: {scope: intent}\n'))).toEqual([
      { path: 'network.reply_loss', value: 0.02, meaning: 'chance a reply is lost' },
      { path: 'agent.replan_probability', value: 0.6, meaning: 'chance the model re-issues a failed call' },
    ]);
  });

  it('a key written anywhere is not inherited: the file (even at the lab\'s value), its base, --set, an agent\'s defaults', () => {
    expect(inherited(parse('network: {reply_loss: 0.02}\n'))).toEqual(['agent.replan_probability']);
    expect(inherited(parse('extends: b.yaml\n', { files: { 'b.yaml': 'agent: {replan_probability: 0.6}\n' } }))).toEqual(['network.reply_loss']);
    expect(inherited(parse('actions: 10\n', { set: ['network.reply_loss=0.02', 'agent.replan_probability=0'] }))).toEqual([]);
    const tools = parseAgent(AGENT, 'agent.yaml', 'agent').tools;
    expect(tools.map((t) => inherited(t.parsed))).toEqual([['agent.replan_probability'], ['agent.replan_probability']]);
  });

  it('one the other settings make inert changes no number, and is not named', () => {
    expect(inherited(parse('agent: {max_replans: 0}\n'))).toEqual(['network.reply_loss']);
  });

  it('the note names the key paths, their values and the line that keeps them', () => {
    const text = labNote('pay.yaml', labDefaultsInherited(parse('actions: 10\n')));
    expect(text).toBe("pay.yaml runs on the guide's lab values of network.reply_loss 0.02 (chance a reply is lost) and agent.replan_probability 0.6 (chance the model re-issues a failed call), "
      + 'built-in defaults it does not write. Write them in the scenario to keep or change them (such as network.reply_loss: 0.02, which keeps the value) and this note ends; '
      + 'idem-sim explain pay.yaml shows where every key comes from.');
    expect(text).not.toContain('\n');
  });

  it('is said on stderr once for a file that inherits them, and not at all for one that writes them, or for the built-in defaults', () => {
    const said = (file: string | null, parsed: ParsedScenario[]) => {
      const stderr = new PassThrough();
      const text = labDefaultsNote(file, parsed.map((p) => ({ parsed: p })));
      sayNotes({ stderr }, text === undefined ? [] : [text, text]);
      return String(stderr.read() ?? '');
    };
    expect(said('a.yaml', [parse('actions: 10\n')])).toMatch(/^idem-sim: note: a\.yaml runs on the guide's lab values of network\.reply_loss 0\.02 [^\n]*\n$/);
    expect(said('a.yaml', [parse('network: {reply_loss: 0.02}\nagent: {replan_probability: 0.6}\n')])).toBe('');
    expect(said(null, [parse('')])).toBe('');
  });

  it("an agent file's note names the tools that run on a value, when not all of them do", () => {
    const agent = parseAgent(AGENT.replace('  network: {reply_loss: 0.01}\n', ''), 'agent.yaml', 'agent', parseOverrides({ set: ['tools.pay.network.reply_loss=0.1'] }));
    expect(labDefaultsNote('agent.yaml', agent.tools.map((t) => ({ name: t.name, parsed: t.parsed })))).toContain('network.reply_loss 0.02 (chance a reply is lost: tools look) and agent.replan_probability 0.6 (chance the model re-issues a failed call), built-in defaults it does not write. '
      + "Write them under defaults: (every tool) or in a tool's scenario: to keep or change them");
  });
});
