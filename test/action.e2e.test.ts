/**
 * action.yml, as a repository with no Node project meets it: its steps run in order as GitHub's
 * runner runs them (test/action-runner.ts: the environment files and variables, `${{ }}`, `if:`,
 * and setup-node and the cache by their effect), in a workspace without package.json or
 * node_modules, from the action as GitHub checks it out: the files of this repository's last
 * commit (`git archive HEAD`, as a fresh clone has them: neither dist/ nor node_modules, nor an
 * edit or a file not yet committed), taken once as the ref both jobs name. The workflow sets
 * NODE_ENV=production, under which npm leaves out the development dependencies unless asked.
 * The first job installs and builds idem-sim in the action's folder and saves it to the cache; a
 * second job, on a fresh checkout, restores it and builds nothing. Each asserts the gate's exit
 * status, its `result` output, its annotations and its step summary.
 *
 * npm ci is the action's own (its lock file); the test lets npm prefer the machine's cache
 * (npm_config_prefer_offline, as test/package.e2e.test.ts does), so the registry is asked only for
 * what that cache lacks, and nothing else reaches the network.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAction, type ActionRun, type Job } from './action-runner.js';
import { ROOT } from './helpers.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** A hang guard for the set-up (an install and a build, then a restore), not a speed limit. */
const HANG_GUARD_MS = 30 * 60_000;
/** A hosted runner's PATH before any setup-node; this Node's own folder is added where a job has Node. */
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const PASS = `# The key identifies the operation, once, outside the retry loop: no duplicates.
actions: 2000
idempotency:
  scope: intent
expect:
  duplicates_per_1000: "== 0"
  lost_per_1000: "== 0"
`;
const FAIL = `# Blind retries with no key: a retry of a call whose reply was lost runs the side effect again.
actions: 2000
idempotency:
  scope: none
expect:
  duplicates_per_1000: "== 0"
`;

let work: string;
let runner: string;
let workspace: string;
let actionPath: string;
let cold: ActionRun;
let warm: ActionRun;
let hostile: ActionRun;
let optionLike: ActionRun;
let workspaceBefore: string[];
/** A file of the workspace that a glob finds, named as an option would be: check must read it as a file. */
const OPTION_LIKE = '--out=pwned.yaml';

/** Every file below `dir`, as sorted paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

/** The ref the workflow names: this repository's last commit, as a clone checks it out, copied once. */
function commit(to: string): void {
  mkdirSync(to, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', 'HEAD'], { cwd: ROOT, maxBuffer: 1024 * 1024 * 1024 });
  expect(archive.status, String(archive.stderr)).toBe(0);
  const unpacked = spawnSync('tar', ['-x', '-C', to], { input: archive.stdout, encoding: 'utf8' });
  expect(unpacked.status, unpacked.stderr).toBe(0);
}

/** The repository using the action: its scenarios, and a file at its top named as an option would be. */
function repository(): void {
  mkdirSync(join(workspace, 'scenarios'), { recursive: true });
  mkdirSync(join(workspace, 'gates'));
  writeFileSync(join(workspace, 'scenarios', 'pass.yaml'), PASS);
  writeFileSync(join(workspace, 'gates', 'fail.yaml'), FAIL);
  writeFileSync(join(workspace, OPTION_LIKE), PASS);
}

/** The action's folder as GitHub fills it for a job: the ref's files, without a build. */
function checkOut(to: string): void {
  rmSync(to, { recursive: true, force: true });
  cpSync(join(work, 'ref'), to, { recursive: true });
}

/** One job's runner: the variables GitHub sets for every step, and PATH (with an old Node first, or this one). */
function job(path: string): Job {
  const temp = join(runner, '_temp');
  mkdirSync(temp, { recursive: true });
  return {
    workspace, actionPath, temp, cache: join(work, 'cache'),
    env: {
      PATH: path, HOME: process.env['HOME'] ?? work, CI: 'true', GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace, GITHUB_ACTION_PATH: actionPath, GITHUB_ACTION: '__OWNER_idem-sim',
      GITHUB_ACTION_REPOSITORY: 'OWNER/idem-sim', GITHUB_ACTION_REF: 'v1',
      RUNNER_OS: 'Linux', RUNNER_ARCH: 'X64', RUNNER_TEMP: temp,
      // The workflow's env: (a deploying repository's), which makes npm ci leave out devDependencies.
      NODE_ENV: 'production',
      npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false',
    },
  };
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'idem-sim-action-'));
  runner = join(work, 'runner');
  workspace = join(runner, 'work', 'repo', 'repo');
  actionPath = join(runner, 'work', '_actions', 'OWNER', 'idem-sim', 'v1');
  repository();
  workspaceBefore = filesUnder(workspace);
  // The runner's image has Node 18: the action must set up Node 20 (a stand-in that says so, and
  // fails whatever it is asked to run).
  const old = join(work, 'node-18');
  mkdirSync(old);
  writeFileSync(join(old, 'node'), '#!/bin/sh\nif [ "$1" = --version ]; then echo v18.20.4; exit 0; fi\necho "node 18 (a stand-in) was run: $*" >&2\nexit 1\n');
  chmodSync(join(old, 'node'), 0o755);
  const withNode = `${dirname(process.execPath)}:${SYSTEM_PATH}`;

  commit(join(work, 'ref'));
  checkOut(actionPath);
  cold = runAction(join(actionPath, 'action.yml'), job(`${old}:${SYSTEM_PATH}`), { files: 'scenarios/*.yaml' });
  // A later job: a fresh checkout of the action, Node already there, the cache kept.
  rmSync(runner, { recursive: true, force: true });
  repository();
  checkOut(actionPath);
  warm = runAction(join(actionPath, 'action.yml'), job(withNode), { files: 'scenarios/pass.yaml gates/fail.yaml', args: '--seed 7' });
  // The same job uses the action again, with inputs that would run commands if they were script.
  hostile = runAction(join(actionPath, 'action.yml'), job(withNode), { files: 'scenarios/pass.yaml', args: '$(touch pwned) `touch pwned-too`' });
  // And with a glob that finds the file named as an option.
  optionLike = runAction(join(actionPath, 'action.yml'), job(withNode), { files: '*.yaml' });
}, HANG_GUARD_MS);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 5 * 60_000); // two copies of node_modules: a hang guard

/** The steps that ran, by name. */
const ran = (run: ActionRun) => run.steps.filter((s) => s.ran).map((s) => s.name);
/** What the steps wrote, for a failed assertion's message. */
const log = (run: ActionRun) => run.steps.map((s) => `## ${s.name} (${s.ran ? `exit ${s.status}` : 'skipped'})\n${s.stdout}${s.stderr}`).join('\n');

describe('action.yml in a repository without idem-sim', () => {
  it('first job: sets up Node 20, installs and builds idem-sim in its own folder, saves it to the cache; a passing gate exits 0', () => {
    expect(cold.status, log(cold)).toBe(0);
    expect(ran(cold)).toEqual(['Look for Node.js 20 or later', 'Set up Node.js 20', "Cache key of idem-sim's build", "Restore idem-sim's build",
      'Install and build idem-sim', "Save idem-sim's build", 'idem-sim check']);
    expect(cold.steps[0]?.outputs).toEqual({ found: 'false' });
    expect(cold.outputs).toEqual({ result: 'pass' });
    expect(existsSync(join(actionPath, 'dist', 'bundle', 'idem-sim.cjs'))).toBe(true);
    expect(readdirSync(join(work, 'cache'))).toEqual([expect.stringMatching(/^idem-sim-Linux-X64-node\d+-[0-9a-f]{32}$/)]);
  });

  it('first job: the glob expanded in the workspace, the table in the log, no annotation, the verdict in the step summary', () => {
    const check = cold.steps.at(-1)?.stdout ?? '';
    expect(check).toContain('all 2 expectations pass');
    expect(check).toContain(`seed 1; idem-sim ${VERSION}; replay: idem-sim check scenarios/pass.yaml --seed 1`);
    expect(check).not.toContain('::error');
    expect(cold.summary).toMatch(/^### idem-sim check: all 2 expectations pass\n/);
    expect(cold.summary).toContain('| pass | duplicates\\_per\\_1000 | == 0 | 0 (≤ 1.5) | pass |');
  });

  it('a later job: Node found, the build restored from the cache on a fresh checkout, nothing installed; a failing expectation exits 1', () => {
    expect(warm.status, log(warm)).toBe(1);
    expect(ran(warm)).toEqual(['Look for Node.js 20 or later', "Cache key of idem-sim's build", "Restore idem-sim's build", 'idem-sim check']);
    expect(warm.steps[0]?.outputs).toEqual({ found: 'true' });
    expect(warm.steps[3]?.outputs['cache-hit']).toBe('true');
    expect(warm.steps[2]?.outputs['key']).toBe(cold.steps[2]?.outputs['key']);
    expect(warm.outputs).toEqual({ result: 'fail' });
  });

  it('a later job: the failing expectation annotated at its line, with the args given; the step summary marks it', () => {
    const check = warm.steps.at(-1)?.stdout ?? '';
    expect(check).toContain('1 of 3 expectations fail');
    expect(check).toMatch(/^::error file=gates\/fail\.yaml,line=6,title=idem-sim check%3A duplicates_per_1000 == 0::fail: duplicates_per_1000 measured [\d.]+ ± [\d.]+, expected == 0 \(seed 7, 2000 actions\)%0Areplay: idem-sim check scenarios\/pass\.yaml gates\/fail\.yaml --seed 7$/m);
    expect(warm.summary).toMatch(/^### idem-sim check: 1 of 3 expectations fail\n/);
    expect(warm.summary).toMatch(/^\| fail \| duplicates\\_per\\_1000 \| == 0 \| [\d.]+ ± [\d.]+ \| \*\*FAIL\*\* \|$/m);
  });

  it('inputs reach the shell as words, never as script: an input with $(...) and backquotes runs nothing, and the gate exits 2', () => {
    expect(hostile.status, log(hostile)).toBe(2);
    expect(hostile.outputs).toEqual({ result: 'error' });
    expect(hostile.steps.at(-1)?.stderr).toContain('$(touch: the scenario file does not exist');
    expect(readdirSync(workspace).filter((f) => f.startsWith('pwned'))).toEqual([]);
  });

  it('a file a glob finds is checked as a file even when its name reads as an option (after --): no --out, nothing written', () => {
    expect(optionLike.status, log(optionLike)).toBe(0);
    expect(optionLike.outputs).toEqual({ result: 'pass' });
    expect(optionLike.steps.at(-1)?.stdout).toContain(`all 2 expectations pass\nseed 1; idem-sim ${VERSION}; replay: idem-sim check ./${OPTION_LIKE} --seed 1\n`);
    expect(existsSync(join(workspace, 'pwned.yaml'))).toBe(false);
  });

  it('leaves the workspace as it was: no package.json, no node_modules, nothing written', () => {
    expect(filesUnder(workspace)).toEqual(workspaceBefore);
  });
});
