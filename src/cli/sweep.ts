/** `idem-sim sweep SCENARIO --vary PATH=VALUES ...`: the scenario over a grid of settings. */
import { runScenario, type RunOutcome, type RunRequest } from '../exec/runner.js';
import { runSideBySide } from '../exec/side-by-side.js';
import { refuseSplit } from '../exec/coupled-refusal.js';
import { shardRange } from '../engine/plan.js';
import type { PrecisionTarget } from '../results/precision.js';
import { InputError } from '../scenario/errors.js';
import { eachGridPoint, gridSize, maxPointsAllowed, type GridPoint } from '../sweeps/grid.js';
import { checkLabels, pointName, pointOverrides, pointParams, readAxes, type SweepAxis } from '../sweeps/plan.js';
import { bucketsNote, checkSweepMetric, seriesWithoutAlerts, type SweepMetric } from '../sweeps/metric.js';
import { refuseForAgent } from '../sweeps/agent-plan.js';
import { findConditions, type FindCondition } from '../sweeps/find.js';
import { toolVersion, warn, type Io } from '../io/streams.js';
import { sweepMetricOption } from './options.js';
import { PARTIAL_FORMAT, scenarioFingerprint } from '../shards/partial.js';
import { progressBar } from './progress.js';
import { SweepPartText } from '../shards/sweep-part.js';
import { alertReadings, MAX_ALERT_READINGS, tooManyReadings } from '../sweeps/readings.js';
import { writtenScenario } from '../report/json.js';
import { checkTimeRun, warnCoarsened } from './shared/time.js';
import { alertsOnly, timeResults } from '../results/time-results.js';
import type { SweepPointResult } from '../report/sweep.js';
import { checkShape, plannedShape, SweepColumns } from '../report/sweep-columns.js';
import { sweepWriter, type SweepFormat } from '../report/sweep-reporters.js';
import { labDefaultsNote, sayNotes, scenarioReader, type LoadedScenario, type ScenarioReader } from './shared/load.js';
import { withOutput } from '../io/output.js';
import { ReplayLine } from './shared/replay.js';
import { precisionInfo, runSeed, simulationWork, threadSetting } from './shared/simulate.js';
import type { Given } from './settings/given.js';
import { outputSettings, sweepFormat, type OutputOptions, type OutputSettings } from './settings/output.js';
import { overridesOf, scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import { isAgentText } from './shared/agent-load.js';
import { readUserFile } from '../io/files.js';
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
      refuseForAgent(s.find[0]?.text, s.series?.text);
      const { agentSweepCommand } = await import('./agent-sweep.js');
      await agentSweepCommand(file, s, io, out, () => maxPointsAllowed(s.maxPoints), signal);
      return 0;
    }
    const plan = sweepPlan(file, s, io);
    const seed = runSeed(plan.seed, plan.base.seed);
    // The lab values the points run on, noted after the report (docs/scenarios.md, "The lab's values").
    const notes: string[] = [];
    const alertNote = bucketsNote(plan.seriesStep, [plan.metric, ...plan.find.map((f) => f.path)]);
    if (alertNote) notes.push(alertNote);
    const columns = new SweepColumns();
    const run = { seed, threads: threadSetting(s.simulation.threads, io)(checkPoints(file, plan, seed, notes, columns)) };
    // The --vary options as given: the file's own sweep.vary comes with the file.
    const replay = new ReplayLine('sweep', [file], s.scenario).each('--vary', s.vary).overrides(s.scenario).option('--seed', seed)
      .given('--metric', s.metric).each('--find', s.find.map((f) => f.text)).given('--series', s.series).precision(s.large.precision);
    const paths = plan.axes.map((a) => a.path);
    const logPaths = plan.axes.filter((a) => a.log).map((a) => a.path);
    if (plan.shard) {
      const part = new SweepPartText(plan.shard, plan.to - plan.from);
      await simulatePoints(file, plan, run, io, signal, (pt, scenario, outcome) => {
        const written = writtenScenario(scenario);
        part.add({ index: pt.index, params: pointParams(plan.axes, pt, written), scenario: written, fingerprint: scenarioFingerprint(scenario), grid_step: outcome.gridStep, state: outcome.state.toData() });
      });
      out.write(part.text({
        idem_sim_partial: PARTIAL_FORMAT, kind: 'sweep', version: toolVersion(), shard: plan.shard, replay_args: replay.args,
        sweep: {
          scenario: file, fingerprint: scenarioFingerprint(plan.base.scenario), paths, points: plan.size, seed, metric: plan.metric, log_paths: logPaths,
          ...(plan.find.length > 0 ? { find: plan.find.map((f) => f.text) } : {}), ...(plan.seriesStep !== undefined ? { series_step: plan.seriesStep } : {}),
        },
      }));
    } else {
      // Each point is written as it finishes (report/sweep-stream.ts), its columns foretold by checkPoints.
      const head = { scenario: file, paths, seed, version: toolVersion(), replay: replay.text(), logPaths, ...(plan.find.length > 0 ? { find: plan.find } : {}), columns };
      const writer = sweepWriter(plan.format, head, plan.metric, out.style(), { write: (text) => out.append(text), spool: () => out.spool() });
      await simulatePoints(file, plan, run, io, signal, (pt, scenario, outcome) => writer.point(pointResult(plan, pt, scenario, outcome)));
      await writer.end();
      out.write(''); // the end: a file, written as the points came, is renamed into place
    }
    sayNotes(io, notes);
    return 0;
  });
}

function sweepPlan(file: string, s: SweepSettings, io: Io): SweepPlan {
  const format = sweepFormat(s.output);
  const seed = s.simulation.seed?.value;
  const read = scenarioReader(s.scenario, io);
  const base = read(file);
  const metric = s.metric?.value ?? sweepMetricOption(base.sweep?.metric ?? 'duplicates_per_1000');
  const axes = readAxes(file, base.sweep?.vary ?? [], s.vary, () => maxPointsAllowed(s.maxPoints));
  const varied = axes.map((a) => a.path);
  checkSweepMetric(metric, { origin: { source: file }, keyPath: 'sweep.metric' }, base.scenario, varied);
  const find = findConditions(s.find, base.scenario, varied);
  const seriesStep = s.series?.value;
  if (s.series !== undefined && base.scenario.alerts.length === 0 && base.scenario.incidents.length === 0) warn(io, seriesWithoutAlerts(s.series.text, file));
  const size = gridSize(axes);
  const precision = precisionTarget(s.large.precision, s.scenario.actions);
  const shard = s.large.shard?.value;
  if (shard && precision) {
    throw new InputError({ source: '--shard' }, '', 'cannot be combined with --precision', 'Shard a sweep of fixed --actions, or run --precision on one machine.');
  }
  const [from, to] = shard ? shardRange(size, shard) : [0, size];
  return { read, format, seed, base, metric, find, seriesStep, seriesText: s.series?.text, axes, size, precision, shard, from, to };
}

/**
 * Reads and checks every point before simulating any, so a bad value fails at once; gives the
 * work of the actions the sweep simulates (`simulationWork`, for the default thread count), and
 * adds each point's columns to `columns` (report/sweep-columns.ts). Only those are kept: a loaded
 * scenario is about 10 KB (and holds its empirical data), so each point is read again when its
 * turn comes.
 */
function checkPoints(file: string, plan: SweepPlan, seed: string, notes: string[], columns: SweepColumns): number {
  const { precision, axes } = plan;
  let work = 0;
  let readings = 0;
  for (const pt of eachGridPoint(axes, plan.from, plan.to)) {
    const k = pt.index - plan.from;
    const loaded = plan.read(file, pointOverrides(axes, pt));
    const { scenario, locate } = loaded;
    // At a point, the keys the sweep varies are set: the note names only the lab values every point runs on.
    const note = k === 0 ? labDefaultsNote(file, [{ parsed: loaded }]) : undefined;
    if (note) notes.push(note);
    const written = writtenScenario(scenario);
    checkLabels(axes, pt, written);
    readings += alertReadings(scenario);
    // The whole grid's, as these points foretell it (a shard's points are merged with the others').
    if ((readings / (k + 1)) * gridSize(axes) > MAX_ALERT_READINGS) throw tooManyReadings(file, gridSize(axes), scenario);
    try {
      refuseSplit({ scenario, ...(precision ? { precision } : {}) }, locate);
      checkTimeRun({ scenario, seed, locate, ...(precision ? { precision } : {}), ...(plan.seriesStep !== undefined ? { seriesStep: plan.seriesStep } : {}) }, plan.seriesText);
    } catch (e) {
      // What these refuse depends on the point's values: say which point.
      if (!(e instanceof InputError)) throw e;
      throw new InputError(e.origin, e.keyPath, `${e.problem} (at the point ${pointName(axes, pt)})`, e.fix);
    }
    columns.add(plannedShape(written));
    work += simulationWork(scenario, precision?.maxActions ?? scenario.actions);
  }
  return work;
}

/** What a finished point gives the report: its params, metrics and alerts' readings, held to the columns its scenario foretold. */
function pointResult(plan: SweepPlan, pt: GridPoint, scenario: RunRequest['scenario'], outcome: RunOutcome): SweepPointResult {
  const written = writtenScenario(scenario);
  const result = {
    params: pointParams(plan.axes, pt, written), metrics: outcome.state.finish(scenario), ...(plan.precision ? { precision: precisionInfo(plan.precision, outcome) } : {}),
    ...alertsOnly(timeResults(scenario, outcome.state, false)),
  };
  checkShape(plannedShape(written), result, pointName(plan.axes, pt));
  return result;
}

/**
 * Simulates the points in order (coupled points side by side, one a thread: exec/side-by-side.ts),
 * giving each to `take` as it finishes, in the grid's order. A point's sums (its grid alone can be
 * hundreds of KB) go no further than `take`.
 */
async function simulatePoints(file: string, plan: SweepPlan, run: { seed: string; threads: number }, io: Io, signal: AbortSignal | undefined,
  take: (pt: GridPoint, scenario: RunRequest['scenario'], outcome: RunOutcome) => void): Promise<void> {
  const { precision, axes, from, to } = plan;
  const bar = progressBar(io.stderr, 'sweep', 'points');
  // Each point's scenario is read when its turn is near (see `checkPoints`).
  function* jobs() {
    for (const pt of eachGridPoint(axes, from, to)) {
      const { scenario } = plan.read(file, pointOverrides(axes, pt));
      yield { pt, request: { scenario, seed: run.seed, threads: run.threads, ...(precision ? { precision } : {}), ...(plan.seriesStep !== undefined ? { seriesStep: plan.seriesStep } : {}) } };
    }
  }
  const took = ({ pt, request }: { pt: GridPoint; request: RunRequest }, outcome: RunOutcome) => {
    bar.update(pt.index - from + 1, to - from);
    warnCoarsened(io, `the point ${pointName(axes, pt)}`, request, outcome);
    take(pt, request.scenario, outcome);
  };
  try {
    await runSideBySide(jobs(), {
      threads: run.threads, runHere: (job) => runScenario({ ...job.request, ...(signal ? { signal } : {}) }), take: took, signal,
      name: ({ pt }) => `the sweep's point ${pointName(axes, pt)}`,
    });
  } finally {
    bar.stop();
  }
}
