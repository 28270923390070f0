/** The `idem-sim run` command a lab session amounts to, quoted for a POSIX shell. */
import type { Override } from '../scenario/parse.js';
import { shellQuote } from '../scenario/shell-quote.js';
import { overrideArgs } from './overrides.js';

/** The arguments of `idem-sim run` for a file (null: the built-in lab defaults), overrides and seed. */
export function runArgs(file: string | null, overrides: readonly Override[], seed: string, allowOutside = false): string[] {
  return ['idem-sim', 'run', ...(file === null ? [] : [file]), ...(allowOutside ? ['--allow-outside'] : []), ...overrides.flatMap(overrideArgs), '--seed', seed];
}

export function runCommandLine(file: string | null, overrides: readonly Override[], seed: string, allowOutside = false): string {
  return runArgs(file, overrides, seed, allowOutside).map(shellQuote).join(' ');
}
