/**
 * action.yml as written: a composite action whose inputs never become text of a script; and the
 * miniature runner test/action.e2e.test.ts runs it with (test/action-runner.ts): its environment
 * files read as GitHub reads them, its expressions, and action.yml written within what it can run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { evaluate, readEnvFile, substitute, type Context } from './action-runner.js';
import { ROOT } from './helpers.js';

const ctx = (failed = false): Context => ({
  status: { failed },
  inputs: { files: 'a.yaml b.yaml', args: '' },
  steps: { cache: { outputs: { 'cache-hit': 'true' } }, node: { outputs: {} } },
  github: { action_path: '/w/_actions/o/idem-sim/v1' },
  runner: { os: 'Linux' },
  env: {},
});

interface Step { shell?: string; run?: string; uses?: string; env?: Record<string, string> }
interface Action { inputs: Record<string, { required?: boolean }>; outputs: Record<string, { value: string }>; runs: { using: string; steps: Step[] } }
const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

describe('action.yml', () => {
  it('is a composite action whose bash scripts take every value from their environment, never as their text', () => {
    expect(ACTION.runs.using).toBe('composite');
    const scripts = ACTION.runs.steps.filter((s) => s.run !== undefined);
    expect(scripts.map((s) => s.shell)).toEqual(scripts.map(() => 'bash'));
    // An input (or an output made of one) in a script's text could inject commands.
    expect(scripts.filter((s) => s.run?.includes('${{'))).toEqual([]);
    expect(scripts.at(-1)?.env).toMatchObject({ IDEM_SIM_FILES: '${{ inputs.files }}', IDEM_SIM_ARGS: '${{ inputs.args }}' });
    expect(ACTION.inputs['files']?.required).toBe(true);
    expect(ACTION.outputs['result']?.value).toBe('${{ steps.check.outputs.result }}');
  });

  it('installs the development dependencies the build needs whatever NODE_ENV says, and checks the files after -- and the args', () => {
    const install = ACTION.runs.steps.find((s) => s.run?.includes('npm ci'))?.run ?? '';
    // NODE_ENV=production (a workflow's env) makes npm ci leave out tsc and esbuild.
    expect(install).toMatch(/^npm ci --include=dev /m);
    // A glob's file named like an option (--out=x.yaml) stays a file: after --, which commander reads as the end of the options.
    expect(ACTION.runs.steps.at(-1)?.run).toContain('node "$IDEM_SIM" check --format github $IDEM_SIM_ARGS -- $IDEM_SIM_FILES || status=$?');
  });

  it('uses only the actions the miniature runner simulates, each at a major version', () => {
    expect(ACTION.runs.steps.flatMap((s) => s.uses ?? [])).toEqual(['actions/setup-node@v4', 'actions/cache/restore@v4', 'actions/cache/save@v4']);
  });
});

describe('the miniature runner', () => {
  it('reads name=value lines and name<<DELIMITER blocks', () => {
    expect(readEnvFile('a=1\nb=x=y\nc<<EOF\nline 1\nline 2\nEOF\nd=\n')).toEqual({ a: '1', b: 'x=y', c: 'line 1\nline 2', d: '' });
    expect(() => readEnvFile('no equals sign\n')).toThrow(/invalid line/);
    expect(() => readEnvFile('c<<EOF\nunended\n')).toThrow(/no closing delimiter/);
  });

  it('evaluates contexts, comparisons (ignoring case), !, && and || as GitHub does', () => {
    expect(evaluate("steps.cache.outputs.cache-hit != 'true'", ctx())).toBe(false);
    expect(evaluate("steps.cache.outputs.cache-hit == 'TRUE'", ctx())).toBe(true);
    expect(evaluate("steps.node.outputs.found != 'true'", ctx())).toBe(true); // a missing output is null
    expect(evaluate("!(inputs.args == '') || failure()", ctx())).toBe(false);
    expect(evaluate("inputs.files && 'yes'", ctx())).toBe('yes');
    expect(substitute('${{ github.action_path }}/bin and ${{ inputs.args }}.', ctx())).toBe('/w/_actions/o/idem-sim/v1/bin and .');
  });

  it('refuses what it cannot evaluate rather than guessing', () => {
    expect(() => evaluate("hashFiles('package-lock.json')", ctx())).toThrow(/cannot evaluate/);
    expect(() => evaluate("format('{0}', inputs.files)", ctx())).toThrow(/cannot evaluate/);
    expect(() => evaluate("matrix.node == '20'", ctx())).toThrow(/cannot evaluate/);
  });

  it('can evaluate every expression of action.yml', () => {
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    const action = parse(text) as { runs: { steps: { if?: string }[] } };
    const expressions = [...text.matchAll(/\$\{\{(.*?)\}\}/g)].map((m) => m[1] as string)
      .concat(action.runs.steps.flatMap((s) => (s.if === undefined ? [] : [s.if])));
    expect(expressions.length).toBeGreaterThan(5);
    for (const e of expressions) expect(() => evaluate(e, ctx()), e).not.toThrow();
  });
});
