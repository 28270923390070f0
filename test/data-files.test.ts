/**
 * Data files a scenario names (hardening): only regular files, of a bounded size, inside the
 * scenario's directory unless allowed, and never echoed in an error.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEmpiricalData, readUserFile } from '../src/io/files.js';
import { parseLatencies } from '../src/ingest/empirical.js';
import type { Scenario, WrittenScenario } from '../src/model/types.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario } from '../src/scenario/parse.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The InputError `f` throws, for its message. */
function errorOf(f: () => unknown): InputError {
  try { f(); } catch (e) { if (e instanceof InputError) return e; throw e; }
  throw new Error('no error thrown');
}

function empiricalScenario(file: string): WrittenScenario {
  return parseScenario(`service:\n  latency: {dist: empirical, file: ${file}}\n`, 's.yaml').scenario;
}

describe('parseLatencies', () => {
  it('reads decimal numbers only: 0x1F, 0b11 and 0o7 are no latency in ms', () => {
    expect(parseLatencies('12\n1.5\n2e3\n.5\n# a comment\n', 'x.txt', 'service.latency.file')).toEqual([12, 1.5, 2000, 0.5]);
    for (const bad of ['0x1F', '0b11', '0o7', 'Infinity', '-1']) {
      expect(errorOf(() => parseLatencies(`1\n${bad}\n`, 'x.txt', 'service.latency.file')).message).toMatch(/line 2 \(\d+ characters\) is not a latency in ms/);
    }
  });

  it("names a bad line by number and length, never by its text", () => {
    const e = errorOf(() => parseLatencies('120\nTOKEN=hunter2-secret\n', 'x.env', 'service.latency.file'));
    expect(e.message).toContain('line 2 (20 characters) is not a latency in ms');
    expect(e.message).not.toContain('hunter2');
    expect(e.message).toContain('x.env:2:1');
  });

  it('reads numbers, skipping blank lines, comments and CRLF endings', () => {
    expect(parseLatencies('# ms\r\n120\r\n\r\n 80 # fast\r\n0\n', 'f', 'k')).toEqual([120, 80, 0]);
  });

  it('refuses more than a million values', () => {
    expect(errorOf(() => parseLatencies('1\n'.repeat(1_000_001), 'f', 'k')).message).toContain('more than 1,000,000 values');
    expect(parseLatencies('1\n'.repeat(1_000_000), 'f', 'k')).toHaveLength(1_000_000);
  });
});

describe('readUserFile', () => {
  it('refuses /proc, /sys and /dev, whatever they are', () => {
    for (const p of ['/proc/self/environ', '/dev/zero', '/dev/null', '/sys/kernel']) {
      expect(errorOf(() => readUserFile(p, 'the scenario file')).message).toMatch(/a view of the system/);
    }
  });

  it('refuses a path through /proc that leads out of it, as written or by a link on the way (/proc/self/cwd, /proc/self/root)', () => {
    writeFileSync(join(dir, 'plain.txt'), '100\n');
    symlinkSync('/proc/self/cwd', join(dir, 'cwd'));
    symlinkSync('/proc/self/root', join(dir, 'root-hop'));
    symlinkSync('root-hop', join(dir, 'root'));
    symlinkSync(dir, join(dir, 'here'));
    const cwdFile = join(process.cwd(), 'package.json');
    // `cwd/..` as the kernel reads it: into the link, then up from where it led.
    for (const p of ['/proc/self/cwd/package.json', `/proc/self/root${cwdFile}`, join(dir, 'cwd', 'package.json'), join(dir, 'root', cwdFile), `${dir}/cwd/../plain.txt`]) {
      expect(errorOf(() => readUserFile(p, 'the scenario file')).message, p).toMatch(/is in \/proc, a view of the system/);
    }
    // Links and .. that stay out of the system's directories are followed as before.
    expect(readUserFile(`${dir}/here/here/plain.txt`, 'the scenario file')).toBe('100\n');
    expect(readUserFile(join(dir, 'here', 'plain.txt'), 'the scenario file')).toBe('100\n');
  });

  it('refuses a FIFO without blocking, and a file over the limit before reading it', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(errorOf(() => readUserFile(fifo, 'the scenario file')).message).toContain('is not a regular file');
    const big = join(dir, 'big.yaml');
    writeFileSync(big, 'x'.repeat(2049));
    expect(errorOf(() => readUserFile(big, 'the scenario file', '', undefined, undefined, 2048)).message)
      .toContain('over the limit of 0.00 MiB');
    expect(readUserFile(big, 'the scenario file', '', undefined, undefined, 2049)).toHaveLength(2049);
  });
});

describe('loadEmpiricalData', () => {
  const scenarioDir = join(dir, 'scenarios');
  mkdirSync(scenarioDir);
  writeFileSync(join(scenarioDir, 'lat.txt'), '100\n200\n');
  mkdirSync(join(scenarioDir, 'data'));
  writeFileSync(join(scenarioDir, 'data', 'lat.txt'), '300\n');
  writeFileSync(join(dir, 'outside.txt'), '400\n');
  symlinkSync(join(dir, 'outside.txt'), join(scenarioDir, 'link.txt'));
  const scenarioFile = join(scenarioDir, 's.yaml');
  const valuesOf = (s: Scenario) => (s.service.latency as { values?: number[] }).values;

  it('reads files in the scenario directory and below it', () => {
    expect(valuesOf(loadEmpiricalData(empiricalScenario('lat.txt'), scenarioFile))).toEqual([100, 200]);
    expect(valuesOf(loadEmpiricalData(empiricalScenario('data/lat.txt'), scenarioFile))).toEqual([300]);
  });

  it('refuses a file outside it, by a relative path, an absolute one or a link, unless allowed', () => {
    for (const file of ['../outside.txt', join(dir, 'outside.txt'), 'link.txt']) {
      const e = errorOf(() => loadEmpiricalData(empiricalScenario(file), scenarioFile));
      expect(e.message).toContain("lies outside the scenario file's directory");
      expect(e.message).toContain('--allow-outside');
      expect(valuesOf(loadEmpiricalData(empiricalScenario(file), scenarioFile, undefined, { allowOutside: true }))).toEqual([400]);
    }
  });
});

describe('latencies the model cannot hold', () => {
  it('refuses a latency over 10 years (the longest duration a scenario may give)', () => {
    expect(errorOf(() => parseLatencies('100\n1e300\n', 'f', 'k')).message).toContain('line 2 (5 characters) is not a latency in ms');
    expect(parseLatencies('315360000000\n', 'f', 'k')).toEqual([315_360_000_000]);
  });
});
