/** `idem-sim run [SCENARIO ...]`: simulate each scenario and report them side by side. */
import type { RunStateData } from '../results/metrics.js';
import type { PrecisionTarget } from '../results/precision.js';
import { InputError } from '../scenario/errors.js';
import { toolVersion, type Io } from './io.js';
import { precisionTarget, seedOption, shard as parseShard, type PrecisionOptions } from './options.js';
import { PARTIAL_FORMAT, renderPartial, scenarioFingerprint, type PartialRun } from '../shards/partial.js';
import { writtenScenario } from '../report/json.js';
import type { RunFormat } from '../report/run-reporters.js';
import type { ScenarioRun } from '../report/types.js';
import { checkSeriesFormat, renderRuns, runFormat } from './shared/formats.js';
import { scenarioReader, warningTexts, type ScenarioReader } from './shared/load.js';
import type { ScenarioWarning } from '../scenario/parse.js';
import { columnNames } from '../scenario/names.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { precisionInfo, progressOfMany, runSeed, simulate, simulationWork, threadSetting, type SimulationOptions } from './shared/simulate.js';
import type { RunOutcome, RunRequest } from '../exec/runner.js';
import { runSideBySide } from '../exec/side-by-side.js';
import { refuseSplit } from '../exec/coupled-refusal.js';
import { checkTimeRun } from './shared/time.js';
import { seriesOption } from '../scenario/series-option.js';
import { timeResults } from '../results/time-results.js';

export interface RunOptions extends SimulationOptions, PrecisionOptions {
  json?: boolean;
  /** One of RUN_FORMATS (`--json` is `--format json`). */
  format?: string;
  out?: string;
  shard?: string;
  /** `--series STEP`: count the run's series in buckets of STEP. */
  series?: string;
}

type Shard = { index: number; count: number };

/** What the options ask for, each checked in the order its errors have always come. */
interface RunSettings {
  read: ScenarioReader;
  format: RunFormat;
  threads: (actions: number) => number;
  precision: PrecisionTarget | undefined;
  shard: Shard | undefined;
  /** The series' step (ms), if asked for. */
  seriesStep: number | undefined;
}

/** A run as reported, with what a shard's part holds besides. */
type SimulatedRun = ScenarioRun & { fingerprint: string; gridStep: number; state?: RunStateData };

export async function runCommand(files: string[], opts: RunOptions, io: Io, signal?: AbortSignal): Promise<number> {
  return withOutput(io, opts.out, files, async (out) => {
    const settings = runSettings(opts, io);
    const runs = await simulateRuns(files.length > 0 ? files : [null], settings, opts, io, signal);
    const seeds = [...new Set(runs.map((r) => r.seed))];
    const args = new ReplayLine('run', files, opts).overrides(opts).option('--seed', seeds.length === 1 ? seeds[0] : undefined).option('--series', opts.series).precision(opts).args;
    out.write(settings.shard
      ? partialText(runs, settings.shard, args, settings.seriesStep)
      : renderRuns(runs, args, settings.format, toolVersion(), out.style(), out.width()));
    return 0;
  });
}

function runSettings(opts: RunOptions, io: Io): RunSettings {
  const read = scenarioReader(opts, io);
  const format = runFormat(opts);
  seedOption(opts.seed);
  const threads = threadSetting(opts.threads, io);
  const precision = precisionTarget(opts);
  const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  const seriesStep = seriesOption(opts.series);
  checkSeriesFormat(format, seriesStep !== undefined, 'run');
  if (shard && precision) {
    throw new InputError({ source: '--shard' }, '', 'cannot be combined with --precision (when to stop depends on all shards)',
      'Shard a run of fixed --actions, or run --precision on one machine.');
  }
  return { read, format, threads, precision, shard, seriesStep };
}

/**
 * Reads every scenario first (a bad one fails before any is simulated), then simulates each in
 * order (coupled ones side by side on --threads, each on one thread: exec/side-by-side.ts).
 */
async function simulateRuns(files: readonly (string | null)[], s: RunSettings, opts: RunOptions, io: Io, signal: AbortSignal | undefined): Promise<SimulatedRun[]> {
  const { precision, shard } = s;
  const loaded = files.map((file) => ({ file, ...s.read(file) }));
  for (const { scenario, locate } of loaded) refuseSplit({ scenario, ...(shard ? { shard } : {}), ...(precision ? { precision } : {}) }, locate);
  const names = columnNames(files);
  const threads = s.threads(loaded.reduce((sum, l) => sum + simulationWork(l.scenario, precision?.maxActions ?? l.scenario.actions), 0));
  const apart = progressOfMany(io, 'run');
  function* jobs() {
    for (const [k, { file, scenario, seed: fileSeed, warnings, locate }] of loaded.entries()) {
      const seed = runSeed(opts.seed, fileSeed);
      checkTimeRun({ scenario, seed, locate, ...(precision ? { precision } : {}), ...(s.seriesStep !== undefined ? { seriesStep: s.seriesStep } : {}) }, opts.series);
      const request: RunRequest = {
        scenario, seed, threads, ...(shard ? { shard } : {}), ...(precision ? { precision } : {}),
        ...(s.seriesStep !== undefined ? { seriesStep: s.seriesStep } : {}), onProgress: apart.of(k),
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
      ...timeResults(scenario, outcome.state, s.seriesStep !== undefined),
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
