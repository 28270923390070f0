/** `idem-sim run [SCENARIO ...]`: simulate each scenario and report them side by side. */
import type { RunStateData } from '../results/metrics.js';
import type { PrecisionTarget } from '../results/precision.js';
import { InputError } from '../scenario/errors.js';
import { toolVersion, type Io } from './io.js';
import { PARTIAL_FORMAT, renderPartial, scenarioFingerprint, type PartialRun } from '../shards/partial.js';
import { writtenScenario } from '../report/json.js';
import type { RunFormat } from '../report/run-reporters.js';
import type { ScenarioRun } from '../report/types.js';
import { checkSeriesFormat, renderRuns } from './shared/formats.js';
import { scenarioReader, warningTexts, type ScenarioReader } from './shared/load.js';
import type { ScenarioWarning } from '../scenario/parse.js';
import { columnNames } from '../scenario/names.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { precisionInfo, progressOfMany, runSeed, simulate, simulationWork, threadSetting } from './shared/simulate.js';
import type { RunOutcome, RunRequest } from '../exec/runner.js';
import { runSideBySide } from '../exec/side-by-side.js';
import { refuseSplit } from '../exec/coupled-refusal.js';
import { checkTimeRun } from './shared/time.js';
import { timeResults } from '../results/time-results.js';
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
}

/** What `run` is asked, one typed piece for each stage: read, simulate, write. */
export interface RunSettings {
  scenario: ScenarioSettings;
  simulation: SimulationSettings;
  large: LargeRunSettings;
  output: OutputSettings<Given<RunFormat>>;
  series: Given<number> | undefined;
}

export function runSettings(opts: RunOptions): RunSettings {
  return { scenario: scenarioSettings(opts), simulation: simulationSettings(opts), large: largeRunSettings(opts), output: outputSettings(opts), series: opts.series };
}

/** What the settings ask for, each taken in the order its errors have always come. */
interface RunPlan {
  read: ScenarioReader;
  format: RunFormat;
  /** --seed, if given. */
  seed: string | undefined;
  threads: (actions: number) => number;
  precision: PrecisionTarget | undefined;
  shard: Shard | undefined;
  /** The series' step (ms), if asked for. */
  seriesStep: number | undefined;
}

/** A run as reported, with what a shard's part holds besides. */
type SimulatedRun = ScenarioRun & { fingerprint: string; gridStep: number; state?: RunStateData };

export async function runCommand(files: string[], s: RunSettings, io: Io, signal?: AbortSignal): Promise<number> {
  return withOutput(io, s.output.out, files, async (out) => {
    const plan = runPlan(s, io);
    const runs = await simulateRuns(files.length > 0 ? files : [null], plan, s, io, signal);
    const seeds = [...new Set(runs.map((r) => r.seed))];
    const args = new ReplayLine('run', files, s.scenario).overrides(s.scenario).option('--seed', seeds.length === 1 ? seeds[0] : undefined)
      .given('--series', s.series).precision(s.large.precision).args;
    out.write(plan.shard
      ? partialText(runs, plan.shard, args, plan.seriesStep)
      : renderRuns(runs, args, plan.format, toolVersion(), out.style(), out.width()));
    return 0;
  });
}

function runPlan(s: RunSettings, io: Io): RunPlan {
  const read = scenarioReader(s.scenario, io);
  const format = runFormat(s.output);
  const seed = s.simulation.seed?.value;
  const threads = threadSetting(s.simulation.threads, io);
  const precision = precisionTarget(s.large.precision, s.scenario.actions);
  const shard = s.large.shard?.value;
  const seriesStep = s.series?.value;
  checkSeriesFormat(format, seriesStep !== undefined, 'run');
  if (shard && precision) {
    throw new InputError({ source: '--shard' }, '', 'cannot be combined with --precision (when to stop depends on all shards)',
      'Shard a run of fixed --actions, or run --precision on one machine.');
  }
  return { read, format, seed, threads, precision, shard, seriesStep };
}

/**
 * Reads every scenario first (a bad one fails before any is simulated), then simulates each in
 * order (coupled ones side by side on --threads, each on one thread: exec/side-by-side.ts).
 */
async function simulateRuns(files: readonly (string | null)[], plan: RunPlan, s: RunSettings, io: Io, signal: AbortSignal | undefined): Promise<SimulatedRun[]> {
  const { precision, shard, seriesStep } = plan;
  const loaded = files.map((file) => ({ file, ...plan.read(file) }));
  for (const { scenario, locate } of loaded) refuseSplit({ scenario, ...(shard ? { shard } : {}), ...(precision ? { precision } : {}) }, locate);
  const names = columnNames(files);
  const threads = plan.threads(loaded.reduce((sum, l) => sum + simulationWork(l.scenario, precision?.maxActions ?? l.scenario.actions), 0));
  const apart = progressOfMany(io, 'run');
  function* jobs() {
    for (const [k, { file, scenario, seed: fileSeed, warnings, locate }] of loaded.entries()) {
      const seed = runSeed(plan.seed, fileSeed);
      checkTimeRun({ scenario, seed, locate, ...(precision ? { precision } : {}), ...(seriesStep !== undefined ? { seriesStep } : {}) }, s.series?.text);
      const request: RunRequest = {
        scenario, seed, threads, ...(shard ? { shard } : {}), ...(precision ? { precision } : {}),
        ...(seriesStep !== undefined ? { seriesStep } : {}), onProgress: apart.of(k),
      };
      yield { name: names[k] as string, file, warnings, request };
    }
  }
  const runs: SimulatedRun[] = [];
  const take = ({ name, file, warnings, request: { scenario, seed } }: { name: string; file: string | null; warnings: readonly ScenarioWarning[]; request: RunRequest }, outcome: RunOutcome) => {
    // A shard's sums (`state`) are written out; other runs only report metrics, and summing a
    // long run's grid into base64 took tens of ms at the end of every run.
    runs.push({
      name, file, seed, scenario: writtenScenario(scenario), warnings: warningTexts(warnings), metrics: outcome.state.finish(scenario),
      fingerprint: scenarioFingerprint(scenario), gridStep: outcome.gridStep, ...(shard ? { state: outcome.state.toData() } : {}),
      ...(precision ? { precision: precisionInfo(precision, outcome) } : {}),
      ...timeResults(scenario, outcome.state, seriesStep !== undefined),
    });
  };
  try {
    await runSideBySide(jobs(), { threads, runHere: (job) => simulate(io, job.name, job.request, signal), take, signal });
  } finally {
    apart.stop();
  }
  return runs;
}

/** A shard's part: its runs' sums, for `merge`. */
function partialText(runs: readonly SimulatedRun[], shard: Shard, replayArgs: string[], seriesStep: number | undefined): string {
  return renderPartial({
    idem_sim_partial: PARTIAL_FORMAT, version: toolVersion(), shard, replay_args: replayArgs, series_step: seriesStep ?? null,
    runs: runs.map((r): PartialRun => ({ name: r.name, file: r.file, seed: r.seed, scenario: r.scenario, warnings: r.warnings, fingerprint: r.fingerprint, grid_step: r.gridStep, state: r.state as RunStateData })),
  });
}
