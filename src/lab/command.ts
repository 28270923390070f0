/** The `idem-sim run` command a lab session amounts to, quoted for a POSIX shell. */
import type { Override } from '../scenario/parse.js';
import { overrideArgs } from './overrides.js';

/**
 * An argument quoted for a POSIX shell only when it needs it, as the CLI's replay lines quote
 * (`shellQuote` in scenario/shell-quote.ts): one holding a control character in bash's $'...' form.
 */
export function quoteArg(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(arg)) {
    const bytes = [...new TextEncoder().encode(arg)];
    return `$'${bytes.map((b) => (b < 0x20 || b >= 0x7f || b === 0x27 || b === 0x5c ? `\\x${b.toString(16).padStart(2, '0')}` : String.fromCharCode(b))).join('')}'`;
  }
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The arguments of `idem-sim run` for a file (null: the built-in lab defaults), overrides and seed. */
export function runArgs(file: string | null, overrides: readonly Override[], seed: string, allowOutside = false): string[] {
  return ['idem-sim', 'run', ...(file === null ? [] : [file]), ...(allowOutside ? ['--allow-outside'] : []), ...overrides.flatMap(overrideArgs), '--seed', seed];
}

export function runCommandLine(file: string | null, overrides: readonly Override[], seed: string, allowOutside = false): string {
  return runArgs(file, overrides, seed, allowOutside).map(quoteArg).join(' ');
}
