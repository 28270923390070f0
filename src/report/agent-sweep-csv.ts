/**
 * `sweep AGENT --format csv`: a header, then one row per point. Its columns: the varied keys,
 * the agent's readings with their intervals (the run CSV's agent columns, runs-csv.ts), its cost
 * a day in each currency or unit, then each tool's headline metrics (the sweep table's,
 * report/sweep.ts SUMMARY) named `TOOL.METRIC` as --metric and `expect:` name them. docs/csv.md
 * lists them ("Agent sweeps"; test/agent-sweep-csv-doc.test.ts holds the two together).
 */
import { AGENT_READINGS, COST_READING, type Reading } from '../agent/readings.js';
import { METRICS } from '../results/metric-registry.js';
import { readMetric } from '../results/metric-paths.js';
import { isDurationKey } from '../scenario/schema.js';
import { costPers, type AgentSweepReport } from './agent-sweep.js';
import { CI_SUFFIXES, csvText, metricColumns, type CsvColumn } from './csv.js';
import { AGENT_COLUMNS, TOOL_COLUMNS } from './runs-csv.js';
import { SUMMARY } from './sweep.js';

/** A varied key's column: `param_<path>`, `_ms` after a duration (its values are milliseconds); `key` the scenario key the path names. */
export const agentParamColumn = (path: string, key: string): string => (isDurationKey(key) ? `param_${path}_ms` : `param_${path}`);

/** The agent's reading columns: the run CSV's (what it says of a tool aside: every point is the whole agent). */
export const AGENT_SWEEP_READING_COLUMNS: readonly CsvColumn[] = AGENT_COLUMNS.filter((c) => !TOOL_COLUMNS.includes(c));

/** The columns after the tools'. */
export const AGENT_SWEEP_TRAILING: readonly CsvColumn[] = [
  { name: 'seed', unit: '', description: 'the agent\'s seed: every tool runs on SEED/TOOL, the same at every point (common random numbers)' },
  { name: 'idem_sim_version', unit: '', description: 'the idem-sim version that wrote the file' },
];

/** A cost's columns, as the run CSV names them: `agent_cost_per_day_<per>` and its interval. */
export function costColumns(per: string): CsvColumn[] {
  const name = `agent_${COST_READING}_${per}`;
  const unit = `${per} per day`;
  return [{ name, unit, description: `cost a day in ${per}: the tools' duplicates and lost actions priced by their costs` },
    ...CI_SUFFIXES.map((s, i) => ({ name: `${name}${s}`, unit, description: `${i === 0 ? 'lower' : 'upper'} end of ${name}'s 95% confidence interval` }))];
}

/** A tool's columns: each headline metric's (and its interval's), named `TOOL.METRIC`. */
export const toolColumns = (tool: string): CsvColumn[] =>
  SUMMARY.flatMap(metricColumns).map((c) => ({ ...c, name: `${tool}.${c.name}` }));

/** Every column of `r`, in order. */
export function agentSweepColumns(r: AgentSweepReport): CsvColumn[] {
  return [
    ...r.paths.map((p, i) => ({ name: agentParamColumn(p, r.keys[i] as string), unit: isDurationKey(r.keys[i] as string) ? 'ms' : '', description: `the value of ${p} at this point` })),
    ...AGENT_SWEEP_READING_COLUMNS,
    ...costPers(r).flatMap((c) => costColumns(c.per)),
    ...(r.points[0]?.tools ?? []).flatMap((t) => toolColumns(t.name)),
    ...AGENT_SWEEP_TRAILING,
  ];
}

const round = (x: number) => Number(x.toPrecision(12));
const cells = (r: Reading | undefined, estimate: boolean): (number | string)[] => {
  if (!r) return estimate ? ['', '', ''] : [''];
  return estimate ? [round(r.value), ...(r.ci95 ? r.ci95.map(round) : ['', ''])] : [round(r.value)];
};

/** A varied key's cell: a duration in ms (nothing for `none`), a mapping as JSON, else as labelled. */
function paramCell(key: string, v: string | number | boolean | undefined): string | number | boolean {
  if (v === undefined) return '';
  if (isDurationKey(key)) return typeof v === 'number' ? v : '';
  return typeof v === 'object' ? JSON.stringify(v) : v;
}

export function renderAgentSweepCsv(r: AgentSweepReport): string {
  const pers = costPers(r);
  const rows = r.points.map((p) => [
    ...r.paths.map((path, i) => paramCell(r.keys[i] as string, p.params[path])),
    ...AGENT_READINGS.flatMap((d) => cells(p.agent.readings.readings[d.path], d.kind === 'estimate')),
    ...pers.flatMap((c) => cells(p.agent.readings.cost_per_day.get(c.per), true)),
    ...p.tools.flatMap((t) => SUMMARY.flatMap((path) => {
      const m = readMetric(t.metrics, path);
      const v = m.value === null ? '' : round(m.value);
      if (METRICS[path].kind !== 'estimate') return [v];
      return m.ci95 ? [v, round(m.ci95[0]), round(m.ci95[1])] : [v, '', ''];
    })),
    r.seed, r.version,
  ]);
  return csvText(rows, agentSweepColumns(r).map((c) => c.name));
}
