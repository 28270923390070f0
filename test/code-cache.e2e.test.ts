/**
 * The bundle's V8 code caches (scripts/bundle-loader.cjs), on a copy of the built bundle: a run
 * uses the cache beside each file it loads and prints the same bytes as without one; a cache
 * serves only the file it was made of, as that file is now, on this Node, owned as the file is:
 * an edited file runs as edited, and a damaged, foreign, loosely owned or overlong cache is
 * refused, silently.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

let copy: string;
let bundle: string;
const restore: (() => void)[] = [];

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'idem-sim-code-cache-'));
  bundle = join(copy, 'dist', 'bundle');
  mkdirSync(bundle, { recursive: true });
  // The launcher first: a build that runs meanwhile renames its launcher into place after its
  // other files, so every file this launcher names is there when the folder is listed.
  copyFileSync(join(ROOT, 'dist', 'bundle', 'idem-sim.cjs'), join(bundle, 'idem-sim.cjs'));
  for (const name of readdirSync(join(ROOT, 'dist', 'bundle'))) if (/\.(cjs|cache)$/.test(name) && name !== 'idem-sim.cjs') copyFileSync(join(ROOT, 'dist', 'bundle', name), join(bundle, name));
  cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
  // Loaded before the launcher runs the program: at the exit, writes what became of each cache.
  writeFileSync(join(copy, 'use.cjs'), `const launcher = require(${JSON.stringify(join(bundle, 'idem-sim.cjs'))});
process.on('exit', () => require('node:fs').writeFileSync(process.env.CODE_CACHE_USE, JSON.stringify(launcher.codeCacheUse())));\n`);
});

afterEach(() => {
  while (restore.length > 0) restore.pop()!();
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

interface Run { status: number | null; stdout: string; stderr: string; use: Record<string, string> }

function run(args: string[]): Run {
  const report = join(copy, 'use.json');
  rmSync(report, { force: true });
  const r = spawnSync(process.execPath, ['-r', join(copy, 'use.cjs'), join(copy, 'bin', 'idem-sim.js'), ...args], {
    cwd: copy, encoding: 'utf8', env: { ...process.env, CODE_CACHE_USE: report },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, use: JSON.parse(readFileSync(report, 'utf8')) as Record<string, string> };
}

/** The loaded file whose name starts with `prefix` and what became of its cache. */
const useOf = (r: Run, prefix: string) => Object.entries(r.use).find(([file]) => file.startsWith(`${prefix}-`));
/** The current build's file that starts with `prefix` (the launcher names it), by a run that loads it. */
const fileOf = (r: Run, prefix: string) => join(bundle, useOf(r, prefix)![0]);
const cacheOf = (file: string) => file.replace(/\.cjs$/, '.cache');

/** Changes `path` for one test; afterEach puts its bytes and mode back. */
function change(path: string, how: (path: string) => void) {
  const [bytes, mode] = [readFileSync(path), statSync(path).mode];
  restore.push(() => { writeFileSync(path, bytes); chmodSync(path, mode); });
  how(path);
}

const KEYED = ['run', '--actions', '1000']; // a key set: the YAML parser and the validator load too

describe('the code caches of the bundle', () => {
  it('serve every file that `run` with a key set loads, each from the cache the build left beside it', () => {
    const r = run(KEYED);
    expect(r.status, r.stderr).toBe(0);
    for (const prefix of ['main', 'cli-run', 'validator', 'yaml']) expect(useOf(r, prefix), prefix).toEqual([expect.any(String), 'used']);
  });

  it('change no byte of the output: the same run without them prints the same', () => {
    const cached = run(KEYED);
    const caches = readdirSync(bundle).filter((name) => name.endsWith('.cache'));
    for (const name of caches) renameSync(join(bundle, name), join(bundle, `${name}.aside`));
    restore.push(() => { for (const name of caches) renameSync(join(bundle, `${name}.aside`), join(bundle, name)); });
    const bare = run(KEYED);
    expect(Object.values(bare.use)).toEqual(Object.values(bare.use).map(() => 'no cache'));
    expect([bare.status, bare.stdout, bare.stderr]).toEqual([cached.status, cached.stdout, cached.stderr]);
  });

  it('serve no file edited since: the edit runs (V8 itself checks only the length, which this edit keeps)', () => {
    const help = run(['--help']);
    const line = help.stdout.split('\n')[2]!; // the program's description
    const holder = Object.keys(help.use).map((name) => join(bundle, name)).find((file) => readFileSync(file, 'latin1').includes(line));
    expect(holder, `no loaded file holds "${line}"`).toBeDefined();
    change(holder!, (path) => writeFileSync(path, readFileSync(path, 'latin1').replace(line, line.toUpperCase()), 'latin1'));
    const edited = run(['--help']);
    expect(edited.stdout).toContain(line.toUpperCase());
    expect(edited.use[holder!.slice(bundle.length + 1)]).toBe('refused: not of this file, or damaged');
  });

  it.each([
    ['damaged (one bit of V8\'s data flipped)', (path: string) => { const b = readFileSync(path); b.writeUInt8(b.readUInt8(b.length - 1) ^ 1, b.length - 1); writeFileSync(path, b); }, 'not of this file, or damaged'],
    ['made by another Node', (path: string) => writeFileSync(path, readFileSync(path, 'latin1').replace(/"node":"[^"]*"/, '"node":"v0.0.0"'), 'latin1'), 'made for another Node'],
    ['longer than the limit (4 x its file + 1 MiB), not read', (path: string) => truncateSync(path, 5 * statSync(path.replace(/\.cache$/, '.cjs')).size + (2 << 20)), 'too long'],
    ['writable by others, where its file is not', (path: string) => chmodSync(path, 0o666), 'not owned as the file is'],
  ])('refuse a cache %s, silently: the run prints what it prints without one', (_, how, why) => {
    const before = run(KEYED);
    change(cacheOf(fileOf(before, 'main')), how);
    const after = run(KEYED);
    expect(useOf(after, 'main')![1]).toBe(`refused: ${why}`);
    expect([after.status, after.stdout, after.stderr]).toEqual([before.status, before.stdout, before.stderr]);
  });

  it.skipIf(process.getuid?.() !== 0)('refuse a cache owned by another user than its file\'s (run as root, which can give it away)', () => {
    const before = run(KEYED);
    change(cacheOf(fileOf(before, 'main')), (path) => chownSync(path, 65534, 65534));
    restore.push(() => chownSync(cacheOf(fileOf(before, 'main')), 0, 0));
    const after = run(KEYED);
    expect(useOf(after, 'main')![1]).toBe('refused: not owned as the file is');
    expect(after.stdout).toBe(before.stdout);
  });
});
