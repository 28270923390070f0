/**
 * Where a command's report goes: the file an option names (`--out`, `--junit`), checked and
 * opened before any work so that a bad path fails at once, or standard output. A report is
 * written whole at the end or not at all (cli/outputs.ts).
 */
import { closeSync, constants, lstatSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChalkInstance } from 'chalk';
import { InputError } from '../../scenario/errors.js';
import { printable } from '../../scenario/printable.js';
import { chalkFor, type Io } from '../io.js';
import { PendingOutput } from '../outputs.js';
import { reportWidth } from '../terminal.js';

export class ReportOutput {
  private readonly file: PendingOutput | null;

  /** `path` undefined: standard output. `inputs` are the files the command reads, which it must not overwrite. */
  constructor(private readonly io: Io, path: string | undefined, inputs: readonly string[], flag?: string) {
    this.file = path === undefined ? null : new PendingOutput(path, inputs, flag);
  }

  /** Colours for the report: a terminal's on standard output, none in a file. */
  style(): ChalkInstance {
    return chalkFor(this.file ? {} : this.io.stdout, this.io.env);
  }

  /** The widest line the report may draw: COLUMNS, else a terminal's width; undefined for no limit (cli/terminal.ts). */
  width(): number | undefined {
    return reportWidth(this.file ? {} : this.io.stdout, this.io.env);
  }

  write(text: string): void {
    if (this.file) this.file.commit(text, this.io.stdout);
    else this.io.stdout.write(text);
  }

  /** The path given, when it is a regular file written through a temporary file beside it (not standard output, a device or a pipe). */
  regularFile(): string | undefined {
    return this.file?.throughTemporary ? this.file.path : undefined;
  }

  /** Writes this report and `other`'s together, both regular files: both or neither (outputs.ts, commitTogether). */
  writeWith(text: string, other: ReportOutput, otherText: string): void {
    if (!this.file || !other.file) throw new Error('writeWith writes two files');
    PendingOutput.commitTogether([[this.file, text], [other.file, otherText]]);
  }

  /** Gives the file up if it was not written (the command failed or was stopped): no file is left. */
  abort(): void {
    this.file?.abort();
  }
}

/**
 * Opens the output `path` names (flag `flag`, by default --out), then does `work`; an output
 * `work` did not write is given up, whatever ends it. Outputs nest: one opened inside another's
 * work is checked after it, and a failure gives both up.
 */
export async function withOutput<T>(io: Io, path: string | undefined, inputs: readonly string[], work: (out: ReportOutput) => Promise<T> | T, flag?: string): Promise<T> {
  const out = new ReportOutput(io, path, inputs, flag);
  try {
    return await work(out);
  } finally {
    out.abort();
  }
}

/** A file a command writes on its own because standard output is a terminal (`terminalDefault`). */
export interface DefaultFile {
  /** The file's name, in the current directory. */
  path: string;
  /** Says on standard error where the report went, once it is written. */
  announce: (text: string) => void;
}

/** Bytes read of an existing default file to tell whether idem-sim wrote it. */
const HEAD_BYTES = 1024;

/**
 * Where a report of markup goes without --out: standard output into a pipe or a file, as
 * always; on a terminal, where 88 KB of HTML only scroll by, the file `name` in the current
 * directory. A file of that name is replaced only when it is a regular file whose first bytes
 * `ours` recognises as idem-sim's (an earlier run's report: running again replaces it, as
 * --out would); anything else there (another tool's file, a link, a directory) is refused
 * before any work, with the fix. `--out -` still means standard output.
 */
export function terminalDefault(io: Io, out: string | undefined, name: string, ours: (head: string) => boolean): DefaultFile | undefined {
  if (out !== undefined || io.stdout.isTTY !== true) return undefined;
  const where = printable(resolve(name));
  const replaces = existing(name, where, ours);
  return {
    path: name,
    announce: (text) => {
      const kb = Math.max(1, Math.round(Buffer.byteLength(text, 'utf8') / 1024));
      io.stderr.write(`idem-sim: wrote ${where} (${kb} KB${replaces ? ', replacing an earlier one idem-sim wrote' : ''}) because standard output is a terminal; --out FILE writes elsewhere, and into a pipe the report goes to standard output\n`);
    },
  };
}

/** Whether `name` exists and may be replaced; throws when it exists and is not idem-sim's. */
function existing(name: string, where: string, ours: (head: string) => boolean): boolean {
  let regular: boolean;
  try {
    regular = lstatSync(name).isFile();
  } catch {
    return false; // nothing there
  }
  if (regular && ours(head(name))) return true;
  throw new InputError({ source: name }, '', `standard output is a terminal, so the report would go to ${where}, but that ${regular ? 'file was not written by idem-sim' : 'is not a regular file'} and is not replaced`,
    `Give --out FILE to write another file (--out ${name} replaces this one), or redirect standard output to a file or a pipe.`);
}

/** The first HEAD_BYTES of a regular file, not through a link (which the callers refused); empty when it cannot be read. */
export function head(name: string): string {
  let fd: number;
  try {
    fd = openSync(name, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return '';
  }
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    return buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0)).toString('utf8');
  } catch {
    return '';
  } finally {
    closeSync(fd);
  }
}
