/** `idem-sim sweep SCENARIO --vary PATH=VALUES ...`: the scenario over a grid of settings. */
import { runScenario } from '../exec/runner.js';
import { METRIC_PATHS, type MetricPath } from '../model/metric-paths.js';
import type { RunStateData } from '../model/metrics.js';
import { shardRange } from '../model/plan.js';
import type { Scenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import type { FileVary, Override } from '../scenario/parse.js';
import { gridPoints, gridSize, type Axis, type GridPoint } from '../sweeps/grid.js';
import { countValues, parseValues, ValuesError } from '../sweeps/values.js';
import { PendingOutput } from './outputs.js';
import { chalkFor, shellQuote, toolVersion, type Io } from './io.js';
import { MAX_SHARDS, oneOf, positiveInteger, seedOption, shard as parseShard, threadCount } from './options.js';
import { MAX_PART_BYTES, sealJson } from './part-check.js';
import { PARTIAL_FORMAT, scenarioFingerprint } from './partial.js';
import { progressBar } from './progress.js';
import { resolvedScenario } from './report/json.js';
import type { SweepPointResult, SweepReport } from './report/sweep.js';
import { renderSweep, SWEEP_FORMATS, type SweepFormat } from './report/sweep-reporters.js';
import { DEFAULT_SEED, defaultThreads, loadScenario, parseKeyPath, parseOverrides, precisionTarget, type RunOptions } from './run.js';

export interface SweepOptions extends RunOptions {
  vary?: string[];
  metric?: string;
  format?: string;
  maxPoints?: string;
  svg?: boolean;
}

/** Largest grid run without --max-points: a sweep that size at the lab's 4,000 actions takes minutes. */
export const DEFAULT_MAX_POINTS = 10_000;
/**
 * Largest grid --max-points may allow: 50,000 points. A point keeps its metrics (about 4 KB of
 * heap) until the report is written, and the JSON report takes 3.3 KB a point more: 20,000
 * points of JSON peaked at 369 MB, so 50,000 stay under a gigabyte, and take about 20 s to
 * render as a table.
 */
export const MAX_POINTS = 50_000;

/** What --format, --json and --svg ask for: one of SWEEP_FORMATS, or `svg` (the charts as one SVG; see docs/charts.md). */
export function outputFormat(opts: { format?: string; json?: boolean; svg?: boolean }): SweepFormat {
  const format = opts.json ? 'json' : oneOf('--format', opts.format ?? 'table', SWEEP_FORMATS) as SweepFormat; // oneOf checked it
  if (!opts.svg) return format;
  if (format === 'html' || (opts.format === undefined && !opts.json)) return 'svg';
  throw new InputError({ source: '--svg' }, '', `cannot be combined with ${opts.json ? '--json' : `--format ${format}`}`,
    `Give --svg alone for the charts as one SVG image, or ${opts.json ? '--json' : `--format ${format}`} alone (--format html gives a page with every chart and a table).`);
}

/** A varied key, and whether its values were written as a log range (`log:100ms..10s:9`): charts draw those on a log axis. */
type SweepAxis = Axis & { log: boolean };
const isLogRange = (spec: string | readonly unknown[]) => typeof spec === 'string' && /^\s*log:/.test(spec);

/** A point of a sharded sweep, as its partial result holds it. */
export interface PartialPoint {
  index: number;
  params: SweepPointResult['params'];
  scenario: Scenario;
  fingerprint: string;
  grid_step: number;
  state: RunStateData;
}

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
function readAxes(file: string, fileVary: readonly FileVary[], opts: SweepOptions): SweepAxis[] {
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
    throw new InputError({ source: '--vary' }, '', `the grid has ${shown} points, more than ${maxPoints.toLocaleString('en-US')}`,
      size <= MAX_POINTS ? `Vary fewer values, or raise the limit with --max-points ${size}.` : `Vary fewer values: a sweep has at most ${MAX_POINTS.toLocaleString('en-US')} points.`);
  }
  return specs.map((a): SweepAxis => {
    const values = fromValuesError(a, () => parseValues(a.spec));
    const seen = new Set<string>();
    for (const v of values) {
      if (seen.has(v)) throw new InputError({ source: a.option }, '', `the value ${v} is given twice`, 'Give each value once.');
      seen.add(v);
    }
    return { path: a.path, values, option: a.option, log: isLogRange(a.spec) };
  });
}

/**
 * The text of a sweep shard's part, built point by point, each point's JSON made as soon as it
 * is simulated; refused once it passes what `merge` reads (MAX_PART_BYTES), with the number of
 * shards that would fit.
 */
class SweepPartText {
  private readonly pieces: string[] = [];
  private bytes = 0;
  constructor(private readonly shard: { index: number; count: number }, private readonly points: number) {}

  add(point: PartialPoint): void {
    const json = JSON.stringify(point);
    this.bytes += Buffer.byteLength(json) + 1;
    if (this.bytes > MAX_PART_BYTES - PART_HEAD_ROOM) {
      const done = this.pieces.length + 1;
      // A tenth to spare: points differ in size.
      const needed = Math.ceil((1.1 * this.shard.count * (this.bytes / done) * this.points) / (MAX_PART_BYTES - PART_HEAD_ROOM));
      throw new InputError({ source: `--shard ${this.shard.index}/${this.shard.count}` }, '',
        `the part passes ${MAX_PART_BYTES / 1024 / 1024} MiB, the most merge reads, at point ${done.toLocaleString('en-US')} of the ${this.points.toLocaleString('en-US')} in this shard`,
        `Split the sweep into more shards (about --shard i/${Math.min(needed, MAX_SHARDS)}), or vary fewer values.`);
    }
    this.pieces.push(json);
  }

  /** The sealed part: `head`, then the points. */
  text(head: object): string {
    const open = JSON.stringify({ ...head, points: [] }).slice(0, -2); // ends with "points":[
    return sealJson(`${open}${this.pieces.join(',')}]}`);
  }
}

/** Room left in a part for what precedes its points (the command, the keys varied). */
const PART_HEAD_ROOM = 1024 * 1024;

/** The value a key took in a resolved scenario, for the param columns. */
function valueAt(s: Scenario, path: string): string | number | boolean | null {
  let node: unknown = s;
  for (const k of parseKeyPath(path) ?? []) node = (node as Record<string | number, unknown> | undefined)?.[k];
  return typeof node === 'object' ? (node === null ? null : JSON.stringify(node)) : (node as string | number | boolean);
}

export async function sweepCommand(file: string, opts: SweepOptions, io: Io, signal?: AbortSignal): Promise<number> {
  const out = opts.out !== undefined ? new PendingOutput(opts.out, [file]) : null;
  try {
    const format = outputFormat(opts);
    seedOption(opts.seed);
    const sets = parseOverrides(opts);
    const access = { allowOutside: opts.allowOutside === true };
    const base = loadScenario(file, sets, access);
    const metric = oneOf('--metric', opts.metric ?? base.sweep?.metric ?? 'duplicates_per_1000', METRIC_PATHS) as MetricPath;
    const axes = readAxes(file, base.sweep?.vary ?? [], opts);
    const size = gridSize(axes);
    const precision = precisionTarget(opts);
    const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
    if (shard && precision) {
      throw new InputError({ source: '--shard' }, '', 'cannot be combined with --precision', 'Shard a sweep of fixed --actions, or run --precision on one machine.');
    }
    const [from, to] = shard ? shardRange(size, shard) : [0, size];
    const overridesAt = (pt: GridPoint): Override[] => [...sets, ...axes.map((a, k): Override => ({ path: parseKeyPath(a.path) ?? [], text: pt.values[k] as string, option: `${a.option} (value ${pt.values[k]})` }))];
    // Read and check every point before simulating any, so a bad value fails at once. Only the
    // actions are kept: a loaded scenario is about 10 KB (and holds its empirical data), so each
    // point is read again when its turn comes.
    const points = gridPoints(axes, from, to);
    let commandActions = 0;
    for (const pt of points) commandActions += precision?.maxActions ?? loadScenario(file, overridesAt(pt), access).scenario.actions;

    const seed = opts.seed ?? base.seed ?? DEFAULT_SEED;
    const threads = opts.threads === undefined ? undefined : threadCount(opts.threads, io);
    const bar = progressBar(io.stderr, 'sweep', 'points');
    const results: SweepPointResult[] = [];
    const part = shard ? new SweepPartText(shard, to - from) : undefined;
    try {
      for (const pt of points) {
        const { scenario } = loadScenario(file, overridesAt(pt), access);
        const outcome = await runScenario({
          scenario, seed, threads: threads ?? defaultThreads(commandActions),
          ...(precision ? { precision } : {}), ...(signal ? { signal } : {}),
        });
        bar.update(pt.index - from + 1, to - from);
        const params = Object.fromEntries(axes.map((a, i) => [a.path, valueAt(scenario, a.path) ?? (pt.values[i] as string)]));
        // What grows with the points stays small: a point's sums (its grid alone can be hundreds
        // of KB) go only into a shard's part, as text.
        if (part) {
          part.add({ index: pt.index, params, scenario: resolvedScenario(scenario), fingerprint: scenarioFingerprint(scenario), grid_step: outcome.gridStep, state: outcome.state.toData() });
        } else {
          results.push({
            params, metrics: outcome.state.finish(scenario),
            ...(precision ? { precision: { metric: precision.metric, half_width: precision.halfWidth, max_actions: precision.maxActions, reached: outcome.precisionReached === true } } : {}),
          });
        }
      }
    } finally {
      bar.stop();
    }

    const args = ['idem-sim', 'sweep', file, ...(opts.allowOutside ? ['--allow-outside'] : []), ...axes.filter((a) => a.option.startsWith('--vary')).flatMap((a) => ['--vary', a.option.slice('--vary '.length)]),
      ...(opts.set ?? []).flatMap((s) => ['--set', s]), ...(opts.actions !== undefined ? ['--actions', opts.actions] : []),
      '--seed', seed, ...(opts.metric !== undefined ? ['--metric', opts.metric] : []), ...(opts.precision !== undefined ? ['--precision', opts.precision] : []),
      ...(opts.precisionMetric !== undefined ? ['--precision-metric', opts.precisionMetric] : []),
      ...(opts.maxActions !== undefined ? ['--max-actions', opts.maxActions] : [])];
    const logPaths = axes.filter((a) => a.log).map((a) => a.path);
    let text: string;
    if (part) {
      text = part.text({
        idem_sim_partial: PARTIAL_FORMAT, kind: 'sweep', version: toolVersion(), shard, replay_args: args,
        sweep: { scenario: file, fingerprint: scenarioFingerprint(base.scenario), paths: axes.map((a) => a.path), points: size, seed, metric, log_paths: logPaths },
      });
    } else {
      const report: SweepReport = { scenario: file, paths: axes.map((a) => a.path), seed, version: toolVersion(), replay: args.map(shellQuote).join(' '), points: results, logPaths };
      text = await renderSweep(report, format, metric, chalkFor(out ? {} : io.stdout, io.env));
    }
    if (out) out.commit(text, io.stdout);
    else io.stdout.write(text);
    return 0;
  } finally {
    out?.abort();
  }
}
