/** Parsing of numeric and structured command-line options, with errors that name the flag. */
import { clipped } from '../scenario/printable.js';
import { availableParallelism } from 'node:os';
import { DURATION_PATTERN, durationSpellingHint, parseDuration } from '../scenario/duration.js';
import { MAX_ACTIONS } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { didYouMean } from '../scenario/suggest.js';
import { warn } from '../io/streams.js';
import { MAX_SHARDS } from '../shards/limits.js';
import { SWEEP_METRIC_PATHS, type MetricPath } from '../results/metric-paths.js';
import { isAlertPath } from '../results/alert-paths.js';
import { isSaturationPath } from '../results/saturation.js';
import { parseFind, type FindCondition } from '../sweeps/find.js';
import type { SweepMetric } from '../sweeps/metric.js';
import { seriesOption } from '../scenario/series-option.js';

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

/** `--threads N` as read: the threads asked for, and those used (at most the cores). */
export interface Threads {
  asked: number;
  used: number;
  cores: number;
}

/**
 * `--threads`, capped at the core count (`threadsUsed` says so): threads beyond the cores only
 * share them (4 M actions of mission 2 on 2 cores: 3.1 s on 8 threads, 1.7 s on 2) and results
 * do not depend on the count. Over MAX_THREADS_PER_CORE x the cores is refused as a mistake.
 */
export function threadsOption(text: string, cores = availableParallelism()): Threads {
  const n = positiveInteger('--threads', text);
  const max = MAX_THREADS_PER_CORE * cores;
  if (n > max) {
    throw new InputError({ source: `--threads ${text}` }, '', `is over the limit of ${max} (${MAX_THREADS_PER_CORE} per core; this machine has ${cores})`,
      `Drop --threads to use every core; more than ${cores} only share them and never change a number.`);
  }
  return { asked: n, used: Math.min(n, cores), cores };
}

/** The threads `threads` uses, with a warning that says what was used when more were asked than there are cores. */
export function threadsUsed({ asked, used, cores }: Threads, io: { stderr: NodeJS.WritableStream }): number {
  if (asked > cores) {
    const [c, t] = cores === 1 ? ['1 core', '1 thread'] : [`${cores} cores`, `${cores} threads`];
    warn(io, `--threads ${asked} is more than this machine's ${c}: using ${t} (more would only share the cores and run slower; no number depends on --threads).`);
  }
  return used;
}

export { seedOption } from '../scenario/seed.js';

export function oneOf(flag: string, text: string, allowed: readonly string[]): string {
  if (allowed.includes(text)) return text;
  const guess = didYouMean(text, allowed);
  throw new InputError({ source: `${flag} ${text}` }, '', `"${clipped(text, 80)}" is not one of the allowed values`,
    `${guess ? `Did you mean \`${guess}\`? ` : ''}Use one of: ${allowed.join(', ')}.`);
}

/** `--series STEP` (scenario/series-option.ts, which the shards' replay lines also read): a step in ms. */
export const seriesStepOption = (text: string): number => seriesOption(text) as number; // undefined only for no text

/**
 * `sweep --metric NAME` (and a scenario's sweep.metric): a reading the sweep can chart, a metric
 * or, named as `expect:` names them, a saturation or alert reading (sweeps/metric.ts).
 */
export function sweepMetricOption(text: string): SweepMetric {
  return isSaturationPath(text) || isAlertPath(text) ? text : oneOf('--metric', text, SWEEP_METRIC_PATHS) as MetricPath; // oneOf checked it
}

/** `sweep --find CONDITION`: a condition every point is judged by (sweeps/find.ts). */
export const findOption = (text: string): FindCondition => parseFind(text);

/** `--max-actions N`: a whole number of at most MAX_ACTIONS. */
export function maxActionsOption(text: string): number {
  const maxActions = positiveInteger('--max-actions', text);
  if (maxActions > MAX_ACTIONS) {
    throw new InputError({ source: `--max-actions ${text}` }, '', `is over the limit of 10^13 actions`,
      'Give at most 1e13 (about 12 days of simulation at 10 million actions a second).');
  }
  return maxActions;
}

export function nonNegativeInteger(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    throw new InputError({ source: `${flag} ${text}` }, '', `expected a whole number >= 0, got "${clipped(text, 80)}"`, `Give ${flag} a value such as 0 or 2000.`);
  }
  return n;
}

/** `size --retention`: a duration with its unit (ms). */
export function retentionOption(text: string): number {
  // A bare number gets both units to choose from: `24`, where retentions are hours, is far likelier hours than ms.
  if (/^\s*[0-9.]+\s*$/.test(text)) {
    throw new InputError({ source: `--retention ${text}` }, '', 'the duration has no unit',
      `Write the unit: ${text.trim()}h for hours, ${text.trim()}m for minutes (or ${text.trim()}ms if you mean milliseconds).`);
  }
  if (!new RegExp(DURATION_PATTERN).test(text)) {
    throw new InputError({ source: `--retention ${text}` }, '', `"${clipped(text, 80)}" is not a duration`, durationSpellingHint(text) || 'Write it as 5m, 1h, 24h or 7d.');
  }
  return parseDuration(text);
}
