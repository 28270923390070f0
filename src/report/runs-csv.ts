/**
 * `run --format csv` without `--series`: one row per run (each scenario given, and each tool of an
 * agent file), and one per agent, for spreadsheets. The metric columns are the sweep CSV's
 * (csv.ts, from the metric registry); an agent file adds the agent's columns (its readings, and
 * each tool's part of them). docs/csv.md lists the columns (a unit test holds the two together).
 */
import { AGENT_READINGS, COST_READING, type Reading } from '../agent/readings.js';
import { readMetric } from '../results/metric-paths.js';
import { METRICS } from '../results/metric-registry.js';
import { coupledMetrics } from '../results/capacity.js';
import type { AgentRun } from './agent.js';
import { CI_SUFFIXES, csvMetricPaths, csvText, metricColumns, reportedBy, type CsvColumn } from './csv.js';
import { saturationCell, saturationColumns } from './saturation-text.js';
import type { RunInfo, ScenarioRun } from './types.js';

/** The columns before the metrics. */
export const RUN_COLUMNS: readonly CsvColumn[] = [
  { name: 'kind', unit: '', description: 'scenario (a file given to run), tool (a tool of an agent file) or agent (the agent\'s readings: its tools summed)' },
  { name: 'name', unit: '', description: 'the scenario\'s name (its file name without extension, or lab-defaults), the tool\'s, or the agent\'s' },
  { name: 'agent', unit: '', description: 'the agent a tool or an agent row belongs to; empty for a scenario' },
];

/** What a tool's row says of the tool besides its readings (empty in the agent's row). */
export const TOOL_COLUMNS: readonly CsvColumn[] = [
  { name: 'share', unit: 'fraction (0 to 1)', description: 'the tool\'s share of the agent\'s calls (1 for the agent)' },
  { name: 'read_only', unit: '', description: 'true when the tool is marked readOnlyHint: its repeats are in its row, not in the agent\'s duplicates' },
  { name: 'retried', unit: '', description: 'true when the agent\'s client retries the tool (agent.auto_retry and its annotations)' },
];

/** The agent's columns of a tool's and the agent's rows (an agent file among the runs only). */
export const AGENT_COLUMNS: readonly CsvColumn[] = [
  ...TOOL_COLUMNS,
  ...AGENT_READINGS.flatMap((d) => withCi(`agent_${d.path}`, d.kind === 'estimate', d.description, d.unit)),
];

/** A cost's columns: one reading (and its interval) per currency or unit the tools' costs name. */
const costColumns = (per: string): CsvColumn[] => withCi(`agent_${COST_READING}_${per}`, true, `cost a day in ${per}: duplicates and lost actions priced by the tools' costs`, `${per} per day`);

export const TRAILING: readonly CsvColumn[] = [
  { name: 'seed', unit: '', description: 'the seed of the run (an agent\'s: each tool runs on SEED/TOOL)' },
  { name: 'idem_sim_version', unit: '', description: 'the idem-sim version that wrote the file' },
];

function withCi(name: string, estimate: boolean, description: string, unit: string): CsvColumn[] {
  const value = { name, unit, description };
  return estimate ? [value, ...CI_SUFFIXES.map((s, i) => ({ name: `${name}${s}`, unit, description: `${i === 0 ? 'lower' : 'upper'} end of ${name}'s 95% confidence interval` }))] : [value];
}

const round = (x: number) => Number(x.toPrecision(12));
const cells = (r: Reading | undefined, estimate: boolean): (number | string)[] => {
  if (!r) return estimate ? ['', '', ''] : [''];
  return estimate ? [round(r.value), ...(r.ci95 ? r.ci95.map(round) : ['', ''])] : [round(r.value)];
};

export function renderRunsCsv(runs: readonly ScenarioRun[], info: RunInfo, agents: readonly AgentRun[] = []): string {
  const coupled = runs.some((r) => coupledMetrics(r.metrics));
  const paths = csvMetricPaths(coupled, reportedBy(runs.map((r) => r.metrics)));
  const pers = [...new Set(agents.flatMap((a) => [...a.readings.cost_per_day.keys()]))];
  const agentCols = agents.length > 0 ? [...AGENT_COLUMNS, ...pers.flatMap(costColumns)] : [];
  const toolOf = new Map(agents.flatMap((a) => a.tools.map((t, i) => [t.run, { agent: a, i }] as const)));
  const empty = (n: number) => new Array<string>(n).fill('');
  const pathCells = (r: ScenarioRun) => paths.flatMap((p) => {
    const m = readMetric(r.metrics, p);
    const v = m.value === null ? '' : round(m.value);
    if (METRICS[p].kind !== 'estimate') return [v];
    return m.ci95 ? [v, round(m.ci95[0]), round(m.ci95[1])] : [v, '', ''];
  });
  const saturation = saturationColumns(runs.map((r) => r.metrics));
  const metricCells = (r: ScenarioRun) => [...pathCells(r), ...saturation.map((c) => saturationCell(r.metrics, c))];
  const metricWidth = paths.flatMap(metricColumns).length + saturation.length;
  const rows: unknown[][] = [];
  for (const r of runs) {
    const tool = toolOf.get(r.name);
    if (!tool) {
      rows.push(['scenario', r.name, '', ...metricCells(r), ...empty(agentCols.length), r.seed, info.version]);
      continue;
    }
    const t = tool.agent.readings.tools[tool.i];
    const own = t ? {
      calls_per_day: t.calls_per_day, duplicates_per_day: t.duplicates_per_day, lost_per_day: t.lost_per_day, duplicated_calls_per_1000: t.duplicated_calls_per_1000,
    } as Partial<Record<string, Reading>> : {};
    const about = tool.agent.tools[tool.i];
    rows.push(['tool', about?.name, tool.agent.name, ...metricCells(r), t?.share ?? '', String(about?.annotations.readOnlyHint ?? ''), String(about?.retried ?? ''),
      ...AGENT_READINGS.flatMap((d) => cells(own[d.path], d.kind === 'estimate')), ...pers.flatMap((p) => cells(t?.cost_per_day.get(p), true)), r.seed, info.version]);
  }
  for (const a of agents) {
    rows.push(['agent', a.name, a.name, ...empty(metricWidth), 1, '', '', ...AGENT_READINGS.flatMap((d) => cells(a.readings.readings[d.path], d.kind === 'estimate')),
      ...pers.flatMap((p) => cells(a.readings.cost_per_day.get(p), true)), a.seed, info.version]);
  }
  return csvText(rows, [...[...RUN_COLUMNS, ...paths.flatMap(metricColumns)].map((c) => c.name), ...saturation, ...[...agentCols, ...TRAILING].map((c) => c.name)]);
}
