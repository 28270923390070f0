/** Everything that touches the file system for the CLI: scenario files, data files, outputs. */
import { readFileSync, renameSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { LatencySpec, Scenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';

/** Reads a file the user named, turning system errors into an InputError. */
export function readUserFile(path: string, what: string, keyPath = ''): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? `${what} does not exist`
      : code === 'EISDIR' ? `${what} is a directory, not a file`
      : code === 'EACCES' ? `${what} cannot be read (permission denied)`
      : `${what} cannot be read (${code ?? String(e)})`;
    throw new InputError({ source: path }, keyPath, problem, 'Check the path (it is relative to the current directory for scenarios, to the scenario file for data).');
  }
}

/** Loads the observed latencies of every `empirical` distribution, relative to the scenario file. */
export function loadEmpiricalData(scenario: Scenario, scenarioFile: string | undefined): Scenario {
  const baseDir = scenarioFile ? dirname(resolve(scenarioFile)) : process.cwd();
  const load = (spec: LatencySpec, keyPath: string): LatencySpec => {
    if (spec.dist === 'mixture') {
      return { ...spec, components: spec.components.map((c, i) => ({ ...load(c, `${keyPath}.components[${i}]`), weight: c.weight })) };
    }
    if (spec.dist !== 'empirical') return spec;
    const path = resolve(baseDir, spec.file);
    return { ...spec, values: parseLatencies(readUserFile(path, 'the empirical latency file', `${keyPath}.file`), path, `${keyPath}.file`) };
  };
  return { ...scenario, service: { ...scenario.service, latency: load(scenario.service.latency, 'service.latency') } };
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

/**
 * An output file opened before the work starts (so a bad path fails at once) and written
 * whole at the end through a temporary file and a rename (so it is never half-written).
 */
export class PendingOutput {
  private readonly tmp: string;

  constructor(readonly path: string) {
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    try {
      closeSync(openSync(this.tmp, 'w'));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new InputError({ source: '--out' }, '', `cannot write ${path} (${code === 'ENOENT' ? 'its directory does not exist' : code === 'EACCES' ? 'permission denied' : code ?? String(e)})`,
        'Choose a path in an existing directory you can write to.');
    }
  }

  commit(content: string): void {
    try {
      writeFileSync(this.tmp, content);
      renameSync(this.tmp, this.path);
    } catch (e) {
      this.abort();
      throw new InputError({ source: '--out' }, '', `cannot write ${this.path} (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
        'Choose a path you can write to.');
    }
  }

  abort(): void {
    rmSync(this.tmp, { force: true });
  }
}
