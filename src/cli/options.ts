/** Parsing of numeric and structured command-line options, with errors that name the flag. */
import { InputError } from '../scenario/errors.js';
import { didYouMean } from '../scenario/suggest.js';

/** A sensible value of each whole-number option, for error messages. */
const EXAMPLES: Record<string, string> = {
  '--actions': '100000 or 1e6', '--max-actions': '1e7', '--threads': '2 or 4', '--connections': '16',
  '--max-points': '20000', '--record-bytes': '200', '--records': '1000', '--rows': '200',
};

export function positiveInteger(flag: string, text: string): number {
  const n = Number(text);
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

/** `i/n` with 1 <= i <= n. */
export function shard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) {
    throw new InputError({ source: `--shard ${text}` }, '', 'expected i/n with 1 <= i <= n',
      'Number the shards from 1: --shard 1/4, --shard 2/4, ... --shard 4/4.');
  }
  return { index, count };
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
