/** The process edge: streams, colour, version. Passed into commands so tests can capture them. */
import { readFileSync } from 'node:fs';
import { Chalk, type ChalkInstance } from 'chalk';
import { hasUnprintable } from '../scenario/printable.js';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** Colour only on a terminal, and never when NO_COLOR is set to a non-empty value. */
export function chalkFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): ChalkInstance {
  const colour = stream.isTTY === true && !env['NO_COLOR'] && env['TERM'] !== 'dumb';
  return new Chalk({ level: colour ? 1 : 0 });
}

let cachedVersion: string | undefined;
export function toolVersion(): string {
  cachedVersion ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cachedVersion;
}

/**
 * Quotes an argument for a POSIX shell only when it needs it. One holding a control character
 * (a hostile file name) is written in bash's $'...' form with \xHH escapes, so that the replay
 * line neither carries raw control codes to the terminal nor changes the argument.
 */
export function shellQuote(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  if (hasUnprintable(arg)) {
    const bytes = [...Buffer.from(arg, 'utf8')];
    return `$'${bytes.map((b) => (b < 0x20 || b >= 0x7f || b === 0x27 || b === 0x5c ? `\\x${b.toString(16).padStart(2, '0')}` : String.fromCharCode(b))).join('')}'`;
  }
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A warning on standard error: the run goes on, and its result does not depend on what is warned of. */
export function warn(io: { stderr: NodeJS.WritableStream }, message: string): void {
  io.stderr.write(`idem-sim: warning: ${message}\n`);
}
