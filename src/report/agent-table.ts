/**
 * An agent's table (docs/agents.md): its readings beside its tools' parts of them, after the run
 * table of its tools' own columns. Pure.
 */
import type { ChalkInstance } from 'chalk';
import { AGENT_READINGS, type Costs, type Reading, type ToolReadings } from '../agent/readings.js';
import type { AgentRun } from './agent.js';
import { columnGroups } from './column-groups.js';
import { agentReadingText, num } from './format.js';
import { drawRows } from './sweep-table.js';

const text = (r: Reading): string => agentReadingText(r.value, r.ci95 ?? null);
/** A cost's label: money's code, or the unit counted (`tickets`). */
const costLabel = (per: string): string => `cost per day (${per})`;
const costCell = (c: Costs, per: string): string => {
  const r = c.get(per);
  return r ? text(r) : '–';
};

/**
 * The agent table's rows, laid out once for every format (the terminal's table, the report's
 * page): a label, then one cell per tool, then the agent's.
 */
export function agentRows(a: AgentRun): string[][] {
  const r = a.readings;
  const pers = [...r.cost_per_day];
  const tool = (f: (t: ToolReadings) => string) => r.tools.map(f);
  const rows: string[][] = [
    ['share of calls', ...tool((t) => num(t.share)), '1'],
    ['retried by the client', ...a.tools.map((t) => (t.retried ? 'yes' : 'no')), a.traffic.auto_retry],
    ['tool calls per day', ...tool((t) => num(t.calls_per_day.value)), num(r.readings.calls_per_day.value)],
    ['duplicates per day', ...tool((t) => text(t.duplicates_per_day)), text(r.readings.duplicates_per_day)],
    ['lost actions per day', ...tool((t) => text(t.lost_per_day)), text(r.readings.lost_per_day)],
    ['calls duplicated per 1000', ...tool((t) => text(t.duplicated_calls_per_1000)), text(r.readings.duplicated_calls_per_1000)],
    ...pers.map(([per, c]) => [costLabel(per), ...tool((t) => costCell(t.cost_per_day, per)), text(c)]),
  ];
  const agentOnly = AGENT_READINGS.filter((d) => d.path === 'duplicates_per_1000_calls' || d.path === 'conversation_duplicate_chance' || d.path === 'key_store_mb');
  const conversation = `${a.traffic.calls_per_conversation} call${a.traffic.calls_per_conversation === 1 ? '' : 's'}`;
  rows.push(...agentOnly.map((d) => [d.path === 'conversation_duplicate_chance' ? d.label.replace('a conversation', `a conversation (${conversation})`) : d.label, ...a.tools.map(() => ''), text(r.readings[d.path])]));
  return rows;
}

/** The note under an agent's table on its read-only tools ('' when none is). */
export function readOnlyNote(a: AgentRun): string {
  const readOnly = a.tools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name);
  return readOnly.length === 0 ? '' : `${readOnly.join(', ')} ${readOnly.length === 1 ? 'is' : 'are'} marked read-only: ${readOnly.length === 1 ? 'its' : 'their'} repeats are in ${readOnly.length === 1 ? 'its column' : 'their columns'}, not in the agent's duplicates (a read repeated changes nothing)`;
}

/** The readings table of each agent, columns its tools and the agent; `width` as the run table's. */
export function renderAgentTables(agents: readonly AgentRun[], chalk: ChalkInstance, width?: number): string {
  return agents.map((a) => {
    const rows = agentRows(a);
    const head = ['', ...a.tools.map((t) => chalk.bold(t.name)), chalk.bold(`agent ${a.name}`)];
    const align = ['left' as const, ...a.tools.map(() => 'right' as const), 'right' as const];
    const readOnly = readOnlyNote(a);
    const note = readOnly === '' ? '' : `\n${chalk.dim(readOnly)}`;
    const whole = drawRows(head, rows, align);
    const top = whole.slice(0, whole.indexOf('\n'));
    if (width === undefined || top.length <= width) return `${chalk.bold.cyan(`Agent ${a.name}`)}\n${whole}${note}`;
    // Too wide: the tools in groups, the agent's column with each.
    const [label = 0, ...columns] = top.slice(1, -1).split('┬').map((run) => run.length);
    const agentWidth = columns.pop() ?? 0;
    const groups = columnGroups(label + agentWidth + 1, columns, width);
    return `${chalk.bold.cyan(`Agent ${a.name}`)}\n${groups.map(([from, to]) => drawRows(
      [head[0] as string, ...head.slice(1 + from, 1 + to), head.at(-1) as string],
      rows.map((row) => [row[0] as string, ...row.slice(1 + from, 1 + to), row.at(-1) as string]),
      ['left', ...align.slice(1 + from, 1 + to), 'right'],
    )).join('\n\n')}${note}`;
  }).join('\n\n');
}

