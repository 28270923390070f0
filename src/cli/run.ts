/** `idem-sim run [SCENARIO ...]`: simulate each scenario and report them side by side. */
import { availableParallelism } from 'node:os';
import { basename, extname } from 'node:path';
import type { ChalkInstance } from 'chalk';
import { runScenario } from '../exec/runner.js';
import type { RunStateData } from '../model/metrics.js';
import { PRECISION_METRICS, type PrecisionTarget } from '../model/precision.js';
import { MAX_ACTIONS } from '../model/types.js';
import { printable } from '../scenario/printable.js';
import { InputError } from '../scenario/errors.js';
import { parseScenario, type Override } from '../scenario/parse.js';
import { loadEmpiricalData, readUserFile, type DataAccess } from './files.js';
import { PendingOutput } from './outputs.js';
import { chalkFor, shellQuote, toolVersion, type Io } from './io.js';
import { oneOf, positiveInteger, positiveNumber, seedOption, shard as parseShard, threadCount } from './options.js';
import { PARTIAL_FORMAT, renderPartial, scenarioFingerprint, type PartialRun } from './partial.js';
import { progressBar } from './progress.js';
import { resolvedScenario } from './report/json.js';
import { RUN_FORMATS, RUN_REPORTERS, type RunFormat } from './report/run-reporters.js';
import type { ScenarioRun } from './report/types.js';

export interface RunOptions {
  actions?: string;
  seed?: string;
  set?: string[];
  json?: boolean;
  /** One of RUN_FORMATS (`--json` is `--format json`). */
  format?: string;
  out?: string;
  threads?: string;
  precision?: string;
  precisionMetric?: string;
  maxActions?: string;
  shard?: string;
  /** Read data files outside the scenario file's directory. */
  allowOutside?: boolean;
}

/** The seed used when neither --seed nor the file gives one. */
export const DEFAULT_SEED = '1';
/** `--max-actions` when `--precision` is given without it. */
export const DEFAULT_MAX_ACTIONS = 100_000_000;

/**
 * Threads when --threads is not given: every core, but no more than one per 2 million of the
 * actions the command simulates (all its runs: the workers are started once per process and
 * kept). Starting and warming up a worker costs 0.1 to 0.2 s, which a smaller share does not
 * pay back (measured on 2 cores, cold processes: 2 M actions took 0.42 s on 1 thread and
 * 0.44 s on 2; 4 M took 0.82 s and 0.65 s). Results are the same for any thread count.
 */
export function defaultThreads(actions: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.floor(actions / 2_000_000)));
}

/** `--set a.b=c` and `--actions N` as overrides, validated later with the scenario. */
export function parseOverrides(opts: Pick<RunOptions, 'set' | 'actions'>): Override[] {
  const overrides = (opts.set ?? []).map((arg): Override => {
    const eq = arg.indexOf('=');
    const path = eq > 0 ? parseKeyPath(arg.slice(0, eq)) : undefined;
    if (!path) {
      throw new InputError({ source: `--set ${arg}` }, '', 'expected key.path=value',
        'Write it as, for example, --set idempotency.scope=intent, --set client.timeout=2s or --set service.latency.components[0].weight=3.');
    }
    return { path, text: arg.slice(eq + 1), option: `--set ${arg}` };
  });
  if (opts.actions !== undefined) overrides.push({ path: ['actions'], text: opts.actions, option: `--actions ${opts.actions}` });
  return overrides;
}

/** `a.b[0].c` into ['a', 'b', 0, 'c']; undefined when malformed. */
export function parseKeyPath(text: string): (string | number)[] | undefined {
  const path: (string | number)[] = [];
  for (const part of text.trim().split('.')) {
    const m = /^([A-Za-z_$][\w$]*)((?:\[\d+\])*)$/.exec(part.trim());
    if (!m) return undefined;
    path.push(m[1] as string);
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) path.push(Number(idx[1]));
  }
  return path;
}

/** Loads a scenario file (or the built-in lab defaults) into a ready-to-run scenario. */
export function loadScenario(file: string | null, overrides: readonly Override[], access: DataAccess = {}) {
  const text = file === null ? '' : readUserFile(file, 'the scenario file');
  const parsed = parseScenario(text, file ?? '(built-in lab defaults)', overrides);
  return { ...parsed, scenario: loadEmpiricalData(parsed.scenario, file ?? undefined, parsed.locate, access) };
}

export function scenarioName(file: string | null): string {
  return file === null ? 'lab-defaults' : printable(basename(file, extname(file)));
}

/** Column names: the file's base name, or the path as given where base names collide. */
export function columnNames(files: readonly (string | null)[]): string[] {
  const short = files.map(scenarioName);
  return short.map((n, i) => (short.indexOf(n) !== short.lastIndexOf(n) ? printable(files[i] ?? n) : n));
}

export function precisionTarget(opts: Pick<RunOptions, 'precision' | 'precisionMetric' | 'maxActions' | 'actions'>): PrecisionTarget | undefined {
  if (opts.precision === undefined) {
    if (opts.precisionMetric !== undefined || opts.maxActions !== undefined) {
      throw new InputError({ source: opts.precisionMetric !== undefined ? '--precision-metric' : '--max-actions' }, '',
        'only makes sense with --precision', 'Add --precision X (the 95% CI half-width to reach), or drop the option.');
    }
    return undefined;
  }
  if (opts.actions !== undefined) {
    throw new InputError({ source: `--actions ${opts.actions}` }, '', 'has no effect with --precision, which simulates until its target is met',
      'Drop --actions; to bound the run, give --max-actions N.');
  }
  const maxActions = opts.maxActions === undefined ? DEFAULT_MAX_ACTIONS : positiveInteger('--max-actions', opts.maxActions);
  if (maxActions > MAX_ACTIONS) {
    throw new InputError({ source: `--max-actions ${opts.maxActions}` }, '', `is over the limit of 10^13 actions`,
      'Give at most 1e13 (about 12 days of simulation at 10 million actions a second).');
  }
  return {
    halfWidth: positiveNumber('--precision', opts.precision),
    metric: opts.precisionMetric === undefined ? 'duplicates_per_1000' : oneOf('--precision-metric', opts.precisionMetric, Object.keys(PRECISION_METRICS)),
    maxActions,
  };
}

/** The arguments that reproduce a run's numbers (not how it was executed: threads, shards, output). */
function replayArgs(files: string[], opts: RunOptions, seeds: string[]): string[] {
  return ['idem-sim', 'run', ...files, ...(opts.allowOutside ? ['--allow-outside'] : []), ...(opts.set ?? []).flatMap((s) => ['--set', s]),
    ...(opts.actions !== undefined ? ['--actions', opts.actions] : []),
    ...(seeds.length === 1 ? ['--seed', seeds[0] as string] : []),
    ...(opts.precision !== undefined ? ['--precision', opts.precision] : []),
    ...(opts.precisionMetric !== undefined ? ['--precision-metric', opts.precisionMetric] : []),
    ...(opts.maxActions !== undefined ? ['--max-actions', opts.maxActions] : [])];
}

/** What --json and --format ask for. */
export function runFormat(opts: Pick<RunOptions, 'json' | 'format'>): RunFormat {
  return opts.json ? 'json' : oneOf('--format', opts.format ?? 'table', RUN_FORMATS) as RunFormat; // oneOf checked it
}

/** The report of `runs` in `format`; its replay line is `args` and the options that ask for the format. */
export function renderRuns(runs: readonly ScenarioRun[], args: readonly string[], format: RunFormat, version: string, style: ChalkInstance): string {
  const reporter = RUN_REPORTERS[format];
  const replay = [...args, ...reporter.options].map(shellQuote).join(' ');
  return reporter.render(runs, { version, replay }, style);
}

export async function runCommand(files: string[], opts: RunOptions, io: Io, signal?: AbortSignal): Promise<number> {
  const out = opts.out !== undefined ? new PendingOutput(opts.out, files) : null;
  try {
    const overrides = parseOverrides(opts);
    const format = runFormat(opts);
    seedOption(opts.seed);
    const threads = opts.threads === undefined ? undefined : threadCount(opts.threads, io);
    const precision = precisionTarget(opts);
    const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
    if (shard && precision) {
      throw new InputError({ source: '--shard' }, '', 'cannot be combined with --precision (when to stop depends on all shards)',
        'Shard a run of fixed --actions, or run --precision on one machine.');
    }
    const sources = files.length > 0 ? files : [null];
    const loaded = sources.map((file) => ({ file, ...loadScenario(file, overrides, { allowOutside: opts.allowOutside === true }) }));
    const names = columnNames(sources);

    // A shard's sums (`state`) are written out; other runs only report metrics, and summing a
    // long run's grid into base64 took tens of ms at the end of every run.
    const commandActions = loaded.reduce((sum, l) => sum + (precision?.maxActions ?? l.scenario.actions), 0);
    const runs: (ScenarioRun & { fingerprint: string; gridStep: number; state?: RunStateData })[] = [];
    for (const [k, { file, scenario, seed }] of loaded.entries()) {
      const useSeed = opts.seed ?? seed ?? DEFAULT_SEED;
      const name = names[k] as string;
      const bar = progressBar(io.stderr, name);
      const outcome = await runScenario({
        scenario, seed: useSeed, threads: threads ?? defaultThreads(commandActions), onProgress: bar.update,
        ...(shard ? { shard } : {}), ...(precision ? { precision } : {}), ...(signal ? { signal } : {}),
      }).finally(() => bar.stop());
      runs.push({
        name, file, seed: useSeed, scenario: resolvedScenario(scenario), metrics: outcome.state.finish(scenario),
        fingerprint: scenarioFingerprint(scenario), gridStep: outcome.gridStep, ...(shard ? { state: outcome.state.toData() } : {}),
        ...(precision ? { precision: { metric: precision.metric, half_width: precision.halfWidth, max_actions: precision.maxActions, reached: outcome.precisionReached === true } } : {}),
      });
    }
    const args = replayArgs(files, opts, [...new Set(runs.map((r) => r.seed))]);
    const text = shard
      ? renderPartial({
        idem_sim_partial: PARTIAL_FORMAT, version: toolVersion(), shard, replay_args: args,
        runs: runs.map((r): PartialRun => ({ name: r.name, file: r.file, seed: r.seed, scenario: r.scenario, fingerprint: r.fingerprint, grid_step: r.gridStep, state: r.state as RunStateData })),
      })
      : renderRuns(runs, args, format, toolVersion(), chalkFor(out ? {} : io.stdout, io.env));
    if (out) out.commit(text, io.stdout);
    else io.stdout.write(text);
    return 0;
  } finally {
    out?.abort();
  }
}
