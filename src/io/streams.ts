/** The process edge: streams, colour, version. Passed into commands so tests can capture them. */
import { readFileSync } from 'node:fs';
import { Chalk, type ChalkInstance } from 'chalk';
import { printable } from '../scenario/printable.js';

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
 * A line of standard error: `idem-sim: `, then `message` made printable (scenario/printable.ts),
 * so that no name it quotes (a file's, a key's) can end the line, start one of its own (a
 * workflow command, `::error ...`) or send a terminal a control sequence, whoever wrote it.
 */
export function say(io: { stderr: NodeJS.WritableStream }, message: string): void {
  io.stderr.write(`idem-sim: ${printable(message)}\n`);
}

/** A warning on standard error: the run goes on, and its result does not depend on what is warned of. */
export function warn(io: { stderr: NodeJS.WritableStream }, message: string): void {
  say(io, `warning: ${message}`);
}

/** A note on standard error: what the user may not know about the input (the lab values a scenario runs on without writing them). */
export function note(io: { stderr: NodeJS.WritableStream }, message: string): void {
  say(io, `note: ${message}`);
}
