/**
 * `run --effects-out FILE`: every execution of the runs as a production table would hold them
 * (docs/reconcile.md, "Effects"), in time order, written whole or not at all. The rows are held
 * in memory to be sorted, at most MAX_EFFECT_ROWS of them (docs/security-and-limits.md).
 */
import { isCoupled } from '../model/capacity.js';
import { withPrimaries } from '../model/clock.js';
import type { Scenario } from '../model/types.js';
import { MAX_COUPLED_EFFECT_ACTIONS, runEffects, type EffectRecord } from '../exec/effects.js';
import { namedRun } from '../exec/side-by-side.js';
import { effectsFormatOf, effectsHead, effectsText } from '../report/effects-rows.js';
import { InputError } from '../scenario/errors.js';
import { PendingOutput } from './outputs.js';

/** Most executions an effects file holds (each about 150 bytes while sorted). */
export const MAX_EFFECT_ROWS = 2_000_000;
/** Rows written a piece at a time. */
const PIECE = 50_000;

/** A run whose executions go to the file: its scenario as simulated (bound to its primaries), seed, and the tool's name. */
export interface EffectsRun { scenario: Scenario; seed: string; tool: string }

/** The file `--effects-out` names, checked and opened before anything runs (a bad path fails at once). */
export function effectsOutput(path: string, inputs: readonly string[]): PendingOutput {
  if (path === '-') {
    throw new InputError({ source: '--effects-out -' }, '', 'would write the effects into the report on standard output',
      'Give a file name, such as --effects-out effects.csv (or effects.jsonl for JSON lines).');
  }
  return new PendingOutput(path, inputs, '--effects-out');
}

/** Refuses what --effects-out cannot write: a coupled scenario (named by `name`) of more than MAX_COUPLED_EFFECT_ACTIONS actions. */
export function checkEffectsRun(scenario: Scenario, seed: string, name: string): void {
  const actions = withPrimaries(scenario, seed).actions; // load.duration's primaries, drawn
  if (!isCoupled(scenario) || actions <= MAX_COUPLED_EFFECT_ACTIONS) return;
  throw new InputError({ source: name }, 'actions', `is ${actions.toLocaleString('en-US')}, and --effects-out traces a coupled run (workers, a retry budget, a breaker or a throttle) whole, at most ${MAX_COUPLED_EFFECT_ACTIONS.toLocaleString('en-US')} actions`,
    `Run at most ${MAX_COUPLED_EFFECT_ACTIONS.toLocaleString('en-US')} actions for the effects file (--actions), or drop --effects-out.`);
}

/** Writes every execution of `runs`, in time order (ties in the runs' order), to `out`. */
export function writeEffects(out: PendingOutput, runs: readonly EffectsRun[], stdout: NodeJS.WritableStream): void {
  const format = effectsFormatOf(out.path);
  const rows: EffectRecord[] = [];
  for (const run of runs) {
    try {
      for (const chunk of runEffects(run.scenario, run.seed, run.tool)) {
        if (rows.length + chunk.length > MAX_EFFECT_ROWS) {
          out.abort();
          throw new InputError({ source: `--effects-out ${out.path}` }, '', `would hold more than ${MAX_EFFECT_ROWS.toLocaleString('en-US')} executions, which are sorted in memory`,
            'Run fewer actions (--actions, or a shorter load.duration) for the effects file.');
        }
        for (const r of chunk) rows.push(r);
      }
    } catch (e) {
      throw runs.length > 1 ? namedRun(e, `the run ${run.tool}`) : e; // a trace past its bound (engine/runaway.ts), as a run past its own
    }
  }
  rows.sort((a, b) => a.at - b.at);
  out.commit(effectsHead(format), stdout, true);
  for (let k = 0; k < rows.length; k += PIECE) out.commit(effectsText(rows.slice(k, k + PIECE), format), stdout, true);
  out.commit('', stdout);
}
