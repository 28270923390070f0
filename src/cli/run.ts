/** `idem-sim run [SCENARIO ...]`: simulate each scenario and report them side by side. */
import type { RunStateData } from '../results/metrics.js';
import { InputError } from '../scenario/errors.js';
import { toolVersion, type Io } from '../io/streams.js';
import type { PartialRun } from '../shards/partial.js';
import { writtenScenario } from '../report/json.js';
import type { RunFormat } from '../report/run-reporters.js';
import type { ScenarioRun } from '../report/types.js';
import { renderRuns } from './shared/formats.js';
import { sayNotes, scenarioReader, warningTexts, type ScenarioReader } from './shared/load.js';
import type { ScenarioWarning } from '../scenario/parse.js';
import { columnNames } from '../scenario/names.js';
import { withOutput } from '../io/output.js';
import { checkEffectsRun, effectsOutput, writeEffects } from '../io/effects-file.js';
import type { PendingOutput } from '../io/outputs.js';
import { ReplayLine } from './shared/replay.js';
import { precisionInfo, progressOfMany, runSeed, simulate, simulationWork, threadSetting } from './shared/simulate.js';
import type { RunAsk, RunOutcome, RunRequest } from '../exec/runner.js';
import { runSideBySide } from '../exec/side-by-side.js';
import { refuseSplit } from '../exec/coupled-refusal.js';
import { checkTimeRun, warnCoarsened } from './shared/time.js';
import { timeResults } from '../results/time-results.js';
import { agentReader, agentRun, toolRunName, toolSeed, type LoadedAgent, type ToolRun } from './shared/agent-load.js';
import type { AgentRun } from '../report/agent.js';
import type { Scenario } from '../model/types.js';
import type { Origin } from '../scenario/errors.js';
import type { Given } from './settings/given.js';
import { outputSettings, runFormat, type OutputOptions, type OutputSettings } from './settings/output.js';
import { scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import {
  largeRunSettings, precisionTarget, simulationSettings,
  type LargeRunOptions, type LargeRunSettings, type Shard, type SimulationOptions, type SimulationSettings,
} from './settings/simulation.js';

/** `run`'s command line as commander parsed it (main.ts declares it). */
export interface RunOptions extends ScenarioOptions, SimulationOptions, LargeRunOptions, OutputOptions {
  /** One of RUN_FORMATS (`--json` is `--format json`). */
  format?: Given<RunFormat>;
  /** `--series STEP`: count the run's series in buckets of STEP (ms). */
  series?: Given<number>;
  /** `--effects-out FILE`: every execution, as a production table holds it (docs/reconcile.md). */
  effectsOut?: string;
}

/** What `run` is asked, one typed piece for each stage: read, simulate, write. */
export interface RunSettings {
  scenario: ScenarioSettings;
  simulation: SimulationSettings;
  large: LargeRunSettings;
  output: OutputSettings<Given<RunFormat>>;
  series: Given<number> | undefined;
  effectsOut: string | undefined;
}

export function runSettings(opts: RunOptions): RunSettings {
  return { scenario: scenarioSettings(opts), simulation: simulationSettings(opts), large: largeRunSettings(opts), output: outputSettings(opts), series: opts.series, effectsOut: opts.effectsOut };
}

/** What the settings ask for, each taken in the order its errors have always come; `ask`: what every run's request holds but its scenario (exec/runner.ts). */
interface RunPlan {
  read: ScenarioReader;
  /** An agent file's tools, or undefined for a scenario (docs/agents.md). */
  readAgent: (file: string | null) => LoadedAgent | undefined;
  format: RunFormat;
  /** --seed, if given. */
  seed: string | undefined;
  threads: (actions: number) => number;
  ask: RunAsk;
  /** `--effects-out`'s file, opened before anything runs. */
  effects: PendingOutput | undefined;
}

/** A run as reported, with what a shard's part holds besides (`part`), and what an agent's readings read. */
type SimulatedRun = ScenarioRun & { part?: { fingerprint: string; gridStep: number; state: RunStateData }; duplicated: ToolRun['duplicated']; simulated: Scenario };

export async function runCommand(files: string[], s: RunSettings, io: Io, signal?: AbortSignal): Promise<number> {
  return withOutput(io, s.output.out, files, async (out) => {
    const notes: string[] = [];
    const plan = runPlan(s, io, notes, files);
    const { runs, agents } = await simulated(files.length > 0 ? files : [null], plan, s, io, signal);
    const seeds = [...new Set([...runs.filter((r) => !agents.some((a) => a.tools.some((t) => t.run === r.name))).map((r) => r.seed), ...agents.map((a) => a.seed)])];
    const args = new ReplayLine('run', files, s.scenario).overrides(s.scenario).option('--seed', seeds.length === 1 ? seeds[0] : undefined)
      .given('--series', s.series).precision(s.large.precision).args;
    out.write(plan.ask.shard
      ? await partialText(runs, plan.ask.shard, args, plan.ask.seriesStep)
      : renderRuns(runs, args, plan.format, toolVersion(), out.style(), out.width(), agents));
    sayNotes(io, notes);
    return 0;
  });
}

/** The runs simulated, and their effects written first when asked (an error leaves no effects file, and no report). */
async function simulated(files: readonly (string | null)[], plan: RunPlan, s: RunSettings, io: Io, signal: AbortSignal | undefined): ReturnType<typeof simulateRuns> {
  try {
    const done = await simulateRuns(files, plan, s, io, signal);
    if (plan.effects) writeEffects(plan.effects, done.runs.map((r) => ({ scenario: r.simulated, seed: r.seed, tool: r.name })), io.stdout);
    return done;
  } catch (e) {
    plan.effects?.abort();
    throw e;
  }
}

/** `notes`: where the readers leave the note of each file's lab values, said after the report (docs/scenarios.md, "The lab's values"). */
function runPlan(s: RunSettings, io: Io, notes: string[], files: readonly string[]): RunPlan {
  const read = scenarioReader(s.scenario, io, notes);
  const readAgent = agentReader(s.scenario, io, notes);
  const format = runFormat(s.output);
  const seed = s.simulation.seed?.value;
  const threads = threadSetting(s.simulation.threads, io);
  const precision = precisionTarget(s.large.precision, s.scenario.actions);
  const shard = s.large.shard?.value;
  const seriesStep = s.series?.value;
  if (shard && precision) {
    throw new InputError({ source: '--shard' }, '', 'cannot be combined with --precision (when to stop depends on all shards)',
      'Shard a run of fixed --actions, or run --precision on one machine.');
  }
  if (s.effectsOut !== undefined && (shard || precision)) {
    throw new InputError({ source: '--effects-out' }, '', `cannot be combined with ${shard ? '--shard' : '--precision'} (the file holds every execution of a whole run of fixed --actions)`,
      `Drop ${shard ? '--shard' : '--precision'}, or --effects-out.`);
  }
  const ask = { ...(shard ? { shard } : {}), ...(precision ? { precision } : {}), ...(seriesStep !== undefined ? { seriesStep } : {}) };
  const effects = s.effectsOut === undefined ? undefined : effectsOutput(s.effectsOut, files);
  return { read, readAgent, format, seed, threads, ask, effects };
}

/**
 * Reads and checks every scenario first (a bad one fails before any is simulated), then simulates
 * each in order (coupled ones side by side on --threads, each on one thread: exec/side-by-side.ts).
 */
async function simulateRuns(files: readonly (string | null)[], plan: RunPlan, s: RunSettings, io: Io, signal: AbortSignal | undefined): Promise<{ runs: SimulatedRun[]; agents: AgentRun[] }> {
  const { ask } = plan;
  const names = columnNames(files);
  // An agent file's tools are runs of their own, named by the tool (after the agent's name when several files are run).
  const agents: { agent: LoadedAgent; seed: string; runs: string[] }[] = [];
  const loaded = files.flatMap((file, k): Loaded[] => {
    const agent = plan.readAgent(file);
    if (!agent) return [plan.read(file)].map((l) => ({ file, name: names[k] as string, ...l, seed: runSeed(plan.seed, l.seed) }));
    if (ask.shard) {
      throw new InputError({ source: '--shard' }, '', `cannot split an agent file (${file}) into shards yet: merge would not have the agent's readings`,
        'Run the agent file on one machine (each tool is a run of its own, on --threads), or shard its tools\' scenario files.');
    }
    const seed = runSeed(plan.seed, agent.seed);
    const runNames = agent.tools.map((t) => toolRunName(names[k] as string, t.name, files.length > 1));
    agents.push({ agent, seed, runs: runNames });
    // A tool's seed is the agent's made its own (toolSeed), whatever --seed said.
    return agent.tools.map((t, i) => ({ file, name: runNames[i] as string, scenario: t.scenario, seed: toolSeed(seed, t.name), warnings: [], locate: t.parsed.locate }));
  });
  if (plan.effects) for (const l of loaded) checkEffectsRun(l.scenario, l.seed, l.file ?? l.name);
  const threads = plan.threads(loaded.reduce((sum, l) => sum + simulationWork(l.scenario, ask.precision?.maxActions ?? l.scenario.actions), 0));
  // Each run's request, made once (the ask with its scenario and seed), and checked before any runs: every split refused, then what each asks of time.
  const requests = loaded.map(({ scenario, seed, locate }): RunRequest => {
    const request = { ...ask, scenario, seed, threads };
    refuseSplit(request, locate);
    return request;
  });
  loaded.forEach(({ locate }, k) => checkTimeRun({ ...requests[k] as RunRequest, locate }, s.series?.text));
  const apart = progressOfMany(io, 'run');
  const jobs = loaded.map(({ file, name, warnings }, k) => ({ name, file, warnings, request: { ...requests[k] as RunRequest, onProgress: apart.of(k) } }));
  const runs: SimulatedRun[] = [];
  // The part format (its fingerprint's SHA-256 loads node:crypto) only for a shard (issue 22, start-up).
  const parts = ask.shard ? await import('../shards/partial.js') : undefined;
  const take = ({ name, file, warnings, request }: { name: string; file: string | null; warnings: readonly ScenarioWarning[]; request: RunRequest }, outcome: RunOutcome) => {
    const { scenario, seed } = warnCoarsened(io, name, request, outcome);
    // A shard's sums (`state`) are written out; other runs only report metrics, and summing a
    // long run's grid into base64 took tens of ms at the end of every run.
    runs.push({
      name, file, seed, scenario: writtenScenario(scenario), warnings: warningTexts(warnings), metrics: outcome.state.finish(scenario),
      ...(parts ? { part: { fingerprint: parts.scenarioFingerprint(scenario), gridStep: outcome.gridStep, state: outcome.state.toData() } } : {}),
      ...(ask.precision ? { precision: precisionInfo(ask.precision, outcome) } : {}),
      ...timeResults(scenario, outcome.state, ask.seriesStep !== undefined), duplicated: outcome.state.counter('duplicated'), simulated: scenario,
    });
  };
  try {
    await runSideBySide(jobs, { threads, runHere: (job) => simulate(io, job.name, job.request, signal), take, signal, ...(jobs.length > 1 ? { name: (job: { name: string }) => `the run ${job.name}` } : {}) });
  } finally {
    apart.stop();
  }
  const byName = new Map(runs.map((r) => [r.name, r]));
  return {
    runs,
    agents: agents.map(({ agent, seed, runs: names }) => agentRun(agent, seed, names.map((name) => {
      const r = byName.get(name) as SimulatedRun;
      return { run: name, metrics: r.metrics, duplicated: r.duplicated };
    }), warningTexts(agent.warnings))),
  };
}

/** A file read for the run: a scenario, or one tool of an agent file, with the seed it runs on. */
type Loaded = { file: string | null; name: string; scenario: Scenario; seed: string; warnings: readonly ScenarioWarning[]; locate?: ((path: readonly (string | number)[]) => Origin) | undefined };

/** A shard's part: its runs' sums, for `merge`. */
async function partialText(runs: readonly SimulatedRun[], shard: Shard, replayArgs: string[], seriesStep: number | undefined): Promise<string> {
  const { PARTIAL_FORMAT, renderPartial } = await import('../shards/partial.js');
  return renderPartial({
    idem_sim_partial: PARTIAL_FORMAT, version: toolVersion(), shard, replay_args: replayArgs, series_step: seriesStep ?? null,
    runs: runs.map((r): PartialRun => {
      const part = r.part as NonNullable<SimulatedRun['part']>;
      return { name: r.name, file: r.file, seed: r.seed, scenario: r.scenario, warnings: r.warnings, fingerprint: part.fingerprint, grid_step: part.gridStep, state: part.state };
    }),
  });
}
