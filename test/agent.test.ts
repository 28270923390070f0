/**
 * Agent files (docs/agents.md): each tool's scenario is composed as documented, the agent's
 * readings are the sums and products of its tools' own runs, and bad files are refused with the
 * file, line and key path.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAgent, type ParsedAgent } from '../src/agent/parse.js';
import { agentReadings, readReading, type ToolResult } from '../src/agent/readings.js';
import { checkAgentExpectation } from '../src/agent/expect.js';
import { simulate } from '../src/exec/simulate.js';
import { parseScenario } from '../src/scenario/parse.js';
import { InputError } from '../src/scenario/errors.js';
import type { BaseFiles } from '../src/scenario/extends.js';
import { ROOT, runnable } from './helpers.js';

const SUPPORT = join(ROOT, 'scenarios/agents/support-agent.yaml');

const AGENT = `agent: {calls_per_s: 10, calls_per_conversation: 3}
defaults:
  actions: 20000
  client: {timeout: 1s, retries: 2}
  network: {reply_loss: 0.05}
tools:
  - name: refund
    share: 0.25
    cost: {duplicate: {amount: 40, currency: USD}, lost: {amount: 1, unit: ticket}}
    scenario: {idempotency: {scope: call}}
  - name: email
    share: 0.75
    annotations: {destructiveHint: false}
    cost: {duplicate: {amount: 2, currency: USD}}
    scenario: {client: {timeout: 500ms}}
`;

const parse = (text: string, overrides = []) => parseAgent(text, 'agent.yaml', 'agent', overrides);

/** The error a text gets, as the user reads it. */
function refusal(text: string): InputError {
  try {
    parse(text);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('the agent file was accepted');
}

function run(agent: ParsedAgent): ToolResult[] {
  return agent.tools.map((t) => {
    const r = simulate(runnable(t.parsed.scenario), `1/${t.name}`);
    return { name: t.name, share: t.share, cost: t.cost, metrics: r.metrics, duplicated: r.state.counter('duplicated'), readOnly: t.annotations.readOnlyHint };
  });
}

describe('an agent file', () => {
  it('composes each tool from the defaults, its own keys and the agent\'s traffic', () => {
    const a = parse(AGENT);
    expect(a.callsPerS).toBe(10);
    const [refund, email] = a.tools as [ParsedAgent['tools'][number], ParsedAgent['tools'][number]];
    expect(refund.parsed.scenario.load.rate_per_s).toBeCloseTo(2.5, 12);
    expect(email.parsed.scenario.load.rate_per_s).toBeCloseTo(7.5, 12);
    expect(refund.parsed.scenario.client.timeout).toBe(1000);
    expect(email.parsed.scenario.client.timeout).toBe(500);
    expect(refund.parsed.scenario.idempotency.scope).toBe('call');
    expect(email.parsed.scenario.network.reply_loss).toBe(0.05);
    // MCP's defaults for hints left out: destructive, not idempotent, not read-only.
    expect(refund.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(refund.cost).toEqual({ duplicate: { amount: 40, per: 'USD', money: true }, lost: { amount: 1, per: 'ticket', money: false } });
  });

  it('is the same run as the scenario file a tool stands for', () => {
    const a = parse(AGENT);
    const alone = parseScenario('actions: 20000\nload: {rate_per_s: 7.5}\nclient: {timeout: 500ms, retries: 2}\nnetwork: {reply_loss: 0.05}\n', 'email.yaml').scenario;
    const tool = a.tools[1]?.parsed.scenario;
    expect(tool).toEqual(alone);
    expect(simulate(runnable(tool!), 's').metrics).toEqual(simulate(runnable(alone), 's').metrics);
  });

  it('retries only the tools its annotations allow under auto_retry: idempotent, and warns of a retries key it overrides', () => {
    const text = AGENT.replace('calls_per_conversation: 3}', 'calls_per_conversation: 3, auto_retry: idempotent}')
      .replace('annotations: {destructiveHint: false}', 'annotations: {destructiveHint: false, idempotentHint: true}\n    scenario0: 1');
    const a = parse(text.replace('\n    scenario0: 1', ''));
    expect(a.tools.map((t) => [t.name, t.retried, t.parsed.scenario.client.retries])).toEqual([['refund', false, 0], ['email', true, 2]]);
    // The retries key in defaults still drives email, which the client retries: it has an effect.
    expect(a.warnings.filter((x) => x.keyPath === 'client.retries')).toEqual([]);
    // Written for refund alone, it has none, and is warned of once at its line.
    const own = parse(text.replace('\n    scenario0: 1', '').replace('scenario: {idempotency: {scope: call}}', 'scenario: {idempotency: {scope: call}, client: {retries: 5}}'));
    const w = own.warnings.filter((x) => x.keyPath === 'client.retries');
    expect(w).toHaveLength(1);
    expect(w[0]?.problem).toMatch(/has no effect: agent.auto_retry is idempotent, so the client does not retry refund/);
    expect(w[0]?.origin).toMatchObject({ source: 'agent.yaml', line: 10 });
  });

  it('warns of a lying hint: marked idempotent with no key', () => {
    const a = parse(AGENT.replace('annotations: {destructiveHint: false}', 'annotations: {destructiveHint: false, idempotentHint: true}'));
    const w = a.warnings.find((x) => x.keyPath === 'tools[1].annotations.idempotentHint');
    expect(w?.problem).toMatch(/email is marked idempotent, but uses no idempotency key/);
    expect(w?.origin).toMatchObject({ line: 13 });
    // With a key that survives a repeat, the hint tells the truth.
    expect(parse(AGENT.replace('annotations: {destructiveHint: false}', 'annotations: {idempotentHint: true}').replace('scenario: {client: {timeout: 500ms}}', 'scenario: {idempotency: {scope: intent}}')).warnings).toEqual([]);
  });

  it('warns of a read-only tool whose duplicate costs something, and of a rate it sets itself', () => {
    const a = parse(AGENT.replace('annotations: {destructiveHint: false}', 'annotations: {readOnlyHint: true}').replace('scenario: {client: {timeout: 500ms}}', 'scenario: {load: {rate_per_s: 3}}'));
    expect(a.warnings.map((w) => w.keyPath).sort()).toEqual(['load.rate_per_s', 'tools[1].annotations.readOnlyHint']);
    expect(a.tools[1]?.parsed.scenario.load.rate_per_s).toBeCloseTo(7.5, 12);
  });

  it('takes --set on its own keys, on a tool by name, and --actions for every tool', () => {
    const a = parse(AGENT, [
      { path: ['defaults', 'client', 'timeout'], text: '3s', option: '--set defaults.client.timeout=3s' },
      { path: ['tools', 'email', 'idempotency', 'scope'], text: 'intent', option: '--set tools.email.idempotency.scope=intent' },
      { path: ['agent', 'calls_per_s'], text: '20', option: '--set agent.calls_per_s=20' },
      { path: ['actions'], text: '500', option: '--actions 500' },
    ] as never);
    expect(a.tools.map((t) => [t.parsed.scenario.client.timeout, t.parsed.scenario.idempotency.scope, t.parsed.scenario.load.rate_per_s, t.parsed.scenario.actions]))
      .toEqual([[3000, 'call', 5, 500], [500, 'intent', 15, 500]]);
  });
});

describe('--set on an agent file', () => {
  const set = (path: (string | number)[], text: string) => ({ path, text, option: `--set ${path.join('.')}=${text}` });

  it('replaces the file\'s traffic of the other form', () => {
    const a = parse(AGENT.replace('calls_per_s: 10', 'conversations_per_s: 1'), [set(['agent', 'calls_per_s'], '20')] as never);
    expect([a.callsPerS, a.conversationsPerS]).toEqual([20, null]);
  });

  it('sets an expectation by its name in expect:, winning over the file\'s', () => {
    const text = `${AGENT}expect:\n  refund.duplicates_per_1000: "< 1000"\n`;
    const a = parse(text, [set(['tools', 'refund', 'expect', 'duplicates_per_1000'], '< 0'), set(['expect', 'agent', 'keys'], '< 1')] as never);
    expect(a.tools[0]?.parsed.expectations.map((e) => e.text)).toEqual(['< 0']);
    expect(a.expectations.map((e) => [e.reading, e.text])).toEqual([['keys', '< 1']]);
  });
});

describe('a tool that extends a scenario file', () => {
  const base = (text: string): BaseFiles & { id: string } => ({
    id: 'agent.yaml', budget: { left: 100_000 }, read: (path) => ({ source: path, id: path, text }),
  });
  const text = AGENT.replace('scenario: {idempotency: {scope: call}}', 'scenario: {extends: refund.yaml, idempotency: {retention: 2h}}');

  it('starts from the file, whose keys win over the defaults, and its own keys win over both', () => {
    const a = parseAgent(text, 'agent.yaml', 'agent', [], base('client: {timeout: 4s}\nidempotency: {scope: intent, retention: 5m}\n'));
    const s = a.tools[0]?.parsed.scenario;
    expect([s?.client.timeout, s?.client.retries, s?.idempotency.scope, s?.idempotency.retention]).toEqual([4000, 2, 'intent', 7_200_000]);
    expect(a.tools[0]?.parsed.bases).toEqual(['refund.yaml']);
  });

  it('names the base file\'s line for a bad key written there', () => {
    let e: unknown;
    try { parseAgent(text, 'agent.yaml', 'agent', [], base('client:\n  timeout: fast\n')); } catch (x) { e = x; }
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).origin).toMatchObject({ source: 'refund.yaml', line: 2 });
  });
});

describe('the agent\'s readings', () => {
  it('are the sums and products of its tools\' own runs', () => {
    const a = parse(AGENT);
    const results = run(a);
    const r = agentReadings(results, a.callsPerConversation);
    const [refund, email] = results as [ToolResult, ToolResult];
    const day = (t: ToolResult) => t.metrics.actions_per_second * 86_400;
    expect(refund.metrics.duplicates_per_day.value).toBeGreaterThan(0);
    expect(r.readings.duplicates_per_day.value).toBeCloseTo(refund.metrics.duplicates_per_day.value + email.metrics.duplicates_per_day.value, 6);
    expect(r.readings.lost_per_day.value).toBeCloseTo((refund.metrics.lost_per_1000.value * day(refund) + email.metrics.lost_per_1000.value * day(email)) / 1000, 6);
    expect(r.readings.calls_per_day.value).toBeCloseTo(day(refund) + day(email), 6);
    expect(r.readings.keys.value).toBeCloseTo(refund.metrics.keys + email.metrics.keys, 9);
    expect(r.cost_per_day.get('USD')?.value).toBeCloseTo(40 * refund.metrics.duplicates_per_day.value + 2 * email.metrics.duplicates_per_day.value, 6);
    expect(r.cost_per_day.get('ticket')?.value).toBeCloseTo(refund.metrics.lost_per_1000.value * day(refund) / 1000, 6);
    // No twins here: a call is an action, and the chance one is duplicated is the counter's mean.
    const q = 0.25 * refund.duplicated.mean + 0.75 * email.duplicated.mean;
    expect(r.readings.duplicated_calls_per_1000.value).toBeCloseTo(1000 * q, 9);
    expect(r.readings.conversation_duplicate_chance.value).toBeCloseTo(1 - (1 - q) ** 3, 12);
    // The tools' rows are the agent's terms.
    expect(r.tools.reduce((s, t) => s + t.duplicates_per_day.value, 0)).toBeCloseTo(r.readings.duplicates_per_day.value, 6);
    // A duplicated action has at least one duplicate: the share duplicated never exceeds the duplicates per action.
    for (const t of results) expect(t.duplicated.mean).toBeLessThanOrEqual(t.metrics.duplicates_per_1000.value / 1000 + 1e-12);
  });

  it('leave a read-only tool\'s repeats out of the agent\'s duplicates', () => {
    const a = parse(AGENT.replace('annotations: {destructiveHint: false}', 'annotations: {readOnlyHint: true}').replace('cost: {duplicate: {amount: 2, currency: USD}}', ''));
    const results = run(a);
    const r = agentReadings(results, 3);
    const [refund, email] = results as [ToolResult, ToolResult];
    expect(email.metrics.duplicates_per_day.value).toBeGreaterThan(0);
    expect(r.readings.duplicates_per_day.value).toBe(refund.metrics.duplicates_per_day.value);
    expect(r.readings.duplicated_calls_per_1000.value).toBeCloseTo(1000 * 0.25 * refund.duplicated.mean, 9);
    expect(r.tools[1]?.duplicates_per_day.value).toBe(email.metrics.duplicates_per_day.value);
  });

  it('give a sum the root of the sum of its terms\' squared half-widths', () => {
    const a = parse(AGENT);
    const results = run(a);
    const r = agentReadings(results, 1);
    const halves = results.map((t) => t.metrics.duplicates_per_day.ci95[1] - t.metrics.duplicates_per_day.value);
    const d = r.readings.duplicates_per_day;
    expect(d.ci95![1] - d.value).toBeCloseTo(Math.hypot(...halves), 6);
    // One call a conversation: the conversation's chance is the call's.
    expect(r.readings.conversation_duplicate_chance.value).toBeCloseTo(r.readings.duplicated_calls_per_1000.value / 1000, 12);
  });

  it('are checked by agent-level expectations, cost_per_day alone naming the one currency', () => {
    const a = parse(`${AGENT}expect:\n  agent.cost_per_day.USD: "< 1"\n  agent.duplicates_per_day: "> 0"\n  refund.duplicates_per_1000: "< 1000"\n`);
    const r = agentReadings(run(a), a.callsPerConversation);
    expect(a.expectations.map((e) => [e.reading, checkAgentExpectation(e, r).pass])).toEqual([['cost_per_day.USD', false], ['duplicates_per_day', true]]);
    // The tool's expectation went to the tool, where `check` reads it as a scenario's own.
    expect(a.tools[0]?.parsed.expectations.map((e) => e.metric)).toEqual(['duplicates_per_1000']);
    expect(readReading(r, 'cost_per_day')).toBeUndefined(); // two currencies or units: USD and ticket
  });
});

describe('a bad agent file', () => {
  it.each([
    [AGENT.replace('share: 0.75', 'share: 0.7'), 'tools[].share', /the shares sum to 0.95, not 1/],
    [AGENT.replace('name: email', 'name: refund'), 'tools[1].name', /"refund" names tools\[0\] too/],
    [AGENT.replace('name: email', 'name: agent'), 'tools[1].name', /"agent" is the name expect: gives the agent's readings/],
    [AGENT.replace('calls_per_s: 10', 'calls_per_s: 10, conversations_per_s: 2'), 'agent.conversations_per_s', /gives the traffic a second time/],
    [AGENT.replace('{amount: 2, currency: USD}', '{amount: 2, currency: USD, unit: email}'), 'tools[1].cost.duplicate', /gives both a currency and a unit/],
    [AGENT.replace('{amount: 2, currency: USD}', '{amount: 2, currency: usd}'), 'tools[1].cost.duplicate.currency', /got "usd", expected an ISO 4217 code/],
    [AGENT.replace('share: 0.25', 'shares: 0.25'), 'tools[0].shares', /unknown key "shares"[^]*Did you mean `share`\?/],
    [AGENT.replace('actions: 20000', 'actions: 20000\n  expect: {lost_per_1000: "< 1"}'), 'defaults.expect', /not of the model every tool shares/],
    [`${AGENT}expect:\n  refnd.lost_per_1000: "< 1"\n`, 'expect.refnd.lost_per_1000', /names neither the agent nor one of its tools[^]*Did you mean `refund`\?/],
    [`${AGENT}expect:\n  agent.cost_per_day: "< 1"\n`, 'expect.agent.cost_per_day', /its tools cost in USD, ticket/],
    [AGENT.replace('scenario: {idempotency: {scope: call}}', 'scenario: {idempotency: {scope: cal}}'), 'idempotency.scope', /not one of the allowed values[^]*Did you mean `call`\?/],
    [AGENT.replace('scenario: {idempotency: {scope: call}}', 'scenario: {load: {profile: [{at: 0s, rate_per_s: 1}]}}'), 'load.profile', /cannot vary the rate of one tool/],
    [AGENT.replace('share: 0.25', 'share: 1e-300').replace('share: 0.75', 'share: 1'), 'tools[0].share', /under the least a rate may be[^]*at least 0.000001 of the agent's 10 calls a second/],
    [AGENT.replace('{amount: 2, currency: USD}', '{amount: .nan, currency: USD}'), 'tools[1].cost.duplicate.amount', /got NaN \(not a number\)/],
    [AGENT.replace('{amount: 2, currency: USD}', '{amount: 2, currency: ABC}'), 'tools[1].cost.duplicate.currency', /"ABC" is not an ISO 4217 currency code/],
    [AGENT.replace('calls_per_conversation: 3}', 'calls_per_conversation: 3, replan_probability: 0.5}'), 'agent.replan_probability', /Write it under defaults.agent.replan_probability/],
    [`${AGENT}expect:\n  email.nosuch: "< 1"\n`, 'expect.email.nosuch', /unknown key/],
    [AGENT.replace('annotations: {destructiveHint: false}', 'annotations: {title: "Send\\u202Eexe", destructiveHint: false}'), 'tools[1].annotations.title', /expected a title for people[^]*1 to 200 printable characters, not blank/],
    [AGENT.replace('annotations: {destructiveHint: false}', `annotations: {title: ${'x'.repeat(201)}, destructiveHint: false}`), 'tools[1].annotations.title', /expected a title for people[^]*1 to 200 printable characters, not blank/],
  ])('case %#', (text, keyPath, problem) => {
    const e = refusal(text);
    expect(e.keyPath).toBe(keyPath);
    expect(`${e.problem} ${e.fix}`).toMatch(problem);
    expect(e.origin?.source).toBe('agent.yaml');
  });

  it('takes MCP\'s annotations.title as its server gives it, for people: the model reads only the hints', () => {
    const titled = parse(AGENT.replace('annotations: {destructiveHint: false}', 'annotations: {title: "Send an e-mail", destructiveHint: false}'));
    expect(titled.tools[1]?.annotations).toEqual({ title: 'Send an e-mail', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(titled.tools[1]?.parsed.scenario).toEqual(parse(AGENT).tools[1]?.parsed.scenario);
    // 200 characters, counted as characters: an emoji is one.
    const emoji = '\u{1F4B8}'.repeat(200);
    expect(parse(AGENT.replace('annotations: {destructiveHint: false}', `annotations: {title: "${emoji}", destructiveHint: false}`)).tools[1]?.annotations.title).toBe(emoji);
  });

  it('is not read as a scenario by a command that takes one', () => {
    let e: unknown;
    try { parseScenario(AGENT, 'agent.yaml'); } catch (x) { e = x; }
    expect((e as InputError).problem).toMatch(/makes this an agent file/);
  });

  it('names the line a tool\'s bad scenario key was written on', () => {
    const e = refusal(AGENT.replace('scenario: {idempotency: {scope: call}}', 'scenario:\n      idempotency: {scope: cal}'));
    expect(e.origin).toMatchObject({ source: 'agent.yaml', line: 11 });
  });
});

describe('the bundled support agent', () => {
  it('has six tools whose shares sum to 1 and whose annotations tell no lie', () => {
    const a = parseAgent(readFileSync(SUPPORT, 'utf8'), SUPPORT, 'support-agent');
    expect(a.tools).toHaveLength(6);
    expect(a.warnings).toEqual([]);
    expect(a.tools.flatMap((t) => t.parsed.warnings)).toEqual([]);
    expect(a.callsPerS).toBe(8);
  });
});
