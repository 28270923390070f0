/**
 * `check --format github` through the real binary, and action.yml's step as a runner runs it:
 * its script under bash with the inputs in its environment, `npx` standing for the installed
 * idem-sim (docs/ci-gate.md).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BIN, cli, ROOT } from './helpers.js';

interface Action { runs: { using: string; steps: { shell: string; env: Record<string, string>; run: string }[] }; inputs: Record<string, { required: boolean }> }
const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

describe('check --format github', () => {
  it('a failing mission: the table, then an error at its expect: line; exit 1; the summary appended', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-github-'));
    const summary = join(dir, 'summary.md');
    const r = cli(['check', 'scenarios/mission-1-blind-retries.yaml', '--format', 'github'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-2)).toBe('seed 1; idem-sim 0.1.0; replay: idem-sim check scenarios/mission-1-blind-retries.yaml --seed 1');
    expect(lines.at(-1)).toBe('::error file=scenarios/mission-1-blind-retries.yaml,line=18,title=idem-sim check%3A duplicates_per_1000 == 0::mission-1-blind-retries: duplicates_per_1000 measured 41.5 ± 6.7, expected == 0 (seed 1, 4000 actions)%0Areplay: idem-sim check scenarios/mission-1-blind-retries.yaml --seed 1');
    expect(readFileSync(summary, 'utf8')).toContain('| mission-1-blind-retries | duplicates\\_per\\_1000 | == 0 | 41.5 ± 6.7 | **FAIL** |');
  });
});

describe('action.yml', () => {
  const step = ACTION.runs.steps[0];

  it('is a composite action of one bash step whose inputs reach the script only through its environment', () => {
    expect(ACTION.runs.using).toBe('composite');
    expect(ACTION.runs.steps).toHaveLength(1);
    expect(step?.shell).toBe('bash');
    expect(step?.run).not.toContain('${{'); // an input in the script's text could inject commands
    expect(step?.env).toEqual({ IDEM_SIM_FILES: '${{ inputs.files }}', IDEM_SIM_ARGS: '${{ inputs.args }}' });
    expect(ACTION.inputs['files']?.required).toBe(true);
  });

  it('its step checks the files a glob names, with the options given, as --format github', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-action-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // npx, as the project's installed idem-sim.
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\n[ "$1" = idem-sim ] || exit 99\nshift\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'npx'), 0o755);
    const r = spawnSync('bash', ['-c', step?.run ?? 'false'], {
      cwd: ROOT, encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', PATH: `${bin}:${process.env['PATH'] ?? ''}`, IDEM_SIM_FILES: 'scenarios/solutions/mission-[12]-*.yaml', IDEM_SIM_ARGS: '--actions 2000 --seed 3' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('replay: idem-sim check scenarios/solutions/mission-1-blind-retries.yaml scenarios/solutions/mission-2-slow-downstream.yaml --actions 2000 --seed 3\n');
    expect(r.stdout).not.toContain('::error');
  });
});
