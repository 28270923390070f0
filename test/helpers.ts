import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { halfWidth, type Estimate, type Metrics } from '../src/results/metrics.js';
import { loadLatencyData } from '../src/model/latency.js';
import { simulate } from '../src/exec/simulate.js';
import type { Scenario, WrittenScenario } from '../src/model/types.js';
import { parseScenario, type Override } from '../src/scenario/parse.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = fileURLToPath(new URL('../bin/idem-sim.js', import.meta.url));

/** A written scenario the engine can run: in-process tests name no data files (reading them is the CLI's job). */
export function runnable(s: WrittenScenario): Scenario {
  const read = (): never => { throw new Error('an in-process test read a data file; load it through io/files.ts'); };
  return { ...s, service: { ...s.service, latency: loadLatencyData(s.service.latency, ['service', 'latency'], read) } };
}

/** A scenario from YAML text, ready to run. */
export function parseRunnable(yaml: string, source = 'test.yaml', overrides: readonly Override[] = []): Scenario {
  return runnable(parseScenario(yaml, source, overrides).scenario);
}

/** Simulates a scenario written as YAML text. */
export function sim(yaml: string, actions: number, seed = '1'): Metrics {
  return simulate({ ...parseRunnable(yaml), actions }, seed).metrics;
}

/** Standard error of an estimate, recovered from its 95% interval (half-width / 1.96). */
export function se(e: Estimate): number {
  return halfWidth(e) / 1.96;
}

/** Standard error of a proportion p measured over n trials. */
export function seProportion(p: number, n: number): number {
  return Math.sqrt((p * (1 - p)) / n);
}

/** Standard normal upper tail P(Z > z), by the complementary error function (Numerical Recipes erfc, |error| < 1.2e-7). */
export function normalTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  const erfc = x >= 0 ? y : 2 - y;
  return erfc / 2;
}

export interface CliResult { status: number; stdout: string; stderr: string }

/** Standard error without its notes (`idem-sim: note: ...`, such as the lab values a scenario runs on without writing them): its warnings and errors. */
export const withoutNotes = (stderr: string): string => stderr.replace(/^idem-sim: note: .*\n/gm, '');

/** Whether util-linux `script` is on the PATH, to give a command a pseudo-terminal (looked up, not started: every file that imports this module would pay for a process). */
export const HAS_SCRIPT = (process.env.PATH ?? '').split(delimiter).some((dir) => {
  try { accessSync(join(dir, 'script'), constants.X_OK); return true; } catch { return false; }
});
const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs idem-sim with its standard output (and error) on a pseudo-terminal; `-e` returns its status. */
export function onTerminal(args: string[], cwd: string): { status: number; output: string } {
  const command = [process.execPath, BIN, ...args].map(shQuote).join(' ');
  const r = spawnSync('script', ['-qefc', command, '/dev/null'], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status ?? -1, output: r.stdout.replace(/\r\n/g, '\n') };
}

/** Ten minutes at 50/s (about 30,000 primaries: two chunks, the first ending near 5.5 min) with a 4x slowdown and a 409 alert: the report's time tests. */
export const SLOWDOWN_YAML = `load: {duration: 10m}
idempotency: {scope: intent}
incidents:
  - {name: slowdown, from: 4m, to: 6m, service: {latency_multiplier: 4}}
alerts:
  - {name: conflicts, metric: conflicts_409, above: 20, for: 1m}
`;

/** Runs the real binary: dist/, built by `npm test` or `npm run test:e2e` first; so only e2e, services and browser files call it. */
export function cli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

// SVG checks shared by charts.test.ts and charts.e2e.test.ts.

/** Items drawn by the mark named `name` (Vega-Lite view name + `_marks`): the elements of its group. */
export function marks(svg: string, name: string): number {
  const open = svg.indexOf(` ${name}_marks"`);
  if (open < 0) return 0;
  const body = svg.slice(svg.indexOf('>', open) + 1, svg.indexOf('</g>', open));
  return (body.match(/<(path|line|text|rect)\b/g) ?? []).length;
}

/** Every URL in a document, once the SVG namespace declarations are set aside. */
export const urls = (text: string) => text.replace(/ xmlns(:xlink)?="http:\/\/www\.w3\.org\/(2000\/svg|1999\/xlink)"/g, '').match(/https?:\/\/[^\s"'<>)]*/g) ?? [];

// Scratch directories of outputs-and-signals.test.ts and its .e2e twin.
const scratchDirs: string[] = [];

/** A fresh temporary directory; `removeScratch` (each file's afterEach) removes all made so far. */
export function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'idem-sim-out-'));
  scratchDirs.push(d);
  return d;
}

export function removeScratch(): void {
  for (const d of scratchDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/**
 * The probe's race, shared by the store-free and the live-store probe tests: every handler
 * takes 600ms, longer than the 200ms timeout, so the retry comes while the first attempt still
 * runs (check_then_act executes every action twice, atomic answers the retry 409).
 */
export const RACE_YAML = `
service: {latency: {dist: constant, value: 600ms}}
network: {reply_loss: 0}
client:
  timeout: 200ms
  retries: 1
  backoff: {base: 20ms, multiplier: 2, max: 1s, jitter: none}
agent: {replan_probability: 0}
idempotency: {scope: intent}
`;
export const RACE_ACTIONS = 30;
