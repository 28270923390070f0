/** Parsing of numeric and structured command-line options, with errors that name the flag. */
import { clipped } from '../scenario/printable.js';
import { availableParallelism } from 'node:os';
import { PRECISION_METRICS, type PrecisionTarget } from '../results/precision.js';
import { MAX_ACTIONS } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { didYouMean } from '../scenario/suggest.js';
import { warn } from './io.js';
import { MAX_SHARDS } from '../shards/limits.js';

/** A sensible value of each whole-number option, for error messages. */
const EXAMPLES: Record<string, string> = {
  '--actions': '100000 or 1e6', '--max-actions': '1e7', '--threads': '2 or 4', '--connections': '16',
  '--max-points': '20000', '--record-bytes': '200', '--records': '1000', '--rows': '200',
};

export function positiveInteger(flag: string, text: string): number {
  // Decimal or exponent notation (1e6) only: Number() would also take 0x10, 0b1 and '' .
  const n = /^\s*(\d+(\.\d*)?|\.\d+)([eE]\+?\d+)?\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < 1) {
    throw new InputError({ source: `${flag} ${text}` }, '', `expected a whole number >= 1, got "${clipped(text, 80)}"`, `Give ${flag} a value such as ${EXAMPLES[flag] ?? '4'}.`);
  }
  return n;
}

export function positiveNumber(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) {
    throw new InputError({ source: `${flag} ${text}` }, '', `expected a number > 0, got "${clipped(text, 80)}"`, `Give ${flag} a value such as 0.5.`);
  }
  return n;
}

/** `--max-actions` when `--precision` is given without it. */
export const DEFAULT_MAX_ACTIONS = 100_000_000;

/** `i/n` with 1 <= i <= n <= MAX_SHARDS. */
export function shard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) {
    throw new InputError({ source: `--shard ${text}` }, '', 'expected i/n with 1 <= i <= n',
      'Number the shards from 1: --shard 1/4, --shard 2/4, ... --shard 4/4.');
  }
  if (count > MAX_SHARDS) {
    throw new InputError({ source: `--shard ${text}` }, '', `${count.toLocaleString('en-US')} shards is over the limit of ${MAX_SHARDS.toLocaleString('en-US')}`,
      'Give each machine a larger share: a shard of 10^8 actions takes about 10 s a thread.');
  }
  return { index, count };
}

/** Threads past this many per core are refused: each is a V8 isolate of 20-40 MB that only waits. */
export const MAX_THREADS_PER_CORE = 4;

/**
 * `--threads`, capped at the core count with a warning that says what was used: threads beyond
 * the cores only share them (4 M actions of mission 2 on 2 cores: 3.1 s on 8 threads, 1.7 s on
 * 2) and results do not depend on the count. Over MAX_THREADS_PER_CORE x the cores is refused
 * as a mistake.
 */
export function threadCount(text: string, io: { stderr: NodeJS.WritableStream }, cores = availableParallelism()): number {
  const n = positiveInteger('--threads', text);
  const max = MAX_THREADS_PER_CORE * cores;
  if (n > max) {
    throw new InputError({ source: `--threads ${text}` }, '', `is over the limit of ${max} (${MAX_THREADS_PER_CORE} per core; this machine has ${cores})`,
      `Drop --threads to use every core; more than ${cores} only share them and never change a number.`);
  }
  if (n > cores) {
    const [c, t] = cores === 1 ? ['1 core', '1 thread'] : [`${cores} cores`, `${cores} threads`];
    warn(io, `--threads ${n} is more than this machine's ${c}: using ${t} (more would only share the cores and run slower; no number depends on --threads).`);
  }
  return Math.min(n, cores);
}

export { seedOption } from '../scenario/seed.js';

export function oneOf(flag: string, text: string, allowed: readonly string[]): string {
  if (allowed.includes(text)) return text;
  const guess = didYouMean(text, allowed);
  throw new InputError({ source: `${flag} ${text}` }, '', `"${clipped(text, 80)}" is not one of the allowed values`,
    `${guess ? `Did you mean \`${guess}\`? ` : ''}Use one of: ${allowed.join(', ')}.`);
}

/** The options of a run that simulates until a precision is reached. */
export interface PrecisionOptions {
  precision?: string | undefined;
  precisionMetric?: string | undefined;
  maxActions?: string | undefined;
  actions?: string | undefined;
}

/** `--precision`, `--precision-metric` and `--max-actions` as a target; undefined without --precision. */
export function precisionTarget(opts: PrecisionOptions): PrecisionTarget | undefined {
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
