/** The files the CLI reads: scenario files, part files and the data files a scenario names. Writing: outputs.ts. */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { loadLatencyData, type HistogramReader } from '../model/latency.js';
import { formatOfFile, histogramOfText } from '../ingest/histogram-file.js';
import { parseSelector } from '../ingest/selector.js';
import type { Scenario, WrittenScenario } from '../model/types.js';
import { MAX_TOKENS } from '../scenario/document.js';
import { InputError, type Origin } from '../scenario/errors.js';
import type { BaseFiles } from '../scenario/extends.js';
import { formatPath } from '../scenario/parse.js';
import { parseLatencies } from '../ingest/empirical.js';
import { refuseOutputsAt } from './outputs.js';

/** Sizes past which a file is refused before it is read (see docs/security-and-limits.md). */
export const MAX_SCENARIO_BYTES = 4 * 1024 * 1024;
/** An empirical latency file: a million observations of about 16 characters a line; and a latency histogram file (a saved /metrics page or OTLP export). */
export const MAX_DATA_BYTES = 16 * 1024 * 1024;

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
  const passed = systemDirOnTheWay(path);
  if (passed) refuse(`${named} is in ${passed}, a view of the system, not a file of data`, 'Name a regular file.');
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
      const system = systemDirOf(opened);
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

const systemDirOf = (path: string) => SYSTEM_DIRS.find((d) => path === d || path.startsWith(`${d}/`));

/**
 * The system directory a path passes through, as written or by any link on the way, followed
 * one by one as the kernel does: /proc/self/cwd/x.txt and a link to /proc/self/root lead out of
 * /proc, so their real path alone would pass (and /proc/PID/fd/N reaches files a directory's
 * permissions would keep from the reader). Undefined when none does, or when a part is missing
 * (reported when the file is opened).
 */
function systemDirOnTheWay(path: string): string | undefined {
  let pending = (isAbsolute(path) ? path : `${process.cwd()}/${path}`).split('/');
  let at = '/';
  for (let links = 0; pending.length > 0;) {
    const name = pending.shift() as string;
    if (name === '' || name === '.') continue;
    const next = name === '..' ? dirname(at) : at === '/' ? `/${name}` : `${at}/${name}`;
    const system = systemDirOf(next);
    if (system) return system;
    let target: string;
    try {
      if (!lstatSync(next).isSymbolicLink()) { at = next; continue; }
      target = readlinkSync(next);
    } catch {
      return undefined;
    }
    if (++links > 40) return undefined; // a loop: ELOOP when it is opened
    pending = [...target.split('/'), ...pending];
    if (isAbsolute(target)) at = '/';
  }
  return undefined;
}

/** The path an open descriptor names (Linux: /proc/self/fd); undefined where that cannot be read. */
function openedPath(fd: number): string | undefined {
  try { return readlinkSync(`/proc/self/fd/${fd}`); } catch { return undefined; }
}

/** Whether data files may lie outside the scenario file's directory (`--allow-outside`). */
export interface DataAccess { allowOutside?: boolean }

/**
 * Refuses a data file (or a `noun`) that resolves (through links) outside `baseDir`, unless
 * allowed: `real` is where it resolves to, when known (the opened descriptor's path).
 */
function checkInside(path: string, baseDir: string, key: string, origin: Origin | undefined, access: DataAccess, real?: string, noun = 'data file'): void {
  if (access.allowOutside) return;
  let root: string;
  try {
    real ??= realpathSync(path);
    root = realpathSync(baseDir);
  } catch {
    // A missing file is reported when it is read, if inside: one outside is refused as outside
    // either way, so that a scenario cannot learn which paths outside exist (`check` goes on after
    // it), whether written so or reached through a link (a dangling one, or a linked directory).
    real = resolvedAsFar(resolve(path));
    try { root = realpathSync(baseDir); } catch { root = resolve(baseDir); }
  }
  const rel = relative(root, real);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new InputError(origin ?? { source: path }, key, `the ${noun} ${path} lies outside the scenario file's directory, ${root}`,
      `Keep ${noun}s in the scenario's directory or below it; to read this one anyway, pass --allow-outside (only for scenarios you trust).`);
  }
}

/** `path` with its links followed as far as they lead, its missing rest joined on: where it would be. */
function resolvedAsFar(path: string, hops = 0): string {
  try { return realpathSync(path); } catch { /* missing, or a link that dangles */ }
  if (hops > 40) return path;
  let link: string | undefined;
  try { link = readlinkSync(path); } catch { link = undefined; }
  if (link !== undefined) return resolvedAsFar(resolve(dirname(path), link), hops + 1);
  const parent = dirname(path);
  return parent === path ? path : join(resolvedAsFar(parent, hops + 1), basename(path));
}

/**
 * How the CLI reads the files a scenario's `extends:` chain names (scenario/extends.ts): each
 * relative to the file that names it, under the rules of data files (in the first file's
 * directory or below it unless --allow-outside, regular files only, never in /proc, /sys or
 * /dev), each at most the size of a scenario file, the chain's tokens together at most one
 * scenario's. A file is known by its real path, so a chain that comes back through a link is a cycle.
 */
export function baseFiles(scenarioFile: string, access: DataAccess = {}): BaseFiles & { id: string } {
  const root = dirname(resolve(scenarioFile));
  let id: string;
  try { id = realpathSync(scenarioFile); } catch { id = resolve(scenarioFile); }
  return {
    id,
    budget: { left: MAX_TOKENS },
    read(path, from, origin) {
      const source = isAbsolute(path) ? path : join(dirname(from), path);
      const full = resolve(source);
      refuseOutputsAt(full, `the base scenario file ${source} (extends: in ${from})`);
      checkInside(full, root, 'extends', origin, access, undefined, 'base scenario file');
      let real = full;
      const text = readUserFile(source, 'the base scenario file', 'extends', origin, `the directory of ${from}`, MAX_SCENARIO_BYTES, (opened) => {
        checkInside(full, root, 'extends', origin, access, opened, 'base scenario file');
        real = opened;
      });
      return { source, id: real, text };
    },
  };
}

/**
 * Loads the data of every distribution that names a file (`empirical`'s observed latencies, a
 * `histogram`'s buckets), relative to the scenario file (or the current directory for the
 * built-in defaults). A data file must lie in that directory or below it, unless
 * `access.allowOutside`: a scenario from a pull request cannot read the CI machine's files.
 */
export function loadEmpiricalData(scenario: WrittenScenario, scenarioFile: string | undefined, locate?: (path: readonly (string | number)[]) => Origin, access: DataAccess = {},
  writtenIn?: (keyPath: readonly (string | number)[]) => string | undefined): Scenario {
  const baseDir = scenarioFile ? dirname(resolve(scenarioFile)) : process.cwd();
  const readData = (file: string, keyPath: readonly (string | number)[], what: string): { text: string; path: string; key: string } => {
    // A file named in a file the scenario extends is read relative to that file; every one must lie in the scenario's directory.
    const writer = writtenIn?.(keyPath);
    const dir = writer === undefined ? baseDir : dirname(resolve(writer));
    const path = resolve(dir, file);
    const key = formatPath(keyPath);
    const origin = locate?.(keyPath);
    refuseOutputsAt(path, `${what} of ${key}${scenarioFile ? ` in ${writer ?? scenarioFile}` : ''}`);
    checkInside(path, baseDir, key, origin, access);
    const text = readUserFile(path, what, key, origin, writer !== undefined ? `the directory of ${writer}, ${dir}` : scenarioFile ? `the scenario file's directory, ${baseDir}` : 'the current directory', MAX_DATA_BYTES,
      (opened) => checkInside(path, baseDir, key, origin, access, opened));
    return { text, path, key };
  };
  const read = (file: string, keyPath: readonly (string | number)[]): number[] => {
    const { text, path, key } = readData(file, keyPath, 'the empirical latency file');
    return parseLatencies(text, path, key);
  };
  const readHistogram: HistogramReader = (spec, keyPath) => {
    const { text, path, key } = readData(spec.file, keyPath, 'the latency histogram file');
    const metricPath = [...keyPath.slice(0, -1), 'metric'];
    const metric = spec.metric === null ? undefined : parseSelector(spec.metric, locate?.(metricPath) ?? { source: scenarioFile ?? path }, formatPath(metricPath));
    const src = { source: path, keyPath: key, showNames: false, how: (k: string) => `with ${k}: beside file: in the scenario` };
    return histogramOfText(text, src, spec.format ?? formatOfFile(spec.file), metric, spec.unit ?? undefined).values;
  };
  return { ...scenario, service: { ...scenario.service, latency: loadLatencyData(scenario.service.latency, ['service', 'latency'], read, readHistogram) } };
}
