/** `idem-sim sweep SCENARIO --vary PATH=VALUES ...`: the scenario over a grid of settings. */
import { runScenario, type RunOutcome, type RunRequest } from '../exec/runner.js';
import { runSideBySide } from '../exec/side-by-side.js';
import { refuseSplit } from '../exec/coupled-refusal.js';
import { shardRange } from '../engine/plan.js';
import type { PrecisionTarget } from '../results/precision.js';
import { InputError } from '../scenario/errors.js';
import { DEFAULT_MAX_POINTS, gridPoints, gridSize, MAX_POINTS, type GridPoint } from '../sweeps/grid.js';
import { checkLabels, pointOverrides, pointParams, readAxes, type SweepAxis } from '../sweeps/plan.js';
import { checkSweepMetric, type SweepMetric } from '../sweeps/metric.js';
import { MAX_FIND, type FindCondition } from '../sweeps/find.js';
import { isAlertPath } from '../results/alert-paths.js';
import { toolVersion, type Io } from './io.js';
import { sweepMetricOption } from './options.js';
import { PARTIAL_FORMAT, scenarioFingerprint } from '../shards/partial.js';
import { progressBar } from './progress.js';
import { SweepPartText } from '../shards/sweep-part.js';
import { alertReadings, MAX_ALERT_READINGS, tooManyReadings } from '../sweeps/readings.js';
import { writtenScenario } from '../report/json.js';
import { checkTimeRun, warnCoarsened } from './shared/time.js';
import { alertsOnly, timeResults } from '../results/time-results.js';
import type { SweepPointResult } from '../report/sweep.js';
import { renderSweep, type SweepFormat } from '../report/sweep-reporters.js';
import { labDefaultsNote, sayNotes, scenarioReader, type LoadedScenario, type ScenarioReader } from './shared/load.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { precisionInfo, runSeed, simulationWork, threadSetting } from './shared/simulate.js';
import type { Given } from './settings/given.js';
import { outputSettings, sweepFormat, type OutputOptions, type OutputSettings } from './settings/output.js';
import { overridesOf, scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import { isAgentText } from './shared/agent-load.js';
import { readUserFile } from './files.js';
import {
  largeRunSettings, precisionTarget, simulationSettings,
  type LargeRunOptions, type LargeRunSettings, type Shard, type SimulationOptions, type SimulationSettings,
} from './settings/simulation.js';

/** `sweep`'s command line as commander parsed it (main.ts declares it). */
export interface SweepOptions extends ScenarioOptions, SimulationOptions, LargeRunOptions, OutputOptions {
  /** Each --vary PATH=VALUES as given: the sweep's planner reads them with the file's sweep.vary (sweeps/plan.ts). */
  vary?: string[];
  metric?: Given<SweepMetric>;
  format?: Given<SweepFormat>;
  maxPoints?: Given<number>;
  /** Each --find CONDITION (sweeps/find.ts). */
  find?: Given<FindCondition>[];
  /** --series STEP: the alerts' buckets (ms). */
  series?: Given<number>;
}

/** What `sweep` is asked, one typed piece for each stage: read, plan the grid, simulate, write. */
export interface SweepSettings {
  scenario: ScenarioSettings;
  simulation: SimulationSettings;
  large: LargeRunSettings;
  output: OutputSettings<Given<SweepFormat>>;
  vary: readonly string[];
  /** --metric (without it, the file's sweep.metric, else duplicates_per_1000). */
  metric: Given<SweepMetric> | undefined;
  maxPoints: Given<number> | undefined;
  find: readonly Given<FindCondition>[];
  series: Given<number> | undefined;
}

export function sweepSettings(opts: SweepOptions): SweepSettings {
  return {
    scenario: scenarioSettings(opts), simulation: simulationSettings(opts), large: largeRunSettings(opts), output: outputSettings(opts),
    vary: opts.vary ?? [], metric: opts.metric, maxPoints: opts.maxPoints, find: opts.find ?? [], series: opts.series,
  };
}

export { DEFAULT_MAX_POINTS, MAX_POINTS } from '../sweeps/grid.js';

/** The grid and how to report it, each option checked in the order its errors have always come. */
interface SweepPlan {
  read: ScenarioReader;
  format: SweepFormat;
  /** --seed, if given. */
  seed: string | undefined;
  /** The scenario as the file and --set give it, before any point's values. */
  base: LoadedScenario;
  metric: SweepMetric;
  find: FindCondition[];
  /** --series' step (ms): the alerts' buckets; undefined for the default. And its text as given. */
  seriesStep: number | undefined;
  seriesText: string | undefined;
  axes: SweepAxis[];
  size: number;
  precision: PrecisionTarget | undefined;
  shard: Shard | undefined;
  /** This shard's points: `from` to `to` (exclusive) of the grid's. */
  from: number;
  to: number;
}

export async function sweepCommand(file: string, s: SweepSettings, io: Io, signal?: AbortSignal): Promise<number> {
  return withOutput(io, s.output.out, [file], async (out) => {
    // An agent file (docs/agents.md) has a sweep of its own, after the checks any file's comes to first.
    sweepFormat(s.output);
    overridesOf(s.scenario);
    if (isAgentText(readUserFile(file, 'the scenario file'), file)) {
      refuseForAgent(s);
      const { agentSweepCommand } = await import('./agent-sweep.js');
      await agentSweepCommand(file, s, io, out, () => maxPoints(s.maxPoints), signal);
      return 0;
    }
    const plan = sweepPlan(file, s, io);
    const points = gridPoints(plan.axes, plan.from, plan.to);
    const seed = runSeed(plan.seed, plan.base.seed);
    // The lab values the points run on, noted after the report (docs/scenarios.md, "The lab's values").
    const notes: string[] = [];
    const alertNote = bucketsNote(plan);
    if (alertNote) notes.push(alertNote);
    const threads = threadSetting(s.simulation.threads, io)(checkPoints(file, plan, points, seed, notes));
    const part = plan.shard ? new SweepPartText(plan.shard, plan.to - plan.from) : undefined;
    const results = await simulatePoints(file, plan, points, { seed, threads, part }, io, signal);
    // The --vary options as given: the file's own sweep.vary comes with the file.
    const replay = new ReplayLine('sweep', [file], s.scenario).each('--vary', s.vary).overrides(s.scenario).option('--seed', seed)
      .given('--metric', s.metric).each('--find', s.find.map((f) => f.text)).given('--series', s.series).precision(s.large.precision);
    const find = plan.find.length > 0 ? { find: plan.find } : {};
    const paths = plan.axes.map((a) => a.path);
    const logPaths = plan.axes.filter((a) => a.log).map((a) => a.path);
    out.write(part
      ? part.text({
        idem_sim_partial: PARTIAL_FORMAT, kind: 'sweep', version: toolVersion(), shard: plan.shard, replay_args: replay.args,
        sweep: {
          scenario: file, fingerprint: scenarioFingerprint(plan.base.scenario), paths, points: plan.size, seed, metric: plan.metric, log_paths: logPaths,
          ...(plan.find.length > 0 ? { find: plan.find.map((f) => f.text) } : {}), ...(plan.seriesStep !== undefined ? { series_step: plan.seriesStep } : {}),
        },
      })
      : await renderSweep({ scenario: file, paths, seed, version: toolVersion(), replay: replay.text(), points: results, logPaths, ...find }, plan.format, plan.metric, out.style()));
    sayNotes(io, notes);
    return 0;
  });
}

/** `--max-points N`: the most points the grid may have (DEFAULT_MAX_POINTS without it). */
function maxPoints(given: Given<number> | undefined): number {
  if (given === undefined) return DEFAULT_MAX_POINTS;
  if (given.value > MAX_POINTS) {
    throw new InputError({ source: `--max-points ${given.text}` }, '', `is over the limit of ${MAX_POINTS.toLocaleString('en-US')} points`,
      `Give at most --max-points ${MAX_POINTS}; for a larger study, run several sweeps over parts of the range.`);
  }
  return given.value;
}

function sweepPlan(file: string, s: SweepSettings, io: Io): SweepPlan {
  const format = sweepFormat(s.output);
  const seed = s.simulation.seed?.value;
  const read = scenarioReader(s.scenario, io);
  const base = read(file);
  const metric = s.metric?.value ?? sweepMetricOption(base.sweep?.metric ?? 'duplicates_per_1000');
  const axes = readAxes(file, base.sweep?.vary ?? [], s.vary, () => maxPoints(s.maxPoints));
  const varied = axes.map((a) => a.path);
  checkSweepMetric(metric, { origin: { source: file }, keyPath: 'sweep.metric' }, base.scenario, varied);
  const find = findConditions(s.find, base.scenario, varied);
  const seriesStep = s.series?.value;
  const size = gridSize(axes);
  const precision = precisionTarget(s.large.precision, s.scenario.actions);
  const shard = s.large.shard?.value;
  if (shard && precision) {
    throw new InputError({ source: '--shard' }, '', 'cannot be combined with --precision', 'Shard a sweep of fixed --actions, or run --precision on one machine.');
  }
  const [from, to] = shard ? shardRange(size, shard) : [0, size];
  return { read, format, seed, base, metric, find, seriesStep, seriesText: s.series?.text, axes, size, precision, shard, from, to };
}

/** The --find conditions, each naming a reading the points can have (at most MAX_FIND of them). */
function findConditions(given: readonly Given<FindCondition>[], scenario: LoadedScenario['scenario'], varied: readonly string[]): FindCondition[] {
  if (given.length > MAX_FIND) {
    throw new InputError({ source: '--find' }, '', `is given ${given.length} times, more than the ${MAX_FIND} conditions a sweep takes`, 'Find with fewer conditions at a time.');
  }
  return given.map((g) => {
    const c = g.value;
    checkSweepMetric(c.path, { origin: { source: `--find ${g.text}` }, keyPath: '' }, scenario, varied);
    return c;
  });
}

/** What an alert's reading asked for without --series is read on: one-minute buckets. */
function bucketsNote(plan: SweepPlan): string | undefined {
  if (plan.seriesStep !== undefined) return undefined;
  const asked = [plan.metric, ...plan.find.map((f) => f.path)].find((p) => isAlertPath(p));
  return asked === undefined ? undefined
    : `${asked} is judged on 1-minute buckets (an alert's for: counts whole buckets, so times read in steps of about a minute); --series 5s judges it on 5-second buckets, and backlog_cleared_ms.INCIDENT is exact from the workers (docs/sweeps.md, "Recovery").`;
}

/** --find and --series are a scenario's sweep's (an agent's tools keep no alerts at its points, and no saturation reading is the agent's). */
function refuseForAgent(s: SweepSettings): void {
  const [find] = s.find;
  if (find === undefined && s.series === undefined) return;
  const flag = find !== undefined ? `--find ${find.text}` : `--series ${s.series?.text ?? ''}`;
  throw new InputError({ source: flag }, '', 'applies to a scenario\'s sweep, and this is an agent file',
    'Sweep the tool\'s own scenario file with it (idem-sim sweep TOOL.yaml --vary ...), or drop it.');
}

/**
 * Reads and checks every point before simulating any, so a bad value fails at once; gives the
 * work of the actions the sweep simulates (`simulationWork`, for the default thread count).
 * Only that is kept: a loaded scenario is about 10 KB (and holds its empirical data), so each
 * point is read again when its turn comes.
 */
function checkPoints(file: string, plan: SweepPlan, points: readonly GridPoint[], seed: string, notes: string[]): number {
  const { precision, axes } = plan;
  let work = 0;
  let readings = 0;
  for (const [k, pt] of points.entries()) {
    const loaded = plan.read(file, pointOverrides(axes, pt));
    const { scenario, locate } = loaded;
    // At a point, the keys the sweep varies are set: the note names only the lab values every point runs on.
    const note = k === 0 ? labDefaultsNote(file, [{ parsed: loaded }]) : undefined;
    if (note) notes.push(note);
    checkLabels(axes, pt, writtenScenario(scenario));
    readings += alertReadings(scenario);
    // The whole grid's, as these points foretell it (a shard's points are merged with the others').
    if ((readings / (k + 1)) * gridSize(axes) > MAX_ALERT_READINGS) throw tooManyReadings(file, gridSize(axes), scenario);
    try {
      refuseSplit({ scenario, ...(precision ? { precision } : {}) }, locate);
      checkTimeRun({ scenario, seed, locate, ...(precision ? { precision } : {}), ...(plan.seriesStep !== undefined ? { seriesStep: plan.seriesStep } : {}) }, plan.seriesText);
    } catch (e) {
      // What these refuse depends on the point's values: say which point.
      if (!(e instanceof InputError)) throw e;
      throw new InputError(e.origin, e.keyPath, `${e.problem} (at the point ${axes.map((a, i) => `${a.path}=${pt.values[i]}`).join(', ')})`, e.fix);
    }
    work += simulationWork(scenario, precision?.maxActions ?? scenario.actions);
  }
  return work;
}

/**
 * Simulates the points in order (coupled points side by side, one a thread: exec/side-by-side.ts):
 * a shard's go into its part as they come, the others' metrics are returned.
 */
async function simulatePoints(file: string, plan: SweepPlan, points: readonly GridPoint[], run: { seed: string; threads: number; part: SweepPartText | undefined },
  io: Io, signal: AbortSignal | undefined): Promise<SweepPointResult[]> {
  const { precision, axes, from, to } = plan;
  const bar = progressBar(io.stderr, 'sweep', 'points');
  const results: SweepPointResult[] = [];
  // Each point's scenario is read when its turn is near (see `checkPoints`).
  function* jobs() {
    for (const pt of points) {
      const { scenario } = plan.read(file, pointOverrides(axes, pt));
      yield { pt, request: { scenario, seed: run.seed, threads: run.threads, ...(precision ? { precision } : {}), ...(plan.seriesStep !== undefined ? { seriesStep: plan.seriesStep } : {}) } };
    }
  }
  const take = ({ pt, request }: { pt: GridPoint; request: RunRequest }, outcome: RunOutcome) => {
    const { scenario } = request;
    bar.update(pt.index - from + 1, to - from);
    warnCoarsened(io, `the point ${axes.map((a, i) => `${a.path}=${pt.values[i]}`).join(', ')}`, request, outcome);
    const written = writtenScenario(scenario);
    const params = pointParams(axes, pt, written);
    // What grows with the points stays small: a point's sums (its grid alone can be hundreds
    // of KB) go only into a shard's part, as text.
    if (run.part) {
      run.part.add({ index: pt.index, params, scenario: written, fingerprint: scenarioFingerprint(scenario), grid_step: outcome.gridStep, state: outcome.state.toData() });
    } else {
      results.push({
        params, metrics: outcome.state.finish(scenario), ...(precision ? { precision: precisionInfo(precision, outcome) } : {}),
        ...alertsOnly(timeResults(scenario, outcome.state, false)),
      });
    }
  };
  try {
    await runSideBySide(jobs(), { threads: run.threads, runHere: (job) => runScenario({ ...job.request, ...(signal ? { signal } : {}) }), take, signal });
  } finally {
    bar.stop();
  }
  return results;
}
