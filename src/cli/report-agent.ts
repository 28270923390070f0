/**
 * `idem-sim report AGENT.yaml`: the agent's page (report/agent-html.ts). Each tool runs as `run`
 * runs it (its own seed `SEED/TOOL`, its scenario as the agent composes it), and the agent's
 * readings are agentRun's, the same AgentRun `run` tabulates. One tool's full page is
 * `--tool NAME` (html-report.ts).
 */
import { breakdownChart } from '../report/charts.js';
import { agentPage, type ToolSection } from '../report/agent-html.js';
import { InputError } from '../scenario/errors.js';
import { checkArrivals } from '../scenario/time-checks.js';
import { toolVersion, warn, type Io } from '../io/streams.js';
import { agentWarnings, toolSeed, type LoadedAgent, type ToolRun } from '../agent/loaded.js';
import { agentRun } from '../report/agent-run.js';
import { warningTexts } from '../scenario/warning-texts.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, simulate, threadSetting } from './shared/simulate.js';
import type { ReportSettings } from './html-report.js';

/** Options of the one-tool page that ask for a part the agent's page does not have. */
function checkAgentPage(agent: LoadedAgent, s: ReportSettings, io: Io): void {
  const first = agent.tools[0]?.name ?? 'NAME';
  const refused = s.output.svg ? '--svg' : s.at !== undefined ? '--at' : undefined;
  if (refused) {
    throw new InputError({ source: refused }, '', `asks for the action timeline, which an agent's page does not draw (${agent.file} is an agent file)`,
      `Give --tool NAME for one tool's full report with its timeline, such as --tool ${first}.`);
  }
  for (const [option, given] of [['--rows', s.rows], ['--series', s.series]] as const) {
    if (given !== undefined) warn(io, `${option} has no effect on an agent's page, which draws no timeline and no run over time: give --tool NAME for one tool's full report (such as --tool ${first}).`);
  }
}

/** The agent's page: every tool run, in the agent's order, and the agent's readings from their results. */
export async function agentReportPage(agent: LoadedAgent, file: string, s: ReportSettings, io: Io, signal: AbortSignal | undefined): Promise<string> {
  checkAgentPage(agent, s, io);
  const seed = runSeed(s.simulation.seed?.value, agent.seed);
  const threads = threadSetting(s.simulation.threads, io);
  for (const t of agent.tools) checkArrivals(t.scenario, toolSeed(seed, t.name), t.parsed.locate);
  const replay = (tool?: string) => new ReplayLine('report', [file], s.scenario).overrides(s.scenario).option('--tool', tool).option('--seed', seed).text();
  const runs: ToolRun[] = [];
  const sections: ToolSection[] = [];
  for (const t of agent.tools) {
    const outcome = await simulate(io, t.name, { scenario: t.scenario, seed: toolSeed(seed, t.name), threads: threads(t.scenario.actions) }, signal);
    const metrics = outcome.state.finish(t.scenario);
    runs.push({ run: t.name, metrics, duplicated: outcome.state.counter('duplicated') });
    sections.push({ metrics, breakdown: await breakdownChart(metrics), scenario: t.scenario, fullReport: replay(t.name) });
  }
  // The page lists every warning the command wrote: the agent's own and its tools' scenarios'.
  const run = agentRun(agent, seed, runs, warningTexts(agentWarnings(agent)));
  return agentPage({ run, tools: sections, replay: replay(), version: toolVersion(), description: agent.description });
}
