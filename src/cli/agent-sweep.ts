/**
 * `idem-sim sweep AGENT --vary PATH=VALUES ...`: an agent file over a grid of settings
 * (docs/sweeps.md, "Agent files"). Each point runs every tool as `run` does (each on SEED/TOOL,
 * the same at every point: common random numbers) and reports the agent's readings
 * (report/agent-sweep-points.ts), so a point gives what `run --set` of its values gives.
 */
import { hasTrigger } from '../results/delivery.js';
import { runScenario } from '../exec/runner.js';
import { runSideBySide } from '../exec/side-by-side.js';
import { refuseSplit } from '../exec/coupled-refusal.js';
import { isCoupled } from '../model/capacity.js';
import type { PrecisionTarget } from '../results/precision.js';
import { InputError } from '../scenario/errors.js';
import type { Override } from '../scenario/parse.js';
import { renderAgentSweepJson, renderAgentSweepTable, type AgentSweepPoint } from '../report/agent-sweep.js';
import { AgentPoints, agentSweepReport, inertDefaults, pointView, toolAlertsWarning } from '../report/agent-sweep-points.js';
import { renderAgentSweepCsv } from '../report/agent-sweep-csv.js';
import { agentPointParams, agentSweepMetric, DEFAULT_AGENT_METRIC, readAgentAxes, type AgentAxisKey, type AgentSweepMetric } from '../sweeps/agent-plan.js';
import { gridPoints, type GridPoint } from '../sweeps/grid.js';
import { checkLabelChars, pointName, pointOverrides, type SweepAxis } from '../sweeps/plan.js';
import { toolVersion, warn, type Io } from '../io/streams.js';
import { progressBar } from './progress.js';
import { agentWarnings, toolScenarios, toolSeed, type LoadedAgent } from '../agent/loaded.js';
import { readAgentFile } from './shared/agent-load.js';
import { forCommand, labDefaultsNote, sayNotes, warningTexts } from './shared/load.js';
import type { ReportOutput } from '../io/output.js';
import { ReplayLine } from './shared/replay.js';
import { precisionInfo, runSeed, simulationWork, threadSetting } from './shared/simulate.js';
import { checkTimeRun } from './shared/time.js';
import { sweepFormat } from './settings/output.js';
import { overridesOf, type ScenarioSettings } from './settings/scenario.js';
import { precisionTarget } from './settings/simulation.js';
import type { SweepSettings } from './sweep.js';

/** Reads the agent file with the command's --set and a point's values; each warning said once. */
type AgentSweepReader = (file: string, more?: readonly Override[]) => LoadedAgent;

function agentSweepReader(settings: ScenarioSettings, io: Io): AgentSweepReader {
  const overrides = overridesOf(settings);
  const access = { allowOutside: settings.allowOutside };
  const said = new Set<string>();
  return (file, more = []) => {
    const agent = readAgentFile(file, [...overrides, ...more], access) as LoadedAgent; // sweep.ts sends agent files only
    for (const text of warningTexts(forCommand(agentWarnings(agent), false))) {
      if (!said.has(text) && said.size < 1000) { said.add(text); warn(io, text); }
    }
    return agent;
  };
}

/** The plan: the grid, the metric, and what every run takes. */
interface AgentSweepPlan {
  read: AgentSweepReader;
  base: LoadedAgent;
  seed: string;
  metric: AgentSweepMetric;
  axes: SweepAxis[];
  keys: AgentAxisKey[];
  precision: PrecisionTarget | undefined;
}

/** The sweep of the agent file `file`, written to `out`; `limit()` is the most runs --max-points allows. */
export async function agentSweepCommand(file: string, s: SweepSettings, io: Io, out: ReportOutput, limit: () => number, signal?: AbortSignal): Promise<void> {
  const format = sweepFormat(s.output);
  if (format === 'html' || format === 'svg') {
    throw new InputError({ source: s.output.svg ? '--svg' : `--format ${format}` }, '', `is not written for an agent file's sweep (${file}) yet`,
      'Give --format table, csv or json (the CSV charts well in a spreadsheet), or sweep a tool\'s scenario file for its charts.');
  }
  if (s.large.shard) {
    throw new InputError({ source: '--shard' }, '', `cannot split an agent file's sweep (${file}) into shards yet: merge would not have the agent's readings`,
      'Run the sweep on one machine (every tool at every point is a run of its own, on --threads), or shard a sweep of a tool\'s scenario file.');
  }
  const plan = agentSweepPlan(file, s, io, limit);
  const points = gridPoints(plan.axes);
  const notes: string[] = [];
  const threads = threadSetting(s.simulation.threads, io)(checkPoints(file, plan, points, io, notes));
  const results = await simulatePoints(file, plan, points, threads, io, signal);
  const replay = new ReplayLine('sweep', [file], s.scenario).each('--vary', s.vary).overrides(s.scenario).option('--seed', plan.seed)
    .given('--metric', s.metric).precision(s.large.precision);
  const report = agentSweepReport(file, plan.base, plan.axes, plan.keys, { seed: plan.seed, version: toolVersion(), replay: replay.text() }, results);
  out.write(format === 'csv' ? renderAgentSweepCsv(report) : format === 'json' ? renderAgentSweepJson(report) : renderAgentSweepTable(report, plan.metric, out.style()));
  sayNotes(io, notes);
}

function agentSweepPlan(file: string, s: SweepSettings, io: Io, limit: () => number): AgentSweepPlan {
  const read = agentSweepReader(s.scenario, io);
  const base = read(file);
  const seed = runSeed(s.simulation.seed?.value, base.seed);
  const tools = base.tools.map((t) => t.name);
  const costs = [...new Set(base.tools.flatMap((t) => [t.cost.duplicate, t.cost.lost]).flatMap((c) => (c ? [c.per] : [])))];
  // --metric's text: a scenario's metric parser (main.ts) does not know the agent's readings.
  const metric = agentSweepMetric(s.metric?.text ?? DEFAULT_AGENT_METRIC, tools, costs);
  const { axes, keys } = readAgentAxes(file, s.vary, tools, limit);
  const precision = precisionTarget(s.large.precision, s.scenario.actions);
  for (const t of base.tools) {
    if (t.scenario.alerts.length > 0) warn(io, warningTexts([toolAlertsWarning(t, file)])[0] as string);
  }
  return { read, base, seed, metric, axes, keys, precision };
}

/** Where a point's value was refused: the point, after the problem (as a scenario's sweep says it). */
function atPoint<T>(axes: readonly SweepAxis[], pt: GridPoint, work: () => T): T {
  try {
    return work();
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    throw new InputError(e.origin, e.keyPath, `${e.problem} (at the point ${axes.map((a, i) => `${a.path}=${pt.values[i]}`).join(', ')})`, e.fix);
  }
}

/**
 * Reads and checks every point, every tool, before simulating any; warns of a default no tool
 * takes, and adds to `notes` the lab values the tools run on; gives the work of the actions the sweep simulates (for the default thread count).
 */
function checkPoints(file: string, plan: AgentSweepPlan, points: readonly GridPoint[], io: Io, notes: string[]): number {
  const { axes, keys, precision, seed } = plan;
  let work = 0;
  for (const [n, pt] of points.entries()) {
    const agent = atPoint(axes, pt, () => plan.read(file, pointOverrides(axes, pt)));
    const view = pointView(agent);
    checkLabelChars(axes, pt, agentPointParams(axes, keys, pt, view));
    if (n === 0) {
      const note = labDefaultsNote(file, toolScenarios(agent));
      if (note) notes.push(note);
      for (const text of warningTexts(inertDefaults(axes, keys, agent, view))) warn(io, text);
    }
    for (const t of agent.tools) {
      atPoint(axes, pt, () => {
        refuseSplit({ scenario: t.scenario, ...(precision ? { precision } : {}) }, t.parsed.locate);
        checkTimeRun({ scenario: t.scenario, seed: toolSeed(seed, t.name), locate: t.parsed.locate, ...(precision ? { precision } : {}) });
      });
      work += simulationWork(t.scenario, precision?.maxActions ?? t.scenario.actions);
    }
  }
  return work;
}

/** One tool's run at one point. */
interface Job { pt: GridPoint; agent: LoadedAgent; tool: number; request: { scenario: LoadedAgent['tools'][number]['scenario']; seed: string; threads: number; precision?: PrecisionTarget } }

/**
 * Runs every tool of every point, in order (coupled tools side by side: exec/side-by-side.ts);
 * a point's agent is made once its last tool is taken, and only its readings and its tools'
 * metrics are kept.
 */
async function simulatePoints(file: string, plan: AgentSweepPlan, points: readonly GridPoint[], threads: number, io: Io, signal: AbortSignal | undefined): Promise<AgentSweepPoint[]> {
  const { axes, keys, precision, seed } = plan;
  const total = points.length * plan.base.tools.length;
  const bar = progressBar(io.stderr, 'sweep', 'runs');
  const results = new AgentPoints(axes, keys, seed);
  // Each point's agent is read when its turn is near, as a scenario's sweep reads its points.
  function* jobs(): Generator<Job> {
    for (const pt of points) {
      const agent = plan.read(file, pointOverrides(axes, pt));
      for (const [tool, t] of agent.tools.entries()) {
        yield { pt, agent, tool, request: { scenario: t.scenario, seed: toolSeed(seed, t.name), threads, ...(precision ? { precision } : {}) } };
      }
    }
  }
  const take = ({ pt, agent, tool, request: { scenario, seed: toolSeedText } }: Job, outcome: Awaited<ReturnType<typeof runScenario>>) => {
    bar.update(results.points.length * agent.tools.length + tool + 1, total);
    results.add(pt, agent, tool, {
      name: (agent.tools[tool] as LoadedAgent['tools'][number]).name, seed: toolSeedText, metrics: outcome.state.finish(scenario), duplicated: outcome.state.counter('duplicated'), coupled: isCoupled(scenario) || hasTrigger(scenario),
      ...(precision ? { precision: precisionInfo(precision, outcome) } : {}),
    });
  };
  try {
    await runSideBySide(jobs(), {
      threads, runHere: (job) => runScenario({ ...job.request, ...(signal ? { signal } : {}) }), take, signal,
      name: ({ pt, agent, tool }) => `the sweep's point ${pointName(axes, pt)}, tool ${(agent.tools[tool] as LoadedAgent['tools'][number]).name}`,
    });
  } finally {
    bar.stop();
  }
  return results.points;
}
