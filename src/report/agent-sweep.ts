/**
 * An agent file's sweep (docs/sweeps.md, "Agent files"): each point is the agent as `run`
 * reports it (report/agent.ts `AgentRun`: its readings, each tool's part of them) with each
 * tool's metrics. Table (a row per point of the agent's main readings, or a heat map of the
 * metric when two keys vary) and JSON here; CSV in agent-sweep-csv.ts. Pure.
 */
import type { ChalkInstance } from 'chalk';
import { readReading, type Reading, type ReadingPath } from '../agent/readings.js';
import { contractVersion } from '../model/capacity.js';
import { metricShort } from '../results/metric-registry.js';
import { readMetric } from '../results/metric-paths.js';
import type { Metrics } from '../results/metrics.js';
import type { AgentSweepMetric } from '../sweeps/agent-plan.js';
import type { Label } from '../sweeps/labels.js';
import { agentsJson, type AgentRun } from './agent.js';
import { estimateText, num } from './format.js';
import { roundNoise } from './json.js';
import { cell, show } from './sweep.js';
import { drawRows } from './sweep-table.js';
import type { PrecisionInfo } from './types.js';

/** One tool's run at a point: its seed (SEED/TOOL, the same at every point) and its metrics. */
export interface AgentSweepToolRun {
  name: string;
  seed: string;
  metrics: Metrics;
  /** Whether its scenario is coupled (docs/model.md, "Capacity") or has a trigger ("Inbound delivery"): the JSON's model version. */
  coupled: boolean;
  precision?: PrecisionInfo;
}

export interface AgentSweepPoint {
  /** Varied key path -> the value it took (sweeps/agent-plan.ts `agentPointParams`). */
  params: Record<string, Label>;
  /** The agent at this point, as `run` reports it. */
  agent: AgentRun;
  /** Each tool's run, in the agent's order. */
  tools: AgentSweepToolRun[];
}

export interface AgentSweepReport {
  /** The agent file, and the agent's name. */
  file: string;
  name: string;
  /** The varied paths, and the scenario key each names (a duration's unit; `agent.KEY` for the agent's own). */
  paths: string[];
  keys: string[];
  seed: string;
  version: string;
  replay: string;
  points: AgentSweepPoint[];
}

/** The agent's readings the table shows, each headed by a short name (the costs follow, one per currency or unit). */
const TABLE_READINGS: readonly (readonly [ReadingPath, string])[] = [
  ['duplicates_per_day', 'dup/day'], ['lost_per_day', 'lost/day'], ['duplicated_calls_per_1000', 'calls dup/1000'],
  // The tools' key stores summed: headed as one tool's key store is.
  ['conversation_duplicate_chance', 'conv. dup chance'], ['key_store_mb', metricShort('key_store_mb')],
];

/** Currencies and units the points' costs name, in their first order. */
export const costPers = (r: AgentSweepReport): { per: string; money: boolean }[] => {
  const seen = new Map<string, boolean>();
  for (const p of r.points) for (const [per, c] of p.agent.readings.cost_per_day) if (!seen.has(per)) seen.set(per, c.money);
  return [...seen].map(([per, money]) => ({ per, money }));
};

const readingText = (r: Reading | undefined): string => (r === undefined ? '–' : r.ci95 ? estimateText({ value: r.value, ci95: r.ci95 }) : num(r.value));

/** The metric's value (for colour) and its text at a point. */
export function metricAt(p: AgentSweepPoint, m: AgentSweepMetric): { value: number | null; text: string } {
  if (m.kind === 'agent') {
    const r = readReading(p.agent.readings, m.reading);
    return { value: r?.value ?? null, text: readingText(r) };
  }
  const tool = p.tools.find((t) => t.name === m.tool);
  if (!tool) return { value: null, text: '–' };
  return { value: readMetric(tool.metrics, m.metric).value, text: cell(tool.metrics, m.metric) };
}

/** A metric's heading: an agent reading's path, a tool's metric by the tool and the metric's short name. */
const heading = (m: AgentSweepMetric): string => (m.kind === 'agent' ? m.path : `${m.tool} ${metricShort(m.metric)}`);

export function renderAgentSweepTable(r: AgentSweepReport, metric: AgentSweepMetric, chalk: ChalkInstance): string {
  const tools = r.points[0]?.tools.length ?? 0;
  const footer = chalk.dim(`${r.points.length} points × ${tools} tools of agent ${r.name}, each tool from seed ${r.seed}/TOOL at every point (common random numbers); idem-sim ${r.version}\nreplay: ${r.replay}`);
  const labels = (p: AgentSweepPoint) => r.paths.map((path, i) => show(p.params[path] ?? null, r.keys[i] as string));
  if (r.paths.length === 2) return `${heatMap(r, metric, chalk)}\n${footer}\n`;
  const pers = costPers(r);
  const shown = TABLE_READINGS.map(([path]) => `agent.${path}`);
  const extra = shown.includes(metric.path) || pers.some((c) => metric.path === `agent.cost_per_day.${c.per}`) ? [] : [metric];
  const head = [...r.paths, ...TABLE_READINGS.map(([, short]) => short), ...pers.map((c) => `${c.money ? c.per : `${c.per}s`}/day`), ...extra.map(heading)];
  const rows = r.points.map((p) => [
    ...labels(p),
    ...TABLE_READINGS.map(([path]) => readingText(p.agent.readings.readings[path])),
    ...pers.map((c) => readingText(p.agent.readings.cost_per_day.get(c.per))),
    ...extra.map((m) => metricAt(p, m).text),
  ]);
  const table = drawRows(head.map((h) => chalk.bold(h)), rows, [...r.paths.map(() => 'left' as const), ...head.slice(r.paths.length).map(() => 'right' as const)]);
  return `${table}\n${footer}\n`;
}

/** Rows: the first key's values; columns: the second's; cells: the metric, coloured low to high on a terminal. */
function heatMap(r: AgentSweepReport, metric: AgentSweepMetric, chalk: ChalkInstance): string {
  const [rowPath, colPath] = r.paths as [string, string];
  const [rowKey, colKey] = r.keys as [string, string];
  const rows = [...new Set(r.points.map((p) => JSON.stringify(p.params[rowPath] ?? null)))];
  const cols = [...new Set(r.points.map((p) => JSON.stringify(p.params[colPath] ?? null)))];
  const at = new Map<string, { value: number | null; text: string }>();
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of r.points) {
    const key = `${JSON.stringify(p.params[rowPath] ?? null)}\u0000${JSON.stringify(p.params[colPath] ?? null)}`;
    const m = metricAt(p, metric);
    if (m.value !== null) { lo = Math.min(lo, m.value); hi = Math.max(hi, m.value); }
    if (!at.has(key)) at.set(key, m);
  }
  const paint = (v: number | null, text: string) => {
    if (v === null || hi === lo) return text;
    const f = (v - lo) / (hi - lo);
    return f < 1 / 3 ? chalk.green(text) : f < 2 / 3 ? chalk.yellow(text) : chalk.red(text);
  };
  const table = drawRows([chalk.bold(`${rowPath} \\ ${colPath}`), ...cols.map((c) => chalk.bold(show(JSON.parse(c) as Label, colKey)))],
    rows.map((row) => [show(JSON.parse(row) as Label, rowKey), ...cols.map((col) => {
      const m = at.get(`${row}\u0000${col}`);
      return m ? paint(m.value, m.text) : '';
    })]),
    ['left', ...cols.map(() => 'right' as const)]);
  return `${chalk.bold(metric.path)}\n${table}`;
}

/** The run JSON's `agents[]` entry (report/agent.ts), for one point. */
type AgentJson = { traffic: unknown; tools: { name: string; annotations: unknown; retried: boolean; cost: unknown; readings: unknown }[]; readings: unknown };

/**
 * Every point's params, the agent's readings and each tool's part of them (the same fields and
 * bytes as `run --json`'s `agents[].readings` for the point's --set) and each tool's metrics.
 */
export function renderAgentSweepJson(r: AgentSweepReport): string {
  const first = r.points[0] ? agentsJson([r.points[0].agent])[0] as AgentJson : undefined;
  const doc = {
    tool: 'idem-sim', version: r.version, model: contractVersion(r.points.some((p) => p.tools.some((t) => t.coupled))), time_unit: 'ms',
    replay: r.replay, agent: r.file, name: r.name, seed: r.seed, vary: r.paths,
    tools: first?.tools.map((t) => ({ name: t.name, annotations: t.annotations, cost: t.cost })) ?? [],
    points: r.points.map((p) => {
      const j = agentsJson([p.agent])[0] as AgentJson;
      return {
        params: p.params, traffic: j.traffic, readings: j.readings,
        tools: p.tools.map((t, i) => ({
          name: t.name, seed: t.seed, retried: j.tools[i]?.retried, readings: j.tools[i]?.readings,
          ...(t.precision ? { precision: t.precision } : {}), metrics: t.metrics,
        })),
      };
    }),
  };
  return `${JSON.stringify(doc, roundNoise, 2)}\n`;
}
