/**
 * docs/csv.md's "Agent sweeps" lists the columns `sweep AGENT --format csv` writes, in their
 * order, as the code words them (report/agent-sweep-csv.ts): the doc and the code cannot drift
 * apart, as test/csv-doc.test.ts holds the other CSVs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentReadings } from '../src/agent/readings.js';
import { AGENT_SWEEP_READING_COLUMNS, AGENT_SWEEP_TRAILING, agentSweepColumns, costColumns, renderAgentSweepCsv, toolColumns } from '../src/report/agent-sweep-csv.js';
import type { AgentSweepReport } from '../src/report/agent-sweep.js';
import { AGENT_COLUMNS, TOOL_COLUMNS } from '../src/report/runs-csv.js';
import { SUMMARY } from '../src/report/sweep.js';
import { ROOT, sim } from './helpers.js';

const WHOLE = readFileSync(join(ROOT, 'docs/csv.md'), 'utf8');
const SECTION = (WHOLE.split('\n## Agent sweeps\n')[1] ?? '').split('\n## ')[0] as string;
/** The section's table: [column, unit, holds]. */
const ROWS = [...SECTION.matchAll(/^\| (.+?) \|\s*([^|]*?)\s*\| (.*) \|$/gm)].map((m) => [m[1] as string, (m[2] as string).trim(), m[3] as string]).filter((r) => r[0] !== 'column' && r[0] !== '---');

const metrics = sim('actions: 200\n', 200);
const cost = (amount: number, per: string, money: boolean) => ({ amount, per, money });
/** A point of two tools, one costing in USD and one in tickets, with a duration varied and a word. */
const REPORT: AgentSweepReport = {
  file: 'a.yaml', name: 'a', paths: ['defaults.client.timeout', 'tools.b.idempotency.scope'], keys: ['client.timeout', 'idempotency.scope'], seed: '1', version: 'test', replay: '',
  points: [{
    params: { 'defaults.client.timeout': 1000, 'tools.b.idempotency.scope': 'intent' },
    agent: {
      name: 'a', file: 'a.yaml', seed: '1', warnings: [], traffic: { calls_per_s: 1, conversations_per_s: null, calls_per_conversation: 1, auto_retry: 'all' },
      tools: [], readings: agentReadings([
        { name: 'a', share: 0.5, cost: { duplicate: cost(40, 'USD', true), lost: null }, metrics, duplicated: { mean: 0, half: 0 }, readOnly: false },
        { name: 'b', share: 0.5, cost: { duplicate: cost(1, 'ticket', false), lost: null }, metrics, duplicated: { mean: 0, half: 0 }, readOnly: false },
      ], 1),
    },
    tools: [{ name: 'a', seed: '1/a', metrics, coupled: false }, { name: 'b', seed: '1/b', metrics, coupled: false }],
  }],
};

describe('docs/csv.md, "Agent sweeps"', () => {
  it('gives the columns in the order the CSV writes them', () => {
    const header = (renderAgentSweepCsv(REPORT).split('\n')[0] as string).split(',');
    expect(header).toEqual(agentSweepColumns(REPORT).map((c) => c.name));
    expect(header).toEqual([
      'param_defaults.client.timeout_ms', 'param_tools.b.idempotency.scope',
      ...AGENT_SWEEP_READING_COLUMNS.map((c) => c.name), ...costColumns('USD').map((c) => c.name), ...costColumns('ticket').map((c) => c.name),
      ...toolColumns('a').map((c) => c.name), ...toolColumns('b').map((c) => c.name), ...AGENT_SWEEP_TRAILING.map((c) => c.name),
    ]);
    expect(ROWS.map((r) => r[0])).toEqual(['`param_<path>`', '`param_<path>_ms`', '*the agent\'s readings*', '`agent_cost_per_day_<per>` and its `_ci95_low`, `_ci95_high`',
      '`<TOOL>.<metric>` and its `_ci95_low`, `_ci95_high`', '`seed`', '`idem_sim_version`']);
  });

  it('names the first and last of the run CSV\'s agent columns it takes, and all of them but what a tool\'s row says of the tool', () => {
    const readings = ROWS[2]?.[2] ?? '';
    const names = AGENT_SWEEP_READING_COLUMNS.map((c) => c.name);
    expect(names).toEqual(AGENT_COLUMNS.filter((c) => !TOOL_COLUMNS.includes(c)).map((c) => c.name));
    expect(readings).toContain(`from \`${names[0]}\` to \`${names.at(-1)}\``);
  });

  it('lists each tool\'s metrics, the sweep table\'s, in their order', () => {
    const listed = [...(ROWS[4]?.[2] ?? '').matchAll(/`([a-z0-9_.]+)`/g)].map((m) => m[1]).filter((n) => n !== 'refund_order.duplicates_per_1000');
    expect(listed).toEqual([...SUMMARY]);
    expect(toolColumns('a').map((c) => c.name)).toEqual(SUMMARY.flatMap((m) => (m === 'call_latency_ms.p95' || m === 'key_store_mb' ? [`a.${m}`] : [`a.${m}`, `a.${m}_ci95_low`, `a.${m}_ci95_high`])));
  });

  it('words the run information as the code does', () => {
    expect(ROWS.slice(-2)).toEqual(AGENT_SWEEP_TRAILING.map((c) => [`\`${c.name}\``, c.unit, c.description]));
  });
});
