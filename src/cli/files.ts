/** Everything that touches the file system for the CLI: scenario files, data files, outputs. */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { LatencySpec, Scenario } from '../model/types.js';
import { InputError, type Origin } from '../scenario/errors.js';
import { formatPath } from '../scenario/parse.js';
import { MAX_DURATION_MS } from '../scenario/limits.js';

/** Sizes past which a file is refused before it is read (see README, Security and limits). */
export const MAX_SCENARIO_BYTES = 4 * 1024 * 1024;
/** An empirical latency file: a million observations of about 16 characters a line. */
export const MAX_DATA_BYTES = 16 * 1024 * 1024;
export const MAX_EMPIRICAL_VALUES = 1_000_000;

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;

/** Paths that are views of the running system, never data: /proc/self/environ holds secrets. */
const SYSTEM_DIRS = ['/proc', '/sys', '/dev'];

/**
 * Reads a file the user named, turning system errors into an InputError. `origin`: where the
 * path was written (a scenario's line), when not on the command line; `base`: what a relative
 * path was read from. Only a regular file of at most `maxBytes` is read: a device, pipe or
 * socket is refused before anything is read from it (it is opened non-blocking, so a FIFO
 * cannot hang the run), and no more than the size the file had when it was opened is read.
 */
export function readUserFile(path: string, what: string, keyPath = '', origin?: Origin, base = 'the current directory', maxBytes = MAX_SCENARIO_BYTES,
  within?: (opened: string) => void): string {
  const named = origin ? `${what} ${path}` : what;
  const refuse = (problem: string, fix = `Check the path: a relative one is read from ${base}.`): never => {
    throw new InputError(origin ?? { source: path }, keyPath, problem, fix);
  };
  let real: string | undefined;
  try { real = realpathSync(path); } catch { /* reported when it is opened */ }
  if (real !== undefined && SYSTEM_DIRS.some((d) => real === d || real.startsWith(`${d}/`))) {
    refuse(`${named} is in ${SYSTEM_DIRS.find((d) => real === d || real.startsWith(`${d}/`))}, a view of the system, not a file of data`, 'Name a regular file.');
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return refuse(code === 'ENOENT' ? `${named} does not exist`
      : code === 'EISDIR' ? `${named} is a directory, not a file`
      : code === 'EACCES' ? `${named} cannot be read (permission denied)`
      : `${named} cannot be read (${code ?? String(e)})`);
  }
  try {
    // Where the descriptor really points, checked again after the open: a link swapped in
    // between the check of the path and the open cannot lead elsewhere.
    const opened = openedPath(fd);
    if (opened !== undefined) {
      const system = SYSTEM_DIRS.find((d) => opened === d || opened.startsWith(`${d}/`));
      if (system) refuse(`${named} is in ${system}, a view of the system, not a file of data`, 'Name a regular file.');
      within?.(opened);
    }
    const st = fstatSync(fd);
    if (st.isDirectory()) refuse(`${named} is a directory, not a file`);
    if (!st.isFile()) refuse(`${named} is not a regular file (a device, pipe or socket)`, 'Name a regular file.');
    if (st.size > maxBytes) {
      refuse(`${named} is ${mib(st.size)}, over the limit of ${mib(maxBytes)} for ${what.replace(/^the /, '')}s`, 'Check that this is the file you meant.');
    }
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    for (let n = -1; got < buf.length && n !== 0; got += n) n = readSync(fd, buf, got, buf.length - got, got);
    return buf.toString('utf8', 0, got);
  } catch (e) {
    if (e instanceof InputError) throw e;
    return refuse(`${named} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  } finally {
    closeSync(fd);
  }
}

/** The path an open descriptor names (Linux: /proc/self/fd); undefined where that cannot be read. */
function openedPath(fd: number): string | undefined {
  try { return readlinkSync(`/proc/self/fd/${fd}`); } catch { return undefined; }
}

/** Whether data files may lie outside the scenario file's directory (`--allow-outside`). */
export interface DataAccess { allowOutside?: boolean }

/**
 * Refuses a data file that resolves (through links) outside `baseDir`, unless allowed: `real`
 * is where it resolves to, when known (the opened descriptor's path).
 */
function checkInside(path: string, baseDir: string, key: string, origin: Origin | undefined, access: DataAccess, real?: string): void {
  if (access.allowOutside) return;
  let root: string;
  try { real ??= realpathSync(path); root = realpathSync(baseDir); } catch { return; } // a missing file is reported when it is read
  const rel = relative(root, real);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new InputError(origin ?? { source: path }, key, `the data file ${path} lies outside the scenario file's directory, ${root}`,
      'Keep data files in the scenario\'s directory or below it; to read this one anyway, pass --allow-outside (only for scenarios you trust).');
  }
}

/**
 * Loads the observed latencies of every `empirical` distribution, relative to the scenario file
 * (or the current directory for the built-in defaults). A data file must lie in that directory
 * or below it, unless `access.allowOutside`: a scenario from a pull request cannot read the CI
 * machine's files.
 */
export function loadEmpiricalData(scenario: Scenario, scenarioFile: string | undefined, locate?: (path: readonly (string | number)[]) => Origin, access: DataAccess = {}): Scenario {
  const baseDir = scenarioFile ? dirname(resolve(scenarioFile)) : process.cwd();
  const load = (spec: LatencySpec, keyPath: (string | number)[]): LatencySpec => {
    if (spec.dist === 'mixture') {
      return { ...spec, components: spec.components.map((c, i) => ({ ...load(c, [...keyPath, 'components', i]), weight: c.weight })) };
    }
    if (spec.dist !== 'empirical') return spec;
    const path = resolve(baseDir, spec.file);
    const key = formatPath([...keyPath, 'file']);
    const origin = locate?.([...keyPath, 'file']);
    for (const out of pending) out.refuseInput(path, `the empirical latency file of ${key}${scenarioFile ? ` in ${scenarioFile}` : ''}`);
    checkInside(path, baseDir, key, origin, access);
    const text = readUserFile(path, 'the empirical latency file', key, origin, scenarioFile ? `the scenario file's directory, ${baseDir}` : 'the current directory', MAX_DATA_BYTES,
      (opened) => checkInside(path, baseDir, key, origin, access, opened));
    return { ...spec, values: parseLatencies(text, path, key) };
  };
  return { ...scenario, service: { ...scenario.service, latency: load(scenario.service.latency, ['service', 'latency']) } };
}

/**
 * One latency in ms per line; blank lines and `#` comments are skipped. An error gives the
 * line's number and length, never its text: a data file named by a hostile scenario may hold
 * secrets, and errors go into CI logs.
 */
export function parseLatencies(text: string, source: string, keyPath: string): number[] {
  const values: number[] = [];
  let line = 0;
  for (let at = 0; at <= text.length; line++) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const raw = text.slice(at, end);
    at = end + 1;
    const t = raw.replace(/#.*/, '').trim();
    if (t === '') continue;
    const v = Number(t);
    if (!Number.isFinite(v) || v < 0 || v > MAX_DURATION_MS) {
      throw new InputError({ source, line: line + 1, col: 1 }, keyPath, `line ${line + 1} (${raw.replace(/\r$/, '').length} characters) is not a latency in ms`,
        `Write one number from 0 to ${MAX_DURATION_MS} (10 years) per line, in milliseconds, nothing else; a # starts a comment.`);
    }
    if (values.length === MAX_EMPIRICAL_VALUES) {
      throw new InputError({ source, line: line + 1, col: 1 }, keyPath, `the empirical latency file holds more than ${MAX_EMPIRICAL_VALUES.toLocaleString('en-US')} values, the limit`,
        'Sample the observations down to at most a million; the distribution needs far fewer.');
    }
    values.push(v);
  }
  if (values.length === 0) {
    throw new InputError({ source }, keyPath, 'the empirical latency file holds no values', 'Put at least one latency in ms per line.');
  }
  return values;
}

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

/** Whether `path` is, or reaches through its links, a name under /dev or /proc. */
function throughSystemDir(path: string): boolean {
  let p = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    if (['/dev', '/proc'].some((d) => p.startsWith(`${d}/`))) return true;
    let link: string;
    try {
      if (!lstatSync(p).isSymbolicLink()) break;
      link = readlinkSync(p);
    } catch {
      break;
    }
    p = resolve(dirname(p), link);
  }
  return false;
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
function writeDirect(target: string, content: string, opened: number | null): void {
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
    closeSync(fd);
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

  commit(content: string, stdout: NodeJS.WritableStream): void {
    pending.delete(this);
    try {
      if (this.path === '-') stdout.write(content);
      else if (this.direct) {
        const fd = this.fd;
        this.fd = null; // writeDirect closes it
        writeDirect(this.target, content, fd);
      }
      else if (this.tmp === null || this.fd === null) writeFileSync(this.target, content);
      else {
        const bytes = Buffer.from(content, 'utf8');
        for (let done = 0; done < bytes.length;) done += writeSync(this.fd, bytes, done, bytes.length - done);
        fchmodSync(this.fd, this.mode !== undefined ? this.mode & 0o7777 : modeForNewFile());
        closeSync(this.fd);
        this.fd = null;
        renameSync(this.tmp, this.target);
      }
    } catch (e) {
      this.abort();
      throw new InputError({ source: `${this.flag} ${this.path}` }, '', `cannot write ${this.path} (${reason(e)})`, 'Choose a path you can write to.');
    }
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
