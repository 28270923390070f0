/** `idem-sim sweep SCENARIO --vary PATH=VALUES ...`: the scenario over a grid of settings. */
import { runScenario } from '../exec/runner.js';
import { METRIC_PATHS, type MetricPath } from '../model/metric-paths.js';
import type { RunStateData } from '../model/metrics.js';
import { shardRange } from '../model/plan.js';
import type { Scenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import type { Override } from '../scenario/parse.js';
import { gridPoints, gridSize, type Axis } from '../sweeps/grid.js';
import { parseValues, ValuesError } from '../sweeps/values.js';
import { PendingOutput } from './files.js';
import { chalkFor, shellQuote, toolVersion, type Io } from './io.js';
import { oneOf, positiveInteger, seedOption, shard as parseShard } from './options.js';
import { PARTIAL_FORMAT, scenarioFingerprint } from './partial.js';
import { progressBar } from './progress.js';
import { resolvedScenario } from './report/json.js';
import { renderCsv, renderSweepJson, renderSweepTable, type SweepPointResult, type SweepReport } from './report/sweep.js';
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
export const FORMATS = ['table', 'csv', 'json', 'html'] as const;

/** What --format, --json and --svg ask for: one of FORMATS, or `svg` (the charts as one SVG; see docs/charts.md). */
export function outputFormat(opts: { format?: string; json?: boolean; svg?: boolean }): string {
  const format = opts.json ? 'json' : oneOf('--format', opts.format ?? 'table', FORMATS);
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

function axisFromOption(arg: string): SweepAxis {
  const eq = arg.indexOf('=');
  const option = `--vary ${arg}`;
  const path = eq > 0 ? arg.slice(0, eq).trim() : '';
  if (!path || !parseKeyPath(path)) {
    throw new InputError({ source: option }, '', 'expected PATH=VALUES', 'Write it as --vary client.timeout=200ms..2s:10 or --vary idempotency.scope=none,call,intent.');
  }
  return { path, values: values(arg.slice(eq + 1), option), option, log: isLogRange(arg.slice(eq + 1)) };
}

function values(spec: string | readonly (string | number | boolean)[], option: string, keyPath = ''): string[] {
  try {
    return parseValues(spec);
  } catch (e) {
    if (e instanceof ValuesError) throw new InputError({ source: option }, keyPath, e.problem, e.fix);
    throw e;
  }
}

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
    const base = loadScenario(file, sets);
    const metric = oneOf('--metric', opts.metric ?? base.sweep?.metric ?? 'duplicates_per_1000', METRIC_PATHS) as MetricPath;
    const fromFile = (base.sweep?.vary ?? []).map((v): SweepAxis => {
      const where = `${v.origin.source}${v.origin.line ? `:${v.origin.line}` : ''}`;
      return { path: v.path, values: values(v.values, where, `sweep.vary.${v.path}`), option: `sweep.vary.${v.path} (${where})`, log: isLogRange(v.values) };
    });
    const fromOptions = (opts.vary ?? []).map(axisFromOption);
    const axes = [...fromFile.filter((a) => !fromOptions.some((o) => o.path === a.path)), ...fromOptions];
    for (const [k, a] of axes.entries()) {
      if (axes.findIndex((b) => b.path === a.path) !== k) {
        throw new InputError({ source: a.option }, '', `${a.path} is varied twice`, 'Give each key one --vary, with all its values.');
      }
      const twice = a.values.find((v, i) => a.values.indexOf(v) !== i);
      if (twice !== undefined) throw new InputError({ source: a.option }, '', `the value ${twice} is given twice`, 'Give each value once.');
      const top = a.path.split(/[.[]/)[0] ?? '';
      if (['seed', 'description', 'hint', 'expect', 'sweep', '$schema'].includes(top)) {
        throw new InputError({ source: a.option }, '', `${a.path} is not a setting of the model`,
          top === 'seed' ? 'Every point uses one seed (common random numbers); to compare seeds, run the sweep with --seed.' : 'Vary the scenario\'s settings, such as client.timeout.');
      }
    }
    if (axes.length === 0) {
      throw new InputError({ source: file }, '', 'nothing to vary', 'Give --vary PATH=VALUES (such as --vary client.timeout=200ms..2s:10), or a sweep: block in the scenario.');
    }
    const maxPoints = opts.maxPoints === undefined ? DEFAULT_MAX_POINTS : positiveInteger('--max-points', opts.maxPoints);
    const size = gridSize(axes);
    if (size > maxPoints) {
      throw new InputError({ source: '--vary' }, '', `the grid has ${size.toLocaleString('en-US')} points, more than ${maxPoints.toLocaleString('en-US')}`,
        `Vary fewer values, or raise the limit with --max-points ${size}.`);
    }
    const precision = precisionTarget(opts);
    const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
    if (shard && precision) {
      throw new InputError({ source: '--shard' }, '', 'cannot be combined with --precision', 'Shard a sweep of fixed --actions, or run --precision on one machine.');
    }
    const all = gridPoints(axes);
    const points = shard ? all.slice(...shardRange(size, shard)) : all;
    // Read and check every point before simulating any, so a bad value fails at once.
    const loaded = points.map((pt) => {
      const overrides: Override[] = axes.map((a, k) => ({ path: parseKeyPath(a.path) ?? [], text: pt.values[k] as string, option: `${a.option} (value ${pt.values[k]})` }));
      return { point: pt, ...loadScenario(file, [...sets, ...overrides]) };
    });

    const seed = opts.seed ?? base.seed ?? DEFAULT_SEED;
    const threads = opts.threads === undefined ? undefined : positiveInteger('--threads', opts.threads);
    const commandActions = loaded.reduce((sum, l) => sum + (precision?.maxActions ?? l.scenario.actions), 0);
    const bar = progressBar(io.stderr, 'sweep', 'points');
    const results: (SweepPointResult & PartialPoint)[] = [];
    try {
      for (const [k, l] of loaded.entries()) {
        const outcome = await runScenario({
          scenario: l.scenario, seed, threads: threads ?? defaultThreads(commandActions),
          ...(precision ? { precision } : {}), ...(signal ? { signal } : {}),
        });
        bar.update(k + 1, loaded.length);
        const params = Object.fromEntries(axes.map((a, i) => [a.path, valueAt(l.scenario, a.path) ?? (l.point.values[i] as string)]));
        results.push({
          index: l.point.index, params, metrics: outcome.state.finish(l.scenario), scenario: resolvedScenario(l.scenario),
          fingerprint: scenarioFingerprint(l.scenario), grid_step: outcome.gridStep, state: outcome.state.toData(),
          ...(precision ? { precision: { metric: precision.metric, half_width: precision.halfWidth, max_actions: precision.maxActions, reached: outcome.precisionReached === true } } : {}),
        });
      }
    } finally {
      bar.stop();
    }

    const args = ['idem-sim', 'sweep', file, ...axes.filter((a) => a.option.startsWith('--vary')).flatMap((a) => ['--vary', a.option.slice('--vary '.length)]),
      ...(opts.set ?? []).flatMap((s) => ['--set', s]), ...(opts.actions !== undefined ? ['--actions', opts.actions] : []),
      '--seed', seed, ...(opts.metric !== undefined ? ['--metric', opts.metric] : []), ...(opts.precision !== undefined ? ['--precision', opts.precision] : []),
      ...(opts.precisionMetric !== undefined ? ['--precision-metric', opts.precisionMetric] : []),
      ...(opts.maxActions !== undefined ? ['--max-actions', opts.maxActions] : [])];
    const logPaths = axes.filter((a) => a.log).map((a) => a.path);
    let text: string;
    if (shard) {
      text = `${JSON.stringify({
        idem_sim_partial: PARTIAL_FORMAT, kind: 'sweep', version: toolVersion(), shard, replay_args: args,
        sweep: { scenario: file, fingerprint: scenarioFingerprint(base.scenario), paths: axes.map((a) => a.path), points: size, seed, metric, log_paths: logPaths },
        points: results.map(({ index, params, scenario, fingerprint, grid_step, state }) => ({ index, params, scenario, fingerprint, grid_step, state })),
      })}\n`;
    } else {
      const report: SweepReport = { scenario: file, paths: axes.map((a) => a.path), seed, version: toolVersion(), replay: args.map(shellQuote).join(' '), points: results.map(({ params, metrics, precision: p }) => ({ params, metrics, ...(p ? { precision: p } : {}) })), logPaths };
      text = await renderSweep(report, format, metric, chalkFor(out ? {} : io.stdout, io.env));
    }
    if (out) out.commit(text, io.stdout);
    else io.stdout.write(text);
    return 0;
  } finally {
    out?.abort();
  }
}

export async function renderSweep(report: SweepReport, format: string, metric: MetricPath, chalk: ReturnType<typeof chalkFor>): Promise<string> {
  if (format === 'csv') return renderCsv(report);
  if (format === 'json') return renderSweepJson(report);
  if (format === 'html' || format === 'svg') {
    const { renderSweepHtml, renderSweepSvg } = await import('./report/sweep-html.js'); // loads vega only for charts
    return format === 'html' ? renderSweepHtml(report, metric) : renderSweepSvg(report, metric);
  }
  return renderSweepTable(report, metric, chalk);
}
