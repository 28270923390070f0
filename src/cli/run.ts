/** `idem-sim run [SCENARIO ...]`: simulate each scenario and report them side by side. */
import { basename, extname } from 'node:path';
import { simulate } from '../model/simulate.js';
import { InputError } from '../scenario/errors.js';
import { parseScenario, type Override } from '../scenario/parse.js';
import { PendingOutput, loadEmpiricalData, readUserFile } from './files.js';
import { chalkFor, shellQuote, toolVersion, type Io } from './io.js';
import { renderJson } from './report/json.js';
import { renderTable } from './report/table.js';
import type { ScenarioRun } from './report/types.js';

export interface RunOptions {
  actions?: string;
  seed?: string;
  set: string[];
  json?: boolean;
  out?: string;
}

/** The seed used when neither --seed nor the file gives one. */
export const DEFAULT_SEED = '1';

/** `--set a.b=c` and `--actions N` as overrides, validated later with the scenario. */
export function parseOverrides(opts: Pick<RunOptions, 'set' | 'actions'>): Override[] {
  const overrides = opts.set.map((arg): Override => {
    const eq = arg.indexOf('=');
    const path = eq > 0 ? arg.slice(0, eq).split('.') : [];
    if (eq <= 0 || path.some((p) => p.trim() === '')) {
      throw new InputError({ source: `--set ${arg}` }, '', 'expected key.path=value',
        'Write it as, for example, --set idempotency.scope=intent or --set client.timeout=2s.');
    }
    return { path: path.map((p) => p.trim()), text: arg.slice(eq + 1), option: `--set ${arg}` };
  });
  if (opts.actions !== undefined) overrides.push({ path: ['actions'], text: opts.actions, option: `--actions ${opts.actions}` });
  return overrides;
}

/** Loads a scenario file (or the built-in lab defaults) into a ready-to-run scenario. */
export function loadScenario(file: string | null, overrides: readonly Override[]) {
  const text = file === null ? '' : readUserFile(file, 'the scenario file');
  const parsed = parseScenario(text, file ?? '(built-in lab defaults)', overrides);
  return { ...parsed, scenario: loadEmpiricalData(parsed.scenario, file ?? undefined) };
}

export function scenarioName(file: string | null): string {
  return file === null ? 'lab-defaults' : basename(file, extname(file));
}

export function runCommand(files: string[], opts: RunOptions, io: Io): number {
  const out = opts.out ? new PendingOutput(opts.out) : null;
  try {
    const overrides = parseOverrides(opts);
    const sources = files.length > 0 ? files : [null];
    const loaded = sources.map((file) => ({ file, ...loadScenario(file, overrides) }));
    const runs: ScenarioRun[] = loaded.map(({ file, scenario, seed }) => {
      const useSeed = opts.seed ?? seed ?? DEFAULT_SEED;
      const { metrics } = simulate(scenario, useSeed);
      return { name: scenarioName(file), file, seed: useSeed, scenario, metrics };
    });
    const seeds = [...new Set(runs.map((r) => r.seed))];
    const replay = ['idem-sim', 'run', ...files, ...opts.set.flatMap((s) => ['--set', s]),
      ...(opts.actions !== undefined ? ['--actions', opts.actions] : []),
      ...(seeds.length === 1 ? ['--seed', seeds[0] as string] : []), ...(opts.json ? ['--json'] : [])].map(shellQuote).join(' ');
    const info = { version: toolVersion(), replay };
    const text = opts.json ? renderJson(runs, info) : renderTable(runs, info, chalkFor(out ? {} : io.stdout, io.env));
    if (out) out.commit(text);
    else io.stdout.write(text);
    return 0;
  } finally {
    out?.abort();
  }
}
