/** Parsing of numeric and structured command-line options, with errors that name the flag. */
import { availableParallelism } from 'node:os';
import { InputError } from '../scenario/errors.js';
import { didYouMean } from '../scenario/suggest.js';

/** A sensible value of each whole-number option, for error messages. */
const EXAMPLES: Record<string, string> = {
  '--actions': '100000 or 1e6', '--max-actions': '1e7', '--threads': '2 or 4', '--connections': '16',
  '--max-points': '20000', '--record-bytes': '200', '--records': '1000', '--rows': '200',
};

export function positiveInteger(flag: string, text: string): number {
  // Decimal or exponent notation (1e6) only: Number() would also take 0x10, 0b1 and '' .
  const n = /^\s*(\d+(\.\d*)?|\.\d+)([eE]\+?\d+)?\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < 1) {
    throw new InputError({ source: `${flag} ${text}` }, '', `expected a whole number >= 1, got "${text}"`, `Give ${flag} a value such as ${EXAMPLES[flag] ?? '4'}.`);
  }
  return n;
}

export function positiveNumber(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) {
    throw new InputError({ source: `${flag} ${text}` }, '', `expected a number > 0, got "${text}"`, `Give ${flag} a value such as 0.5.`);
  }
  return n;
}

/** Most shards of one run or sweep: each writes a part file that `merge` reads. */
export const MAX_SHARDS = 10_000;

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
 * `--threads`: at most MAX_THREADS_PER_CORE x the cores, with a warning above the core count
 * (results do not depend on it; threads beyond the cores only share them, and run slower).
 */
export function threadCount(text: string, io: { stderr: NodeJS.WritableStream }, cores = availableParallelism()): number {
  const n = positiveInteger('--threads', text);
  const max = MAX_THREADS_PER_CORE * cores;
  if (n > max) {
    throw new InputError({ source: `--threads ${text}` }, '', `is over the limit of ${max} (${MAX_THREADS_PER_CORE} per core; this machine has ${cores})`,
      `Drop --threads to use every core; more than ${cores} only share them and never change a number.`);
  }
  if (n > cores) {
    io.stderr.write(`idem-sim: warning: --threads ${n} is more than this machine's ${cores} cores; the extra threads share them and the run is slower. The results are the same for any --threads.\n`);
  }
  return n;
}

/** `--seed`, which must not be empty. */
export function seedOption(seed: string | undefined): string | undefined {
  if (seed !== undefined && seed.trim() === '') {
    throw new InputError({ source: '--seed' }, '', 'the seed is empty', 'Give a seed such as --seed 42 or --seed nightly-run.');
  }
  return seed;
}

export function oneOf(flag: string, text: string, allowed: readonly string[]): string {
  if (allowed.includes(text)) return text;
  const guess = didYouMean(text, allowed);
  throw new InputError({ source: `${flag} ${text}` }, '', `"${text}" is not one of the allowed values`,
    `${guess ? `Did you mean \`${guess}\`? ` : ''}Use one of: ${allowed.join(', ')}.`);
}
