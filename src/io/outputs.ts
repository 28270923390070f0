/** The files the CLI writes: `--out` and `--junit`, whole or not at all. Reading: files.ts. */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, fchmodSync, linkSync, lstatSync, openSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../scenario/errors.js';
import { pauseForTest } from './test-pause.js';
import { kernelSetting, throughSystemDir } from './system-names.js';

/** What an errno code means, for people. */
function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const known: Record<string, string> = {
    ENOENT: 'no such file or directory', EACCES: 'permission denied', EPERM: 'operation not permitted',
    EROFS: 'read-only file system', ENOSPC: 'no space left on the device', EISDIR: 'it is a directory',
    ENOTDIR: 'a part of the path is not a directory',
  };
  return code ? `${known[code] ?? 'system error'}, ${code}` : String(e);
}

/** Outputs opened and not yet written or given up: a data file read meanwhile must be none of them. */
const pending = new Set<PendingOutput>();

/**
 * Where writing `path` lands: the end of its chain of symbolic links, even one that points at
 * no file yet (undefined for a loop of links). A link is read from its directory's real path,
 * as the system does: `..` in it climbs from there, not from the path as written.
 */
function linkTarget(path: string): string | undefined {
  let p = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      if (!lstatSync(p).isSymbolicLink()) return p;
      link = readlinkSync(p);
    } catch {
      return p; // nothing there yet
    }
    let dir = dirname(p);
    try { dir = realpathSync(dir); } catch { /* a missing directory: creating the temporary file says so */ }
    p = resolve(dir, link);
  }
  return undefined;
}

/** The mode a new file gets: 0666 less the umask (read once: reading it sets it for a moment). */
let newFileMode: number | undefined;
function modeForNewFile(): number {
  if (newFileMode === undefined) {
    const mask = process.umask(0o022);
    process.umask(mask);
    newFileMode = 0o666 & ~mask;
  }
  return newFileMode;
}

/** Opens a FIFO for writing without blocking: fails with ENXIO when nothing reads it. */
function openReader(path: string, fail: (problem: string, fix?: string) => never): number {
  try {
    return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENXIO') fail(`${path} is a FIFO that nothing is reading`, 'Start its reader first, or choose a file.');
    return fail(`cannot open ${path} (${reason(e)})`);
  }
}

/** How long a direct write may make no progress (a pipe's reader stopped reading) before giving up. */
const STALL_MS = 30_000;

/**
 * Appends `content` to a device, pipe or descriptor name. Opened non-blocking, so a FIFO whose
 * reader went away fails at once (ENXIO) and a full pipe is waited on in short sleeps, with
 * an end after STALL_MS without progress, instead of a write no signal can interrupt.
 */
function writeDirect(target: string, content: string, opened: number | null, close = true): void {
  const fd = opened ?? openSync(target, constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  try {
    const bytes = Buffer.from(content, 'utf8');
    let stalled = 0;
    for (let done = 0; done < bytes.length;) {
      try {
        done += writeSync(fd, bytes, done, bytes.length - done);
        stalled = 0;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || stalled >= STALL_MS) throw e;
        Atomics.wait(pause, 0, 0, 5);
        stalled += 5;
      }
    }
  } finally {
    if (close) closeSync(fd);
  }
}

/**
 * An output file checked and opened before the work starts (so a bad path fails at once) and
 * written whole at the end: a regular file through a temporary file beside it and a rename (so
 * it is never half-written, a symbolic link is written through, and nothing is truncated before
 * the work has succeeded), a device or pipe directly, `-` to standard output. It refuses a
 * directory, a read-only file and the run's own inputs.
 *
 * The temporary file has an unpredictable name and is created exclusively (O_CREAT|O_EXCL|
 * O_NOFOLLOW, mode 0600) and written through its descriptor, so a link planted in the
 * directory cannot redirect the write; it takes the target's mode (or 0666 less the umask) just
 * before the rename.
 */
export class PendingOutput {
  private readonly tmp: string | null = null;
  private fd: number | null = null;
  /** Written in place at the end (a device, pipe or descriptor name), not through a rename. */
  private readonly direct: boolean = false;
  private readonly target: string;
  private readonly mode: number | undefined;

  constructor(readonly path: string, inputs: readonly string[] = [], readonly flag = '--out') {
    const fail = (problem: string, fix = `Choose another path with ${flag}.`): never => {
      throw new InputError({ source: `${flag} ${path === '' ? "''" : path}` }, '', problem, fix);
    };
    this.target = path;
    if (path === '') fail('the path is empty', `Give a file name, such as ${flag} report.json, or drop ${flag} to write to standard output.`);
    if (path === '-') return;
    let st: Stats | undefined;
    try { st = statSync(path); } catch { st = undefined; }
    if (st?.isDirectory()) fail(`${path} is a directory`, `Give a file name, such as ${flag} report.json.`);
    if (kernelSetting(path)) fail(`${path} is one of the kernel's settings (/proc, /sys), not a place for a report`, `Give ${flag} a file, or leave it out for standard output.`);
    // `new/`, `new/.` or `new/..` name a directory even when none is there: never a file called `new`.
    const dirEnd = /(?:^|\/)(\.{0,2})$/.exec(path);
    if (dirEnd) {
      fail(`${path} names a directory (it ends in /${dirEnd[1]}), and there is none there`,
        `Give a file name: make the directory first and name a file in it (${flag} ${join(path, 'report.json')}), or leave out the final /${dirEnd[1]}.`);
    }
    // A device, a pipe, or a name for one of this process's descriptors (/dev/stdout,
    // /proc/self/fd/1, which `>> log` makes a regular file): written directly and appended to,
    // never replaced by a rename, which would wipe what the shell is appending to.
    if (st && (!st.isFile() || throughSystemDir(path))) {
      this.direct = true;
      // A FIFO is opened now and kept open: nothing reading it fails at once (a write to it
      // later would block past every signal), and its reader sees no end of file before the data.
      if (st.isFIFO()) this.fd = openReader(path, fail);
      return;
    }
    const target = st ? realpathSync(path) : linkTarget(path);
    if (target === undefined) fail(`${path} is a loop of symbolic links`, 'Remove the loop, or choose another path.');
    this.target = target as string;
    if (st && (st.mode & 0o222) === 0) fail(`${path} is read-only`, 'Make it writable or choose another path.');
    if (inputs.some((f) => { try { return realpathSync(f) === this.target; } catch { return false; } })) {
      fail(`${path} is one of this run's inputs and would be overwritten`);
    }
    const other = [...pending].find((o) => o.tmp !== null && o.target === this.target);
    if (other) fail(`${path} is also where ${other.flag} writes`, `Give ${flag} and ${other.flag} different files.`);
    this.mode = st?.mode;
    this.tmp = join(dirname(this.target), `.${basename(this.target)}.${randomBytes(8).toString('hex')}.tmp`);
    try {
      this.fd = openSync(this.tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch (e) {
      fail(`cannot create ${path} (${reason(e)})`, 'Choose a path in an existing directory you can write to.');
    }
    pending.add(this);
  }

  /** Refuses to go on when this output would overwrite `input`, a file the run reads (`what` it is). */
  refuseInput(input: string, what: string): void {
    if (this.tmp === null) return;
    let real: string;
    try { real = realpathSync(input); } catch { return; } // a missing input is reported when it is read
    if (real === this.target) {
      this.abort();
      throw new InputError({ source: `${this.flag} ${this.path}` }, '', `${this.path} is ${what}, one of this run's inputs, and would be overwritten`,
        `Choose another path with ${this.flag}.`);
    }
  }

  /** Writes `content` whole; with `more`, the next piece of a report written as its work goes (into the temporary file the last piece renames, or at once to a device, pipe or `-`). */
  commit(content: string, stdout: NodeJS.WritableStream, more = false): void {
    if (!more) pending.delete(this);
    try {
      if (this.path === '-') stdout.write(content);
      else if (this.direct) {
        const fd = this.fd;
        if (!more) this.fd = null; // writeDirect closes it
        writeDirect(this.target, content, fd, !more || fd === null); // a FIFO stays open for the next piece
      }
      else if (this.tmp === null || this.fd === null) writeFileSync(this.target, content);
      else if (more) writeFileSync(this.fd, content); // after what is there
      else {
        this.stage(content);
        renameSync(this.tmp, this.target);
        pauseForTest('committed');
      }
    } catch (e) {
      this.abort();
      throw this.cannotWrite(e);
    }
  }

  /** Whether it is a regular file written through a temporary file beside it (not standard output, a device or a pipe). */
  get throughTemporary(): boolean {
    return this.tmp !== null;
  }

  private cannotWrite(e: unknown): InputError {
    return new InputError({ source: `${this.flag} ${this.path}` }, '', `cannot write ${this.path} (${reason(e)})`, 'Choose a path you can write to.');
  }

  /** Writes `content` whole to the temporary file, with the target's mode, and closes it. */
  private stage(content: string): void {
    const fd = this.fd as number; // a regular file's, open until staged
    const bytes = Buffer.from(content, 'utf8');
    for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
    fchmodSync(fd, this.mode !== undefined ? this.mode & 0o7777 : modeForNewFile());
    closeSync(fd);
    this.fd = null;
  }

  /**
   * Renames the staged file over the target, the file it replaces kept aside by a hard link;
   * `undo` puts that file back (or removes a new one), `keep` drops what was kept aside. A file
   * that cannot be kept aside (no hard links there) is left replaced by `undo`, never removed.
   */
  private place(): { undo: () => void; keep: () => void } {
    const existed = existsSync(this.target);
    let aside: string | null = existed ? join(dirname(this.target), `.${basename(this.target)}.${randomBytes(8).toString('hex')}.tmp`) : null;
    if (aside !== null) {
      try { linkSync(this.target, aside); } catch { aside = null; }
    }
    try {
      renameSync(this.tmp as string, this.target);
    } catch (e) {
      if (aside !== null) rmSync(aside, { force: true });
      throw e;
    }
    pending.delete(this);
    return {
      undo: () => { if (aside !== null) renameSync(aside, this.target); else if (!existed) rmSync(this.target, { force: true }); },
      keep: () => { if (aside !== null) rmSync(aside, { force: true }); },
    };
  }

  /**
   * Writes regular files together, all or none: each whole to its temporary file, then each
   * renamed over its target in turn. A failure on the way gives every one up and undoes the
   * renames already done (the files they replaced put back), so no file is left without the
   * others. One synchronous stretch, as `commit`: no signal is handled in between.
   */
  static commitTogether(outputs: readonly (readonly [PendingOutput, string])[]): void {
    const direct = outputs.find(([out]) => out.tmp === null);
    if (direct) throw new Error(`${direct[0].path} is not written through a temporary file`);
    const placed: { undo: () => void; keep: () => void }[] = [];
    let at: PendingOutput | undefined;
    try {
      for (const [out, content] of outputs) { at = out; out.stage(content); }
      for (const [out] of outputs) { at = out; placed.push(out.place()); }
    } catch (e) {
      for (const p of placed.reverse()) { try { p.undo(); } catch { /* the file it replaced stays replaced */ } }
      for (const [out] of outputs) out.abort();
      throw at?.cannotWrite(e) ?? e;
    }
    for (const p of placed) p.keep();
    pauseForTest('committed');
  }

  abort(): void {
    pending.delete(this);
    if (this.fd !== null) {
      try { closeSync(this.fd); } catch { /* already closed */ }
      this.fd = null;
    }
    if (this.tmp !== null) rmSync(this.tmp, { force: true });
  }
}

/** Gives up every output not yet written (the process is about to end without writing them). */
export function abortPendingOutputs(): void {
  for (const out of [...pending]) out.abort();
}

/** Refuses every pending output that would overwrite `input`, a file the run reads (`what` it is). */
export function refuseOutputsAt(input: string, what: string): void {
  for (const out of pending) out.refuseInput(input, what);
}
