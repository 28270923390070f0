/**
 * The published package, as someone who installs the `npm pack` tarball meets it: it installs
 * without a build and without a warning about idem-sim's own scripts, `idem-sim run` works, and
 * every file that `--help`, the CLI's messages and the bundled scenarios point to is shipped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

interface Result { status: number | null; stdout: string; stderr: string }

/**
 * A hang guard for each command, not a speed limit: a command is killed only past it (its
 * status is then null, and its assertion fails saying so). spawnSync holds up vitest's own
 * timer, so the set-up's timeout, judged after the fact, leaves room for both commands.
 */
const HANG_GUARD_MS = 300_000;

function run(command: string, args: string[], cwd: string): Result {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: HANG_GUARD_MS, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.signal ? `${r.stderr}\n(killed by ${r.signal} after the ${HANG_GUARD_MS / 1000} s hang guard)` : r.stderr };
}

/** Every file below `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** The package-relative paths of docs and schema files that a text names. */
function docPaths(text: string): string[] {
  return text.match(/\b(?:docs|schema)\/[\w./-]*\w\.(?:md|json|png)\b/g) ?? [];
}

/** The subcommands listed under "Commands:" of the top-level help. */
function subcommands(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
}

let work: string;
let pkg: string;
let bin: string;
let install: Result;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'idem-sim-package-'));
  // The CLI's bundle from the dist/ it ships (written file by file in one piece, so the e2e files
  // running beside this one see the old bundle or the new one); `npm run build` makes it too.
  const bundled = run(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], ROOT);
  expect(bundled.status, bundled.stderr).toBe(0);
  // --ignore-scripts: `prepack` would rebuild dist/ under the other e2e files running beside this
  // one; dist/ is already built (`npm run build` runs before `npm test`).
  const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
  expect(pack.status, pack.stderr).toBe(0);
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];

  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), '{ "name": "consumer", "version": "1.0.0", "private": true }\n');
  // --prefer-offline, not --offline: `npm ci` caches the dependencies' tarballs but not their
  // registry metadata, which resolving the tarball's version ranges needs. With the metadata
  // cached (after one such install) nothing is fetched; on a fresh cache only the metadata is.
  install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, filename)], consumer);
  pkg = join(consumer, 'node_modules', 'idem-sim');
  bin = join(consumer, 'node_modules', '.bin', 'idem-sim');
}, 2 * HANG_GUARD_MS + 60_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm pack tarball, installed into an empty folder', () => {
  it('installs without running or warning about idem-sim\'s own scripts', () => {
    const output = install.stdout + install.stderr;
    expect(install.status, output).toBe(0);
    expect(output).not.toMatch(/idem-sim@/); // the install-scripts advisory names packages as name@version
    expect(output).not.toMatch(/^> idem-sim@/m); // a lifecycle script that ran
  });

  it('ships the runtime and the documents, and none of the development tree', () => {
    const top = readdirSync(pkg);
    expect(top).toEqual(expect.arrayContaining(['README.md', 'bin', 'dist', 'docs', 'package.json', 'scenarios', 'schema']));
    expect(top.filter((f) => ['src', 'test', 'bench', 'scripts', '.ci', 'tsconfig.json', 'vitest.config.ts'].includes(f))).toEqual([]);
    expect(filesUnder(pkg).filter((f) => /\.ts$/.test(f) || /(^|\/)test\//.test(f))).toEqual([]);
  });

  it('ships the LICENSE that package.json\'s "license" names', () => {
    const { license } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { license: string };
    expect(existsSync(join(pkg, 'LICENSE')), 'LICENSE is not in the tarball').toBe(true);
    const text = readFileSync(join(pkg, 'LICENSE'), 'utf8');
    expect(text.split('\n')[0]).toBe(`${license} License`);
    expect(text).toMatch(/^Copyright \(c\) \d{4} The idem-sim authors$/m);
  });

  it('runs: `idem-sim run --actions 2000` prints the table', () => {
    const r = run(bin, ['run', '--actions', '2000'], dirname(pkg));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('duplicates per 1000 actions');
    expect(r.stdout).toContain('actions simulated: 2,000');
  });

  it('starts from its bundle: Node loads bin/ and dist/bundle/ alone, not some 300 modules of dist/ and node_modules', () => {
    // Before the bundle, `run` with a key set loaded 283 files of dist/ and of seven packages.
    const preload = join(work, 'loaded.cjs');
    const list = join(work, 'loaded.json');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));\n`);
    const r = run(process.execPath, ['-r', preload, join(pkg, 'bin', 'idem-sim.js'), 'run', '--actions', '1000'], dirname(pkg));
    expect(r.status, r.stderr).toBe(0);
    const { files, builtins } = JSON.parse(readFileSync(list, 'utf8')) as { files: string[]; builtins: string[] };
    const loaded = files.filter((f) => f !== preload).map((f) => relative(pkg, f));
    // chalk's terminal probe is not in the bundle (scripts/build-cli.mjs REPLACED): with its output
    // in a pipe, a run loads no node:tty.
    expect(builtins).not.toContain('NativeModule tty');
    expect(loaded.filter((f) => /^dist\/bundle\/main-\w+\.cjs$/.test(f))).toHaveLength(1);
    expect(loaded.filter((f) => f !== 'bin/idem-sim.js' && !f.startsWith('dist/bundle/'))).toEqual([]);
    // The simulation threads run the bundle's worker script: the same result on 2 threads as on 1.
    const json = (threads: string) => run(bin, ['run', '--actions', '300000', '--threads', threads, '--json'], dirname(pkg));
    const [one, two] = [json('1'), json('2')];
    expect([one.status, two.status], one.stderr + two.stderr).toEqual([0, 0]);
    expect(two.stdout.replace(/"threads": \d+/g, '')).toBe(one.stdout.replace(/"threads": \d+/g, ''));
  });

  it('every docs/ and schema/ file that --help and the CLI\'s messages name is in the package', () => {
    const top = run(bin, ['--help'], dirname(pkg));
    expect(top.status, top.stderr).toBe(0);
    const commands = subcommands(top.stdout);
    expect(commands).toContain('run');
    const helps = [top.stdout, ...commands.map((c) => run(bin, [c, '--help'], dirname(pkg)).stdout)].join('\n');
    const fromHelp = docPaths(helps);
    expect(fromHelp).toContain('docs/model-decisions.md');
    // Error messages and the schema's descriptions name documents too (docs/stores.md, docs/model.md).
    const fromDist = filesUnder(join(pkg, 'dist')).flatMap((f) => docPaths(readFileSync(join(pkg, 'dist', f), 'utf8')));
    const named = [...new Set([...fromHelp, ...fromDist, 'README.md'])];
    expect(named.filter((p) => !existsSync(join(pkg, p)))).toEqual([]);
  });

  it('every bundled scenario\'s $schema resolves to the shipped schema', () => {
    // An agent file (scenarios/agents/) is not a scenario: its keys are docs/agent-keys.md's, and each tool's scenario is checked when it is read.
    const scenarios = filesUnder(join(pkg, 'scenarios')).filter((f) => f.endsWith('.yaml') && !f.startsWith('agents/'));
    expect(scenarios.length).toBeGreaterThanOrEqual(10);
    for (const f of scenarios) {
      const file = join(pkg, 'scenarios', f);
      const ref = /\$schema=(\S+)/.exec(readFileSync(file, 'utf8'))?.[1];
      expect(ref, f).toBeDefined();
      expect(resolve(dirname(file), ref!), f).toBe(join(pkg, 'schema', 'scenario.schema.json'));
    }
    expect(existsSync(join(pkg, 'schema', 'scenario.schema.json'))).toBe(true);
  });
});
