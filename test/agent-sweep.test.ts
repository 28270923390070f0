/**
 * An agent file's sweep planned (sweeps/agent-plan.ts): which keys it varies, the limit on
 * points × tools, each point's overrides as the agent file's reader applies them, the points'
 * labels, --metric; and its CSV's columns (report/agent-sweep-csv.ts).
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { parseAgent } from '../src/agent/parse.js';
import { agentReadings } from '../src/agent/readings.js';
import { writtenScenario } from '../src/report/json.js';
import { renderAgentSweepCsv } from '../src/report/agent-sweep-csv.js';
import { renderAgentSweepTable, type AgentSweepReport } from '../src/report/agent-sweep.js';
import { agentAxisKey, agentPointParams, agentPointView, agentSweepMetric, inheritingTools, readAgentAxes } from '../src/sweeps/agent-plan.js';
import { gridPoints } from '../src/sweeps/grid.js';
import { pointOverrides } from '../src/sweeps/plan.js';
import { InputError } from '../src/scenario/errors.js';
import { sim } from './helpers.js';

const AGENT = `agent: {calls_per_s: 10, calls_per_conversation: 3, auto_retry: idempotent}
defaults:
  actions: 2000
  client: {timeout: 1s, retries: 2}
tools:
  - name: refund
    share: 0.25
    annotations: {idempotentHint: true}
    cost: {duplicate: {amount: 40, currency: USD}}
    scenario: {idempotency: {scope: intent, retention: 1h}}
  - name: email
    share: 0.75
    cost: {duplicate: {amount: 1, unit: email}}
    scenario: {client: {timeout: 500ms}}
`;
const TOOLS = ['refund', 'email'];

/** The InputError `f` throws, as the user reads it. */
function refusal(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('not refused');
}

/** Each point of a sweep of AGENT over `vary`: its agent as the file's reader makes it, and its labels. */
function points(vary: string[]) {
  const { axes, keys } = readAgentAxes('agent.yaml', vary, TOOLS, () => 10_000);
  return gridPoints(axes).map((pt) => {
    const agent = parseAgent(AGENT, 'agent.yaml', 'agent', pointOverrides(axes, pt));
    return { agent, params: agentPointParams(axes, keys, pt, agentPointView(agent, agent.tools.map((t) => writtenScenario(t.parsed.scenario)))) };
  });
}

describe('the keys an agent sweep varies', () => {
  it('names a key every tool shares, one tool\'s key, or the agent\'s traffic and retries', () => {
    expect(agentAxisKey('defaults.client.timeout', TOOLS, '--vary')).toEqual({ kind: 'defaults', key: 'client.timeout' });
    expect(agentAxisKey('tools.refund.idempotency.retention', TOOLS, '--vary')).toEqual({ kind: 'tool', tool: 'refund', key: 'idempotency.retention' });
    expect(agentAxisKey('agent.calls_per_s', TOOLS, '--vary')).toEqual({ kind: 'agent', key: 'calls_per_s' });
  });

  it('refuses a tool it does not have, a key the agent sets, the file\'s keys and a scenario key without its place', () => {
    expect(refusal(() => agentAxisKey('tools.refnd.client.timeout', TOOLS, '--vary x')).message).toMatch(/no tool named "refnd".*Did you mean refund\?/s);
    expect(refusal(() => agentAxisKey('tools.refund.load.rate_per_s', TOOLS, '--vary x')).problem).toMatch(/set by the agent/);
    expect(refusal(() => agentAxisKey('defaults.load.profile', TOOLS, '--vary x')).problem).toMatch(/set by the agent/);
    expect(refusal(() => agentAxisKey('tools.refund.share', TOOLS, '--vary x')).problem).toMatch(/the tool's share/);
    expect(refusal(() => agentAxisKey('tools.refund.seed', TOOLS, '--vary x')).problem).toMatch(/not a setting of the model/);
    expect(refusal(() => agentAxisKey('client.timeout', TOOLS, '--vary x')).fix).toMatch(/defaults\.client\.timeout.*tools\.NAME/);
    expect(refusal(() => agentAxisKey('agent.name', TOOLS, '--vary x')).problem).toMatch(/not a key an agent file's sweep varies/);
  });

  it('counts points × tools against the limit, and says so', () => {
    const e = refusal(() => readAgentAxes('agent.yaml', ['defaults.client.timeout=1s,2s,3s'], TOOLS, () => 5));
    expect(e.problem).toBe('the grid has 3 points of 2 tools each, 6 runs, more than 5 (--max-points)');
    expect(e.fix).toBe('Vary fewer values, or raise the limit with --max-points 6.');
    expect(readAgentAxes('agent.yaml', ['defaults.client.timeout=1s,2s,3s'], TOOLS, () => 6).axes).toHaveLength(1);
  });

  it('reads a range by the scenario key the path names: a duration needs its unit', () => {
    expect(refusal(() => readAgentAxes('agent.yaml', ['tools.email.client.timeout=1..2:2'], TOOLS, () => 100)).problem).toMatch(/the key is a duration/);
    expect(readAgentAxes('agent.yaml', ['tools.email.client.timeout=1s..2s:2'], TOOLS, () => 100).axes[0]?.values).toEqual(['1000ms', '2000ms']);
  });

  it('refuses a sweep with nothing to vary', () => {
    expect(refusal(() => readAgentAxes('agent.yaml', [], TOOLS, () => 100)).problem).toBe('nothing to vary');
  });
});

describe('a point of an agent sweep', () => {
  it('sets one tool\'s key in that tool alone, labelled as its scenario holds it (ms)', () => {
    const [a, b] = points(['tools.refund.idempotency.retention=5m,2h']);
    expect(a?.agent.tools[0]?.parsed.scenario.idempotency.retention).toBe(300_000);
    expect(b?.agent.tools[0]?.parsed.scenario.idempotency.retention).toBe(7_200_000);
    expect([a?.params, b?.params]).toEqual([{ 'tools.refund.idempotency.retention': 300_000 }, { 'tools.refund.idempotency.retention': 7_200_000 }]);
  });

  it('sets a default in every tool that takes it, labelled by one that does', () => {
    const [a] = points(['defaults.client.timeout=3s']);
    // refund takes the default; email sets its own 500 ms.
    expect(a?.agent.tools.map((t) => t.parsed.scenario.client.timeout)).toEqual([3000, 500]);
    expect(a?.params).toEqual({ 'defaults.client.timeout': 3000 });
  });

  it('knows a default no tool takes: retries of a tool the client does not retry are the agent\'s', () => {
    const agent = parseAgent(AGENT, 'agent.yaml', 'agent', pointOverrides(...(() => {
      const { axes } = readAgentAxes('agent.yaml', ['defaults.client.retries=5'], TOOLS, () => 100);
      return [axes, gridPoints(axes)[0] as ReturnType<typeof gridPoints>[number]] as const;
    })()));
    const view = agentPointView(agent, agent.tools.map((t) => writtenScenario(t.parsed.scenario)));
    // email is not marked idempotent: with auto_retry idempotent it gets no retries.
    expect(agent.tools.map((t) => t.parsed.scenario.client.retries)).toEqual([5, 0]);
    expect(inheritingTools({ kind: 'defaults', key: 'client.retries' }, view)).toEqual(['refund']);
    expect(inheritingTools({ kind: 'defaults', key: 'client.timeout' }, view)).toEqual(['refund']);
  });

  it('labels the agent\'s own keys as the agent reads them', () => {
    const ps = points(['agent.calls_per_s=2,40', 'agent.auto_retry=all,none']);
    expect(ps.map((p) => p.params)).toEqual([
      { 'agent.calls_per_s': 2, 'agent.auto_retry': 'all' }, { 'agent.calls_per_s': 2, 'agent.auto_retry': 'none' },
      { 'agent.calls_per_s': 40, 'agent.auto_retry': 'all' }, { 'agent.calls_per_s': 40, 'agent.auto_retry': 'none' },
    ]);
    expect(ps[2]?.agent.tools.map((t) => t.parsed.scenario.load.rate_per_s)).toEqual([10, 30]);
  });
});

describe('--metric of an agent sweep', () => {
  it('takes agent.READING, a cost by its currency or unit, and TOOL.METRIC', () => {
    expect(agentSweepMetric('agent.conversation_duplicate_chance', TOOLS, ['USD', 'email'])).toMatchObject({ kind: 'agent', reading: 'conversation_duplicate_chance' });
    expect(agentSweepMetric('agent.cost_per_day.USD', TOOLS, ['USD', 'email'])).toMatchObject({ kind: 'agent', reading: 'cost_per_day.USD' });
    expect(agentSweepMetric('email.call_latency_ms.p95', TOOLS, [])).toEqual({ kind: 'tool', tool: 'email', metric: 'call_latency_ms.p95', path: 'email.call_latency_ms.p95' });
  });

  it('refuses cost_per_day alone over two currencies, a tool\'s unknown metric and a name of neither', () => {
    expect(refusal(() => agentSweepMetric('agent.cost_per_day', TOOLS, ['USD', 'email'])).problem).toMatch(/alone: its tools cost in USD, email/);
    expect(refusal(() => agentSweepMetric('email.duplicates_per_100', TOOLS, [])).fix).toMatch(/Did you mean email\.duplicates_per_1000\?/);
    expect(refusal(() => agentSweepMetric('duplicates_per_1000', TOOLS, [])).fix).toMatch(/agent\.READING/);
  });
});

describe('an agent sweep\'s report', () => {
  const agent = parseAgent(AGENT, 'agent.yaml', 'agent');
  const metrics = sim('actions: 200\n', 200);
  const point = (timeout: number) => {
    const results = agent.tools.map((t) => ({ name: t.name, share: t.share, cost: t.cost, metrics, duplicated: { mean: 0.01, half: 0.005 }, readOnly: false }));
    return {
      params: { 'defaults.client.timeout': timeout },
      agent: { name: 'agent', file: 'agent.yaml', seed: '1', traffic: { calls_per_s: 10, conversations_per_s: null, calls_per_conversation: 3, auto_retry: 'idempotent' as const }, warnings: [],
        tools: agent.tools.map((t) => ({ name: t.name, run: t.name, share: t.share, annotations: t.annotations, retried: t.retried, cost: t.cost })), readings: agentReadings(results, 3) },
      tools: agent.tools.map((t) => ({ name: t.name, seed: `1/${t.name}`, metrics, coupled: false })),
    };
  };
  const report: AgentSweepReport = {
    file: 'agent.yaml', name: 'agent', paths: ['defaults.client.timeout'], keys: ['client.timeout'], seed: '1', version: 'test', replay: 'idem-sim sweep agent.yaml', points: [point(1000), point(2000)],
  };

  it('writes a CSV row per point: the param in ms, the agent\'s readings, its costs, each tool\'s headline metrics', () => {
    const [head, ...rows] = renderAgentSweepCsv(report).trim().split('\n');
    const names = (head as string).split(',');
    expect(names.slice(0, 4)).toEqual(['param_defaults.client.timeout_ms', 'agent_calls_per_day', 'agent_duplicates_per_day', 'agent_duplicates_per_day_ci95_low']);
    expect(names).toEqual(expect.arrayContaining(['agent_cost_per_day_USD', 'agent_cost_per_day_email_ci95_high', 'refund.duplicates_per_1000', 'email.call_latency_ms.p95']));
    expect(names.slice(-2)).toEqual(['seed', 'idem_sim_version']);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.split(',')).toHaveLength(names.length);
    expect(rows.map((r) => r.split(',')[0])).toEqual(['1000', '2000']);
    // calls a day: both tools' actions a second (the fixture's run) over a day.
    expect(Number(rows[0]?.split(',')[1])).toBeCloseTo(2 * metrics.actions_per_second * 86_400, 6);
  });

  it('tables a row per point with durations in their unit, and the metric\'s column when the table lacks it', () => {
    const text = renderAgentSweepTable(report, { kind: 'tool', tool: 'refund', metric: 'attempts_per_action', path: 'refund.attempts_per_action' }, new Chalk({ level: 0 }));
    expect(text).toMatch(/│ defaults\.client\.timeout │ +dup\/day │/);
    expect(text).toMatch(/│ 1 s +│/);
    expect(text).toMatch(/USD\/day │ +emails\/day │ refund attempts\/action │/);
    expect(text).toMatch(/2 points × 2 tools of agent agent, each tool from seed 1\/TOOL/);
  });
});
