/** Everything that touches the file system for the CLI: scenario files, data files, outputs. */
import { chmodSync, closeSync, lstatSync, openSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { LatencySpec, Scenario } from '../model/types.js';
import { InputError, type Origin } from '../scenario/errors.js';
import { formatPath } from '../scenario/parse.js';

/**
 * Reads a file the user named, turning system errors into an InputError. `origin`: where the
 * path was written (a scenario's line), when not on the command line; `base`: what a relative
 * path was read from.
 */
export function readUserFile(path: string, what: string, keyPath = '', origin?: Origin, base = 'the current directory'): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const named = origin ? `${what} ${path}` : what;
    const problem = code === 'ENOENT' ? `${named} does not exist`
      : code === 'EISDIR' ? `${named} is a directory, not a file`
      : code === 'EACCES' ? `${named} cannot be read (permission denied)`
      : `${named} cannot be read (${code ?? String(e)})`;
    throw new InputError(origin ?? { source: path }, keyPath, problem, `Check the path: a relative one is read from ${base}.`);
  }
}

/** Loads the observed latencies of every `empirical` distribution, relative to the scenario file. */
export function loadEmpiricalData(scenario: Scenario, scenarioFile: string | undefined, locate?: (path: readonly (string | number)[]) => Origin): Scenario {
  const baseDir = scenarioFile ? dirname(resolve(scenarioFile)) : process.cwd();
  const load = (spec: LatencySpec, keyPath: (string | number)[]): LatencySpec => {
    if (spec.dist === 'mixture') {
      return { ...spec, components: spec.components.map((c, i) => ({ ...load(c, [...keyPath, 'components', i]), weight: c.weight })) };
    }
    if (spec.dist !== 'empirical') return spec;
    const path = resolve(baseDir, spec.file);
    const key = formatPath([...keyPath, 'file']);
    for (const out of pending) out.refuseInput(path, `the empirical latency file of ${key}${scenarioFile ? ` in ${scenarioFile}` : ''}`);
    const text = readUserFile(path, 'the empirical latency file', key, locate?.([...keyPath, 'file']), scenarioFile ? `the scenario file's directory, ${baseDir}` : 'the current directory');
    return { ...spec, values: parseLatencies(text, path, key) };
  };
  return { ...scenario, service: { ...scenario.service, latency: load(scenario.service.latency, ['service', 'latency']) } };
}

/** One latency in ms per line; blank lines and `#` comments are skipped. */
export function parseLatencies(text: string, source: string, keyPath: string): number[] {
  const values: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const t = line.replace(/#.*/, '').trim();
    if (t === '') return;
    const v = Number(t);
    if (!Number.isFinite(v) || v < 0) {
      throw new InputError({ source, line: i + 1, col: 1 }, keyPath, `"${t}" is not a latency in ms`,
        'Write one number >= 0 per line (milliseconds), nothing else.');
    }
    values.push(v);
  });
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

/**
 * An output file checked and opened before the work starts (so a bad path fails at once) and
 * written whole at the end: a regular file through a temporary file and a rename (so it is
 * never half-written, and a symbolic link is written through), a device or pipe directly,
 * `-` to standard output. It refuses a directory, a read-only file and the run's own inputs.
 */
export class PendingOutput {
  private readonly tmp: string | null = null;
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
    if (st && !st.isFile()) return; // a device or a pipe: written directly at the end
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
    this.tmp = join(dirname(this.target), `.${basename(this.target)}.${process.pid}.tmp`);
    try {
      closeSync(openSync(this.tmp, 'w'));
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
      else if (this.tmp === null) writeFileSync(this.target, content);
      else {
        writeFileSync(this.tmp, content);
        if (this.mode !== undefined) chmodSync(this.tmp, this.mode & 0o7777);
        renameSync(this.tmp, this.target);
      }
    } catch (e) {
      this.abort();
      throw new InputError({ source: `${this.flag} ${this.path}` }, '', `cannot write ${this.path} (${reason(e)})`, 'Choose a path you can write to.');
    }
  }

  abort(): void {
    pending.delete(this);
    if (this.tmp !== null) rmSync(this.tmp, { force: true });
  }
}
