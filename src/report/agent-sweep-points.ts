/**
 * An agent file's sweep (docs/sweeps.md, "Agent files"), point by point as its runs finish: a
 * point's labels read of its agent, its tools' runs gathered until the last, then the point as
 * reported (the agent's readings, each tool's metrics); the report whole; and what the sweep says
 * of settings that have no effect at its points. Pure: cli/agent-sweep.ts reads and runs.
 */
import type { LoadedAgent, ToolRun } from '../agent/loaded.js';
import type { ScenarioWarning } from '../scenario/parse.js';
import { warningTexts } from '../scenario/warning-texts.js';
import { agentPointParams, agentPointView, inheritingTools, type AgentAxisKey, type AgentPointView } from '../sweeps/agent-plan.js';
import type { GridPoint } from '../sweeps/grid.js';
import type { SweepAxis } from '../sweeps/plan.js';
import { agentRun } from './agent-run.js';
import type { AgentSweepPoint, AgentSweepReport, AgentSweepToolRun } from './agent-sweep.js';
import { writtenScenario } from './json.js';

/** What a point's labels read of its agent (sweeps/agent-plan.ts). */
export const pointView = (agent: LoadedAgent): AgentPointView => agentPointView(agent, agent.tools.map((t) => writtenScenario(t.scenario)));

/** The sweep's points, each made once its last tool's run is added; only its readings and its tools' metrics are kept. */
export class AgentPoints {
  readonly points: AgentSweepPoint[] = [];
  private runs: (ToolRun & AgentSweepToolRun)[] = [];

  /** `seed`: the agent's, each tool's run on SEED/TOOL at every point. */
  constructor(private readonly axes: readonly SweepAxis[], private readonly keys: readonly AgentAxisKey[], private readonly seed: string) {}

  /** The run of the tool numbered `tool` of the point `pt`'s agent. */
  add(pt: GridPoint, agent: LoadedAgent, tool: number, run: AgentSweepToolRun & Pick<ToolRun, 'duplicated'>): void {
    this.runs.push({ ...run, run: run.name });
    if (tool < agent.tools.length - 1) return;
    this.points.push({
      params: agentPointParams(this.axes, this.keys, pt, pointView(agent)),
      agent: agentRun(agent, this.seed, this.runs, warningTexts(agent.warnings)),
      tools: this.runs.map(({ name: n, seed: sd, metrics, coupled, precision: p }) => ({ name: n, seed: sd, metrics, coupled, ...(p ? { precision: p } : {}) })),
    });
    this.runs = [];
  }
}

/** The report of the sweep of the agent `base` (from `file`) over `axes`. */
export function agentSweepReport(file: string, base: LoadedAgent, axes: readonly SweepAxis[], keys: readonly AgentAxisKey[], about: { seed: string; version: string; replay: string }, points: AgentSweepPoint[]): AgentSweepReport {
  return {
    file, name: base.name, paths: axes.map((a) => a.path), keys: keys.map((k) => (k.kind === 'agent' ? `agent.${k.key}` : k.key)),
    seed: about.seed, version: about.version, replay: about.replay, points,
  };
}

/** A tool's alerts, which no point evaluates (`file`: the agent file). */
export function toolAlertsWarning(t: LoadedAgent['tools'][number], file: string): ScenarioWarning {
  return { origin: t.parsed.locate?.(['alerts']) ?? { source: file }, keyPath: 'alerts', problem: `has no effect in a sweep of the agent file (tool ${t.name}): a tool's alerts are not evaluated at its points`,
    fix: 'Run the agent file (idem-sim run) for its tools\' alerts, or sweep the tool\'s scenario file.' };
}

/** The varied keys of the agent's defaults that no tool takes (`view`: the first point's), each with its axis. */
export function inertDefaults(axes: readonly SweepAxis[], keys: readonly AgentAxisKey[], agent: LoadedAgent, view: AgentPointView): ScenarioWarning[] {
  return keys.flatMap((k, i) => (k.kind === 'defaults' && inheritingTools(k, view).length === 0 ? [{
    origin: { source: (axes[i] as SweepAxis).option }, keyPath: '', problem: `has no effect: no tool of the agent takes ${k.key} from its defaults (each sets its own, in its scenario keys or the file it extends, or the agent sets it)`,
    fix: `Vary a tool's own key instead, such as --vary tools.${agent.tools[0]?.name ?? 'NAME'}.${k.key}=...`,
  }] : []));
}
