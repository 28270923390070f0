/** `idem-sim sweep SCENARIO --vary PATH=VALUES ...`: the scenario over a grid of settings. */
import { runScenario } from '../exec/runner.js';
import { METRIC_PATHS, type MetricPath } from '../results/metric-paths.js';
import { shardRange } from '../engine/plan.js';
import type { PrecisionTarget } from '../results/precision.js';
import type { Scenario, WrittenScenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { clipped } from '../scenario/printable.js';
import { isDurationKey } from '../scenario/schema.js';
import type { FileVary, Override } from '../scenario/parse.js';
import { DEFAULT_MAX_POINTS, gridPoints, gridSize, MAX_POINTS, type Axis, type GridPoint } from '../sweeps/grid.js';
import { labelChars, MAX_LABEL_CHARS, pointLabel } from '../sweeps/labels.js';
import { countValues, parseValues, ValuesError } from '../sweeps/values.js';
import { toolVersion, type Io } from './io.js';
import {
  oneOf, positiveInteger, precisionTarget, seedOption, shard as parseShard,
  type PrecisionOptions,
} from './options.js';
import { parseKeyPath } from '../scenario/overrides.js';
import { PARTIAL_FORMAT, scenarioFingerprint } from '../shards/partial.js';
import { progressBar } from './progress.js';
import { SweepPartText } from '../shards/sweep-part.js';
import { alertReadings, MAX_ALERT_READINGS, tooManyReadings } from '../sweeps/readings.js';
import { writtenScenario } from '../report/json.js';
import { checkTimeRun } from './shared/time.js';
import { alertsOnly, timeResults } from '../results/time-results.js';
import type { SweepPointResult } from '../report/sweep.js';
import { renderSweep, type SweepFormat } from '../report/sweep-reporters.js';
import { sweepFormat } from './shared/formats.js';
import { scenarioReader, type LoadedScenario, type ScenarioReader } from './shared/load.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { precisionInfo, runSeed, threadSetting, type SimulationOptions } from './shared/simulate.js';

export interface SweepOptions extends SimulationOptions, PrecisionOptions {
  vary?: string[];
  metric?: string;
  format?: string;
  json?: boolean;
  maxPoints?: string;
  svg?: boolean;
  out?: string;
  shard?: string;
}

export { DEFAULT_MAX_POINTS, MAX_POINTS } from '../sweeps/grid.js';

/** A varied key, and whether its values were written as a log range (`log:100ms..10s:9`): charts draw those on a log axis. */
type SweepAxis = Axis & { log: boolean };
const isLogRange = (spec: string | readonly unknown[]) => typeof spec === 'string' && /^\s*log:/.test(spec);

/** A varied key as written, before its values are made: a range of 10^9 points is refused from its count. */
interface AxisSpec { path: string; spec: string | readonly (string | number | boolean)[]; option: string; where: string; keyPath: string }

function axisFromOption(arg: string): AxisSpec {
  const eq = arg.indexOf('=');
  const option = `--vary ${arg}`;
  const path = eq > 0 ? arg.slice(0, eq).trim() : '';
  if (!path || !parseKeyPath(path)) {
    throw new InputError({ source: option }, '', 'expected PATH=VALUES', 'Write it as --vary client.timeout=200ms..2s:10 or --vary idempotency.scope=none,call,intent.');
  }
  return { path, spec: arg.slice(eq + 1), option, where: option, keyPath: '' };
}

function fromValuesError<T>(a: AxisSpec, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof ValuesError) throw new InputError({ source: a.where }, a.keyPath, e.problem, e.fix);
    throw e;
  }
}

/**
 * The grid's axes: the scenario's `sweep.vary` and the --vary options (which win). Every check
 * that needs no values comes first, and the grid's size is the product of the value counts,
 * so a grid over the limit is refused before any value is made.
 */
function readAxes(file: string, fileVary: readonly FileVary[], opts: Pick<SweepOptions, 'vary' | 'maxPoints'>): SweepAxis[] {
  const fromOptions = (opts.vary ?? []).map(axisFromOption);
  const given = new Set<string>();
  for (const a of fromOptions) {
    if (given.has(a.path)) throw new InputError({ source: a.option }, '', `${a.path} is varied twice`, 'Give each key one --vary, with all its values.');
    given.add(a.path);
  }
  const fromFile = fileVary.filter((v) => !given.has(v.path)).map((v): AxisSpec => {
    const where = `${v.origin.source}${v.origin.line ? `:${v.origin.line}` : ''}`;
    return { path: v.path, spec: v.values, option: `sweep.vary.${v.path} (${where})`, where, keyPath: `sweep.vary.${v.path}` };
  });
  const specs = [...fromFile, ...fromOptions];
  for (const a of specs) {
    const top = a.path.split(/[.[]/)[0] ?? '';
    if (['seed', 'description', 'hint', 'expect', 'sweep', '$schema'].includes(top)) {
      throw new InputError({ source: a.option }, '', `${a.path} is not a setting of the model`,
        top === 'seed' ? 'Every point uses one seed (common random numbers); to compare seeds, run the sweep with --seed.' : 'Vary the scenario\'s settings, such as client.timeout.');
    }
  }
  if (specs.length === 0) {
    throw new InputError({ source: file }, '', 'nothing to vary', 'Give --vary PATH=VALUES (such as --vary client.timeout=200ms..2s:10), or a sweep: block in the scenario.');
  }
  const maxPoints = opts.maxPoints === undefined ? DEFAULT_MAX_POINTS : positiveInteger('--max-points', opts.maxPoints);
  if (maxPoints > MAX_POINTS) {
    throw new InputError({ source: `--max-points ${opts.maxPoints}` }, '', `is over the limit of ${MAX_POINTS.toLocaleString('en-US')} points`,
      `Give at most --max-points ${MAX_POINTS}; for a larger study, run several sweeps over parts of the range.`);
  }
  const counts = specs.map((a) => fromValuesError(a, () => countValues(a.spec)));
  const size = counts.reduce((n, c) => n * c, 1);
  if (size > maxPoints) {
    const shown = Number.isSafeInteger(size) ? size.toLocaleString('en-US') : `${counts.map((c) => c.toLocaleString('en-US')).join(' × ')} (over 10^15)`;
    // Named by where its axes were given: --vary, the file's sweep: block, or both.
    const source = fromFile.length === 0 ? '--vary' : `${fromFile.map((a) => a.where).join(', ')}${fromOptions.length > 0 ? ' and --vary' : ''}`;
    throw new InputError({ source }, fromFile.length > 0 ? 'sweep.vary' : '', `the grid has ${shown} points, more than ${maxPoints.toLocaleString('en-US')}`,
      size <= MAX_POINTS ? `Vary fewer values, or raise the limit with --max-points ${size}.` : `Vary fewer values: a sweep has at most ${MAX_POINTS.toLocaleString('en-US')} points.`);
  }
  return specs.map((a): SweepAxis => {
    const values = fromValuesError(a, () => parseValues(a.spec, isDurationKey(a.path)));
    const seen = new Set<string>();
    for (const v of values) {
      if (seen.has(v)) throw new InputError({ source: a.option }, '', `the value ${v} is given twice`, 'Give each value once.');
      seen.add(v);
    }
    return { path: a.path, values, option: a.option, log: isLogRange(a.spec) };
  });
}

/** The grid and how to report it, each option checked in the order its errors have always come. */
interface SweepPlan {
  read: ScenarioReader;
  format: SweepFormat;
  /** The scenario as the file and --set give it, before any point's values. */
  base: LoadedScenario;
  metric: MetricPath;
  axes: SweepAxis[];
  size: number;
  precision: PrecisionTarget | undefined;
  shard: { index: number; count: number } | undefined;
  /** This shard's points: `from` to `to` (exclusive) of the grid's. */
  from: number;
  to: number;
}

export async function sweepCommand(file: string, opts: SweepOptions, io: Io, signal?: AbortSignal): Promise<number> {
  return withOutput(io, opts.out, [file], async (out) => {
    const plan = sweepPlan(file, opts, io);
    const points = gridPoints(plan.axes, plan.from, plan.to);
    const seed = runSeed(opts.seed, plan.base.seed);
    const actions = checkPoints(file, plan, points, seed);
    const threads = threadSetting(opts.threads, io)(actions);
    const part = plan.shard ? new SweepPartText(plan.shard, plan.to - plan.from) : undefined;
    const results = await simulatePoints(file, plan, points, { seed, threads, part }, io, signal);
    // The --vary options as given: the file's own sweep.vary comes with the file.
    const replay = new ReplayLine('sweep', [file], opts).each('--vary', opts.vary).overrides(opts).option('--seed', seed)
      .option('--metric', opts.metric).precision(opts);
    const paths = plan.axes.map((a) => a.path);
    const logPaths = plan.axes.filter((a) => a.log).map((a) => a.path);
    out.write(part
      ? part.text({
        idem_sim_partial: PARTIAL_FORMAT, kind: 'sweep', version: toolVersion(), shard: plan.shard, replay_args: replay.args,
        sweep: { scenario: file, fingerprint: scenarioFingerprint(plan.base.scenario), paths, points: plan.size, seed, metric: plan.metric, log_paths: logPaths },
      })
      : await renderSweep({ scenario: file, paths, seed, version: toolVersion(), replay: replay.text(), points: results, logPaths }, plan.format, plan.metric, out.style()));
    return 0;
  });
}

function sweepPlan(file: string, opts: SweepOptions, io: Io): SweepPlan {
  const format = sweepFormat(opts);
  seedOption(opts.seed);
  const read = scenarioReader(opts, io);
  const base = read(file);
  const metric = oneOf('--metric', opts.metric ?? base.sweep?.metric ?? 'duplicates_per_1000', METRIC_PATHS) as MetricPath;
  const axes = readAxes(file, base.sweep?.vary ?? [], opts);
  const size = gridSize(axes);
  const precision = precisionTarget(opts);
  const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  if (shard && precision) {
    throw new InputError({ source: '--shard' }, '', 'cannot be combined with --precision', 'Shard a sweep of fixed --actions, or run --precision on one machine.');
  }
  const [from, to] = shard ? shardRange(size, shard) : [0, size];
  return { read, format, base, metric, axes, size, precision, shard, from, to };
}

/**
 * A point's labels (sweeps/labels.ts): each key's value in the scenario as written, or as the
 * sweep gave it where the scenario holds none (`none`).
 */
function pointParams(axes: readonly SweepAxis[], pt: GridPoint, written: WrittenScenario): SweepPointResult['params'] {
  return Object.fromEntries(axes.map((a, i) => [a.path, pointLabel(written, parseKeyPath(a.path) ?? []) ?? (pt.values[i] as string)]));
}

/** A point's labels, refused before any point runs when they pass MAX_LABEL_CHARS together. */
function checkLabels(axes: readonly SweepAxis[], pt: GridPoint, scenario: Scenario): void {
  const chars = labelChars(pointParams(axes, pt, writtenScenario(scenario)));
  if (chars <= MAX_LABEL_CHARS) return;
  const where = axes.map((a, i) => `${a.path}=${clipped(pt.values[i] as string, 60)}`).join(', ');
  throw new InputError({ source: axes.map((a) => a.option).join(', ') }, '',
    `the point ${where} is labelled with ${chars.toLocaleString('en-US')} characters (its values as the outputs print them), more than ${MAX_LABEL_CHARS}, the limit`,
    'Vary shorter values (fewer keys in a mapping, a shorter file name), or vary the keys inside a mapping one by one, such as service.latency.median.');
}

/** A point's values as overrides, after the command's --set. */
function pointOverrides(axes: readonly SweepAxis[], pt: GridPoint): Override[] {
  return axes.map((a, k): Override => ({ path: parseKeyPath(a.path) ?? [], text: pt.values[k] as string, option: `${a.option} (value ${pt.values[k]})` }));
}

/**
 * Reads and checks every point before simulating any, so a bad value fails at once; gives the
 * actions the sweep simulates. Only the actions are kept: a loaded scenario is about 10 KB (and
 * holds its empirical data), so each point is read again when its turn comes.
 */
function checkPoints(file: string, plan: SweepPlan, points: readonly GridPoint[], seed: string): number {
  const { precision, axes } = plan;
  let actions = 0;
  let readings = 0;
  for (const [k, pt] of points.entries()) {
    const { scenario, locate } = plan.read(file, pointOverrides(axes, pt));
    checkLabels(axes, pt, scenario);
    readings += alertReadings(scenario);
    // The whole grid's, as these points foretell it (a shard's points are merged with the others').
    if ((readings / (k + 1)) * gridSize(axes) > MAX_ALERT_READINGS) throw tooManyReadings(file, gridSize(axes), scenario);
    try {
      checkTimeRun({ scenario, seed, locate, ...(precision ? { precision } : {}) });
    } catch (e) {
      // What time refuses depends on the point's values: say which point.
      if (!(e instanceof InputError)) throw e;
      throw new InputError(e.origin, e.keyPath, `${e.problem} (at the point ${axes.map((a, i) => `${a.path}=${pt.values[i]}`).join(', ')})`, e.fix);
    }
    actions += precision?.maxActions ?? scenario.actions;
  }
  return actions;
}

/** Simulates the points in turn: a shard's go into its part as they come, the others' metrics are returned. */
async function simulatePoints(file: string, plan: SweepPlan, points: readonly GridPoint[], run: { seed: string; threads: number; part: SweepPartText | undefined },
  io: Io, signal: AbortSignal | undefined): Promise<SweepPointResult[]> {
  const { precision, axes, from, to } = plan;
  const bar = progressBar(io.stderr, 'sweep', 'points');
  const results: SweepPointResult[] = [];
  try {
    for (const pt of points) {
      const { scenario } = plan.read(file, pointOverrides(axes, pt));
      const outcome = await runScenario({
        scenario, seed: run.seed, threads: run.threads, ...(precision ? { precision } : {}), ...(signal ? { signal } : {}),
      });
      bar.update(pt.index - from + 1, to - from);
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
    }
  } finally {
    bar.stop();
  }
  return results;
}
