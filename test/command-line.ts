/**
 * Commands run in this process through the real command line (cli/main.ts's `program`): their
 * options parsed as the binary parses them, their errors thrown as they come (`main` would map
 * them to an exit status and a line on standard error).
 */
import { PassThrough } from 'node:stream';
import type { Io } from '../src/io/streams.js';
import { program } from '../src/cli/main.js';

/** Runs `idem-sim ARGS...` in this process: resolves to its exit status, rejects with a command's error. */
export async function command(args: readonly string[], io: Io, signal: AbortSignal = new AbortController().signal): Promise<number> {
  let code = 0;
  await program({ io, signal, setCode: (c) => { code = c; } }).parseAsync(['node', 'idem-sim', ...args]);
  return code;
}

/** The options commander gives the subcommand `name` for `args` (options only), as a command's settings are made from. */
export function optionsOf<T>(name: string, args: readonly string[]): T {
  const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
  const sub = program({ io, signal: new AbortController().signal, setCode: () => {} }).commands.find((c) => c.name() === name);
  if (!sub) throw new Error(`no command ${name}`);
  sub.parseOptions([...args]);
  return sub.opts() as T;
}

/** Runs `idem-sim ARGS...` in this process with no environment: its exit status and all it wrote to each stream. */
export async function captured(args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const status = await command(args, { stdout, stderr, env: {} });
  return { status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}
