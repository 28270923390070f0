/**
 * Where a command's report goes: the file an option names (`--out`, `--junit`), checked and
 * opened before any work so that a bad path fails at once, or standard output. A file is
 * written whole at the end or not at all (io/outputs.ts); a report written as its work goes
 * (a sweep's points, `append`) goes to standard output as it comes.
 */
import { closeSync, constants, lstatSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { ChalkInstance } from 'chalk';
import { Interrupted } from '../exec/interrupted.js';
import type { Spool } from '../report/sweep-stream.js';
import { InputError } from '../scenario/errors.js';
import { printable } from '../scenario/printable.js';
import { chalkFor, type Io } from './streams.js';
import { PendingOutput } from './outputs.js';
import { reportWidth } from './terminal.js';

export class ReportOutput {
  private readonly file: PendingOutput | null;
  private readonly spools: FileSpool[] = [];
  /** Where part of the report was written for all to see (standard output, a device, a pipe); null while none was. */
  private shownAt: string | null = null;

  /** `path` undefined: standard output. `inputs` are the files the command reads, which it must not overwrite. */
  constructor(private readonly io: Io, path: string | undefined, inputs: readonly string[], flag?: string) {
    this.file = path === undefined ? null : new PendingOutput(path, inputs, flag);
  }

  /** Colours for the report: a terminal's on standard output, none in a file. */
  style(): ChalkInstance {
    return chalkFor(this.file ? {} : this.io.stdout, this.io.env);
  }

  /** The widest line the report may draw: COLUMNS, else a terminal's width; undefined for no limit (io/terminal.ts). */
  width(): number | undefined {
    return reportWidth(this.file ? {} : this.io.stdout, this.io.env);
  }

  write(text: string): void {
    if (this.file) this.file.commit(text, this.io.stdout);
    else this.io.stdout.write(text);
  }

  /** Writes `text` now, the next piece of a report written as its work goes: `write` writes the last. */
  append(text: string): void {
    if (this.file) this.file.commit(text, this.io.stdout, true);
    else this.io.stdout.write(text);
    if (text !== '' && !this.file?.throughTemporary) this.shownAt ??= this.file && this.file.path !== '-' ? printable(this.file.path) : 'standard output';
  }

  /** A place in the system's temporary directory for a piece of the report that must wait (sweep-stream.ts), removed when drained or when the output is given up. */
  spool(): Spool {
    const spool = new FileSpool();
    this.spools.push(spool);
    return spool;
  }

  /** The signal's error, saying where a part of the report was written before it, if one was. */
  stopped(e: Interrupted): Interrupted {
    return this.shownAt === null ? e : Object.assign(e, { written: `${this.shownAt} holds the part of the report written before it, which is incomplete` });
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
    for (const spool of this.spools.splice(0)) spool.remove();
  }
}

/** Text kept in order in a file of its own (mode 0600), in a new directory of the system's temporary directory. */
class FileSpool implements Spool {
  private readonly dir = mkdtempSync(join(tmpdir(), 'idem-sim-'));
  private readonly fd = openSync(join(this.dir, 'spool'), constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  private written = 0;

  write(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    for (let done = 0; done < bytes.length;) done += writeSync(this.fd, bytes, done, bytes.length - done, this.written + done);
    this.written += bytes.length;
  }

  drain(to: (text: string) => void): void {
    const buf = Buffer.alloc(1 << 20);
    const text = new StringDecoder('utf8'); // a piece may end inside a character
    for (let at = 0; at < this.written;) {
      const n = readSync(this.fd, buf, 0, Math.min(buf.length, this.written - at), at);
      if (n === 0) throw new Error('the spool ended before its text');
      to(text.write(buf.subarray(0, n)));
      at += n;
    }
    to(text.end());
    this.remove();
  }

  remove(): void {
    try { closeSync(this.fd); } catch { /* closed already */ }
    rmSync(this.dir, { recursive: true, force: true });
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
  } catch (e) {
    throw e instanceof Interrupted ? out.stopped(e) : e;
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
