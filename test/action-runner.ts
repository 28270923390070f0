/**
 * A GitHub Actions runner in miniature, for test/action.e2e.test.ts: it runs a composite action's
 * steps as the runner does, on this machine.
 * - `run:` steps: `${{ }}` substituted in the script, `env:`, `working-directory:` and `with:`
 *   first; the script written to a file and run with `bash --noprofile --norc -eo pipefail {0}`
 *   (GitHub's `shell: bash`), in the workspace unless `working-directory:` says otherwise.
 * - Each step gets fresh environment files, read when it ends: GITHUB_OUTPUT (its outputs),
 *   GITHUB_ENV (variables for the later steps), GITHUB_PATH (directories put before PATH for the
 *   later steps, the last added first), GITHUB_STEP_SUMMARY (its part of the job's summary); the
 *   files take `name=value` lines and `name<<DELIMITER` blocks, as GitHub's do.
 * - Set as the runner sets them: GITHUB_WORKSPACE, GITHUB_ACTION_PATH (`github.action_path`),
 *   RUNNER_TEMP, RUNNER_OS, RUNNER_ARCH, CI and GITHUB_ACTIONS. No INPUT_ variables: GitHub gives a
 *   composite action's steps its inputs only as `${{ inputs.x }}` (actions/runner#665).
 * - `if:` is an expression, with `success() &&` implied when it names no status function; a
 *   failed step skips the later steps that do not ask for `always()` or `failure()`.
 * - `uses:` steps are simulated by their documented effect: actions/setup-node puts this Node's
 *   folder on PATH (it must be the major version asked for); actions/cache/restore and
 *   actions/cache/save copy the paths to and from a folder standing for the repository's cache
 *   (timestamps and symbolic links kept, as its tar does), each file as a hard link: a hit gives a
 *   job the files another saved, and no step writes to them, so the jobs share one install rather
 *   than copying 130 MB of node_modules at each save and restore. Any other action is refused.
 * Expressions: context paths (inputs, steps, github, runner, env), 'strings', numbers, true, false,
 * ==, != (strings compared ignoring case), !, &&, ||, parentheses and the status functions; any
 * other is refused, so an action that needs more fails here rather than passing untested.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

export interface Job {
  workspace: string;
  actionPath: string;
  /** RUNNER_TEMP: the environment files and scripts go here. */
  temp: string;
  /** The folder that stands for the repository's Actions cache. */
  cache: string;
  /** The environment the runner starts each step from (PATH, HOME, ...). */
  env: Record<string, string>;
}

export interface StepRecord { name: string; ran: boolean; status: number; stdout: string; stderr: string; outputs: Record<string, string> }
export interface ActionRun { status: number; outputs: Record<string, string>; steps: StepRecord[]; summary: string; stdout: string }

interface Step { name?: string; id?: string; if?: string; run?: string; uses?: string; shell?: string; env?: Record<string, string>; with?: Record<string, unknown>; 'working-directory'?: string }
interface Action { inputs?: Record<string, { required?: boolean; default?: string }>; outputs?: Record<string, { value: string }>; runs: { using: string; steps: Step[] } }

/** A step's outputs (or a job's variables) from its environment file. */
export function readEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2] as string, i + 1);
      if (end < 0) throw new Error(`environment file: no closing delimiter ${block[2]}`);
      out[block[1] as string] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=') && !line.startsWith('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    } else if (line.trim() !== '') throw new Error(`environment file: invalid line ${JSON.stringify(line)}`);
  }
  return out;
}

type Value = string | number | boolean | null;
export type Context = Record<string, unknown> & { status: { failed: boolean } };

/** An expression's value (the subset the header lists). */
export function evaluate(expression: string, ctx: Context): Value {
  const tokens = expression.match(/'(?:[^']|'')*'|==|!=|&&|\|\||[!()]|[A-Za-z_][\w.-]*\(\)|[A-Za-z_][\w.-]*|\d+(?:\.\d+)?|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const loose = (v: Value) => (typeof v === 'string' ? v.toLowerCase() : v ?? '');
  const truthy = (v: Value) => v !== null && v !== false && v !== '' && v !== 0;
  const primary = (): Value => {
    const t = tokens[at++];
    if (t === undefined) throw new Error(`expression ends early: ${expression}`);
    if (t === '(') { const v = or(); if (tokens[at++] !== ')') throw new Error(`no ) in ${expression}`); return v; }
    if (t === '!') return !truthy(primary());
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(t)) return Number(t);
    if (t === 'true' || t === 'false') return t === 'true';
    if (t === 'success()') return !ctx.status.failed;
    if (t === 'failure()') return ctx.status.failed;
    if (t === 'always()') return true;
    if (t === 'cancelled()') return false;
    if (/^(inputs|steps|github|runner|env)\./.test(t)) {
      const v = t.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], ctx);
      return v === undefined ? null : (v as Value);
    }
    throw new Error(`the simulated runner cannot evaluate ${JSON.stringify(t)} in ${expression}`);
  };
  const compare = (): Value => {
    const left = primary();
    const op = peek();
    if (op !== '==' && op !== '!=') return left;
    at++;
    const equal = loose(left) === loose(primary());
    return op === '==' ? equal : !equal;
  };
  const and = (): Value => { let v = compare(); while (peek() === '&&') { at++; const r = compare(); v = truthy(v) ? r : v; } return v; };
  const or = (): Value => { let v = and(); while (peek() === '||') { at++; const r = and(); v = truthy(v) ? v : r; } return v; };
  const value = or();
  if (at !== tokens.length) throw new Error(`the simulated runner cannot evaluate ${expression}`);
  return value;
}

/** Text with each `${{ expression }}` replaced by its value. */
export function substitute(text: string, ctx: Context): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => String(evaluate(e, ctx) ?? ''));
}

/** Whether a step runs: its `if:`, with `success() &&` when it names no status function. */
function runs(step: Step, ctx: Context): boolean {
  const condition = (step.if ?? '').trim().replace(/^\$\{\{(.*)\}\}$/s, '$1');
  if (condition === '') return !ctx.status.failed;
  const value = evaluate(/\b(success|failure|always|cancelled)\(\)/.test(condition) ? condition : `success() && (${condition})`, ctx);
  return value !== null && value !== false && value !== '' && value !== 0;
}

/** The paths of actions/cache's `path:`, each absolute and without . or .. (its patterns refuse those). */
function cachePaths(text: string): string[] {
  const paths = text.split('\n').map((p) => p.trim()).filter((p) => p !== '');
  for (const p of paths) if (!isAbsolute(p) || p.split('/').some((s) => s === '.' || s === '..')) throw new Error(`actions/cache refuses the path ${p}`);
  return paths;
}

/**
 * A copy keeping times, modes and symbolic links, as the cache's tar does, its files hard links
 * to the originals (cp -al: some 10,000 files of node_modules, linked at native speed; the cache
 * folder is on the runner's file system).
 */
function copy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  const r = spawnSync('cp', ['-al', from, to], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cp -al ${from} ${to}: ${r.stderr}`);
}

/** An action a step `uses:`, by its documented effect; returns the step's outputs. */
function simulated(uses: string, given: Record<string, string>, job: Job, prepend: string[]): Record<string, string> {
  const action = uses.replace(/@.*$/, '');
  const entry = join(job.cache, (given['key'] ?? '').replace(/[^\w.-]/g, '_'));
  if (action === 'actions/setup-node') {
    const major = process.versions.node.split('.')[0];
    if (String(given['node-version']) !== major) throw new Error(`setup-node asked for ${given['node-version']}; this Node is ${process.version}`);
    prepend.push(dirname(process.execPath));
    return { 'node-version': process.version };
  }
  if (action === 'actions/cache/restore') {
    const paths = cachePaths(given['path'] ?? '');
    if (!existsSync(entry)) return { 'cache-hit': 'false', 'cache-primary-key': given['key'] ?? '' };
    paths.forEach((p, i) => { if (existsSync(join(entry, String(i)))) { rmSync(p, { recursive: true, force: true }); copy(join(entry, String(i)), p); } });
    return { 'cache-hit': 'true', 'cache-primary-key': given['key'] ?? '', 'cache-matched-key': given['key'] ?? '' };
  }
  if (action === 'actions/cache/save') {
    const paths = cachePaths(given['path'] ?? '');
    if (existsSync(entry)) return {}; // "Cache already exists": a warning, not a failure
    if (!paths.some((p) => existsSync(p))) throw new Error('actions/cache/save: none of the paths exists');
    paths.forEach((p, i) => { if (existsSync(p)) copy(p, join(entry, String(i))); });
    return {};
  }
  throw new Error(`the simulated runner does not know the action ${uses}`);
}

/** Runs a `run:` step; returns its record (outputs from GITHUB_OUTPUT) and applies its GITHUB_ENV and GITHUB_PATH. */
function runStep(step: Step, n: number, ctx: Context, job: Job, jobEnv: Record<string, string>, prepend: string[]): StepRecord {
  if (step.shell !== 'bash') throw new Error(`step ${n}: a composite action's run step needs shell: bash here, not ${step.shell}`);
  const files = join(job.temp, '_runner_file_commands', `step${n}`);
  mkdirSync(files, { recursive: true });
  const file = (name: string) => { const f = join(files, name); writeFileSync(f, ''); return f; };
  const envFiles = { GITHUB_OUTPUT: file('output'), GITHUB_ENV: file('env'), GITHUB_PATH: file('path'), GITHUB_STEP_SUMMARY: file('summary') };
  const script = join(job.temp, `step${n}.sh`);
  writeFileSync(script, substitute(step.run ?? '', ctx));
  const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
  const env = { ...job.env, ...jobEnv, ...stepEnv, ...envFiles, PATH: [...prepend].reverse().concat(job.env['PATH'] ?? '').join(':') };
  const cwd = step['working-directory'] ? substitute(step['working-directory'], ctx) : job.workspace;
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, encoding: 'utf8', timeout: 15 * 60_000, maxBuffer: 256 * 1024 * 1024 });
  Object.assign(jobEnv, readEnvFile(readFileSync(envFiles.GITHUB_ENV, 'utf8')));
  prepend.push(...readFileSync(envFiles.GITHUB_PATH, 'utf8').split('\n').filter((l) => l !== ''));
  const stdout = r.stdout + (r.signal ? `\n(killed by ${r.signal})` : '');
  return { name: step.name ?? step.run ?? '', ran: true, status: r.status ?? 128, stdout, stderr: r.stderr, outputs: readEnvFile(readFileSync(envFiles.GITHUB_OUTPUT, 'utf8')) };
}

/** Runs the composite action of `actionFile` with `inputs`, in `job`. */
export function runAction(actionFile: string, job: Job, inputs: Record<string, string>): ActionRun {
  const action = parse(readFileSync(actionFile, 'utf8')) as Action;
  if (action.runs.using !== 'composite') throw new Error('not a composite action');
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    if (spec.required && inputs[name] === undefined) throw new Error(`input ${name} is required`);
  }
  const given = Object.fromEntries(Object.entries(action.inputs ?? {}).map(([k, s]) => [k, inputs[k] ?? s.default ?? '']));
  const steps: Record<string, { outputs: Record<string, string>; outcome: string }> = {};
  const jobEnv: Record<string, string> = {};
  const ctx: Context = {
    inputs: given, steps, env: jobEnv, status: { failed: false },
    github: { action_path: job.actionPath, workspace: job.workspace },
    runner: { os: job.env['RUNNER_OS'], arch: job.env['RUNNER_ARCH'], temp: job.temp },
  };
  rmSync(join(job.temp, '_runner_file_commands'), { recursive: true, force: true });
  const records: StepRecord[] = [];
  const prepend: string[] = [];
  let status = 0;
  action.runs.steps.forEach((step, n) => {
    const name = step.name ?? step.uses ?? step.run ?? '';
    if (!runs(step, ctx)) { records.push({ name, ran: false, status: 0, stdout: '', stderr: '', outputs: {} }); return; }
    let record: StepRecord;
    if (step.uses !== undefined) {
      const withs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
      record = { name, ran: true, status: 0, stdout: '', stderr: '', outputs: simulated(step.uses, withs, job, prepend) };
    } else record = runStep(step, n, ctx, job, jobEnv, prepend);
    records.push(record);
    if (step.id) steps[step.id] = { outputs: record.outputs, outcome: record.status === 0 ? 'success' : 'failure' };
    if (record.status !== 0 && !ctx.status.failed) { ctx.status.failed = true; status = record.status; }
  });
  const outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([k, o]) => [k, substitute(o.value, ctx)]));
  const summary = action.runs.steps.map((_, n) => join(job.temp, '_runner_file_commands', `step${n}`, 'summary')).filter(existsSync).map((f) => readFileSync(f, 'utf8')).join('');
  return { status, outputs, steps: records, summary, stdout: records.map((r) => r.stdout).join('') };
}
