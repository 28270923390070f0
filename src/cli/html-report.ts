/**
 * `idem-sim report [SCENARIO]`: one self-contained HTML page (headline metrics, the
 * duplicate breakdown, the run over time when it counts a series, the action timeline), or
 * with `--svg` the timeline alone; `--at` centres the timeline on a time of the run.
 */
import { ALERT_STEP_MS } from '../results/alerts.js';
import { withPrimaries } from '../model/clock.js';
import type { Scenario } from '../model/types.js';
import { toolVersion, type Io } from '../io/streams.js';
import { timelineFocus, type Focus } from '../report/time-focus.js';
import { reportPage, sampleNote } from '../report/report-page.js';
import { eventfulRows, showsTime, timelineCaption, timelineSample } from '../report/timeline-sample.js';
import { timelineSvg } from '../report/timeline-svg.js';
import { sayNotes, scenarioReader, type LoadedScenario } from './shared/load.js';
import { scenarioName } from '../scenario/names.js';
import { agentReader } from './shared/agent-load.js';
import { pickTool, refuseToolOfScenario } from '../agent/pick-tool.js';
import { agentReportPage } from './report-agent.js';
import { terminalDefault, withOutput } from '../io/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, simulate, threadSetting } from './shared/simulate.js';
import { checkSeriesLength, warnCoarsened } from './shared/time.js';
import type { Given } from './settings/given.js';
import { outputSettings, type OutputOptions, type OutputSettings } from './settings/output.js';
import { scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import { simulationSettings, type SimulationOptions, type SimulationSettings } from './settings/simulation.js';
import { checkArrivals } from '../scenario/time-checks.js';

/** `report`'s command line as commander parsed it (main.ts declares it); --svg: the timeline alone. */
export interface ReportOptions extends ScenarioOptions, SimulationOptions, OutputOptions {
  rows?: Given<number>;
  /** `--series STEP`: the run's series in buckets of STEP (ms), drawn in "Over time". */
  series?: Given<number>;
  /** `--at TIME`: the action timeline centred on this time of the run (read against the scenario: report/time-focus.ts). */
  at?: string;
  /** `--tool NAME`: one tool of an agent file, its full report. */
  tool?: string;
}

/** What `report` is asked, one typed piece for each stage: read, simulate, draw, write. */
export interface ReportSettings {
  scenario: ScenarioSettings;
  simulation: SimulationSettings;
  output: OutputSettings<never>;
  /** --rows: the most timeline rows for eventful actions. */
  rows: Given<number> | undefined;
  series: Given<number> | undefined;
  at: string | undefined;
  /** --tool: of an agent file, this tool's full page (without it, the agent's page). */
  tool: string | undefined;
}

export function reportSettings(opts: ReportOptions): ReportSettings {
  return { scenario: scenarioSettings(opts), simulation: simulationSettings(opts), output: outputSettings(opts), rows: opts.rows, series: opts.series, at: opts.at, tool: opts.tool };
}

/**
 * Where the page goes without --out on a terminal (see `terminalDefault`), and how an earlier
 * one is known: the page's title, or the timeline's opening tag, within its first bytes.
 */
const TERMINAL_DEFAULTS = {
  html: { name: 'report.html', ours: (head: string) => head.startsWith('<!doctype html>') && head.includes('<title>idem-sim report: ') },
  svg: { name: 'timeline.svg', ours: (head: string) => head.startsWith('<svg xmlns="http://www.w3.org/2000/svg" class="timeline"') },
} as const;

/** What the settings ask for, checked before anything is simulated. */
interface ReportPlan {
  eventfulRows: number;
  /** The series' step (ms): --series, else one minute for a scenario with incidents, alerts or a profile. */
  seriesStep: number | undefined;
  /** --at (else the first incident's start) and the chunk holding it; none: the run's first chunk. */
  focus: Focus | undefined;
}

function reportPlan(s: ReportSettings, { scenario, locate }: Pick<LoadedScenario, 'scenario' | 'locate'>, seed: string): ReportPlan {
  const rows = eventfulRows(s.rows);
  const asked = s.series?.value;
  const seriesStep = asked ?? (showsTime(scenario) ? ALERT_STEP_MS : undefined);
  checkArrivals(scenario, seed, locate);
  if (seriesStep !== undefined) checkSeriesLength(seriesStep, scenario, asked !== undefined ? `--series ${s.series?.text}` : 'the series of 1-minute buckets drawn for the incidents, alerts or load.profile');
  const focus = timelineFocus(withPrimaries(scenario, seed), seed, s.at);
  return { eventfulRows: rows, seriesStep, focus };
}

export async function reportCommand(file: string | undefined, s: ReportSettings, io: Io, signal?: AbortSignal): Promise<number> {
  const inputs = file ? [file] : [];
  const kind = TERMINAL_DEFAULTS[s.output.svg ? 'svg' : 'html'];
  const fallback = terminalDefault(io, s.output.out, kind.name, kind.ours);
  // The lab values the file runs on, noted once the page is written (docs/scenarios.md, "The lab's values").
  const notes: string[] = [];
  const code = await withOutput(io, s.output.out ?? fallback?.path, inputs, async (out) => {
    const agent = agentReader(s.scenario, io, notes)(file ?? null);
    if (agent && s.tool === undefined) {
      const page = await agentReportPage(agent, file as string, s, io, signal);
      out.write(page);
      fallback?.announce(page);
      return 0;
    }
    if (!agent && s.tool !== undefined) refuseToolOfScenario(file ?? null, 'report');
    // A tool of an agent runs as in `run AGENT.yaml`: its composed scenario, on the seed SEED/TOOL.
    const picked = agent ? pickTool(agent, s.tool as string, runSeed(s.simulation.seed?.value, agent.seed)) : undefined;
    const loaded = picked ?? scenarioReader(s.scenario, io, notes)(file ?? null);
    const { scenario } = loaded;
    const seed = picked ? picked.seed : runSeed(s.simulation.seed?.value, loaded.seed);
    const threads = threadSetting(s.simulation.threads, io)(scenario.actions);
    const plan = reportPlan(s, loaded, seed);
    const name = picked ? `${picked.agent.name}.${picked.tool.name}` : scenarioName(file ?? null);
    const step = plan.seriesStep;
    const request = { scenario, seed, threads, ...(step !== undefined ? { seriesStep: step } : {}) };
    const outcome = await simulate(io, name, request, signal);
    warnCoarsened(io, name, request, outcome);
    const { sample, scope } = timelineSample(withPrimaries(scenario, seed), seed, outcome.gridStep, plan);
    const replay = new ReplayLine('report', inputs, s.scenario).overrides(s.scenario).option('--tool', picked?.tool.name).option('--seed', picked ? picked.agentSeed : seed).given('--rows', s.rows)
      .given('--series', s.series).option('--at', s.at).text();
    const version = toolVersion();
    const timeline = timelineSvg(sample.rows, scenario.client.timeout, timelineCaption(`${replay}${s.output.svg ? ' --svg' : ''}`, version, sample, plan.focus?.at));
    const text = s.output.svg ? `${timeline}\n`
      : await reportPage({ name, seed, scenario, state: outcome.state, at: plan.focus?.at, note: sampleNote(sample, scope), rows: sample.rows, timeline, replay, version });
    out.write(text);
    fallback?.announce(text);
    return 0;
  });
  sayNotes(io, notes);
  return code;
}
