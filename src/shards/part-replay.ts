/**
 * A part's replay arguments, which `merge` prints as the merged result's replay line, held to a
 * command idem-sim writes: `idem-sim run` or `idem-sim sweep`, the runs' own files, then only
 * the options a shard's line carries, in the order ReplayLine writes them, each agreeing with
 * what the part says of itself (its seed, series step, varied keys and metric). A part resealed
 * with `replay_args: ["rm", "-rf", "/"]` printed `replay: rm -rf /`; it is refused.
 */
import { isSweepMetric } from '../sweeps/metric.js';
import { InputError } from '../scenario/errors.js';
import { parseKeyPath, parseOverrides } from '../scenario/overrides.js';
import type { PartChecker } from './part-check.js';
import { asInput, columnNames } from '../scenario/names.js';
import { seriesOption } from '../scenario/series-option.js';

/** The options a shard's replay line may carry, in the order run.ts and sweep.ts write them (a shard takes no --precision). */
export const SHARD_REPLAY_OPTIONS = {
  run: ['--set', '--actions', '--seed', '--series'],
  sweep: ['--vary', '--set', '--actions', '--seed', '--metric', '--find', '--series'],
} as const;
const REPEATED: readonly string[] = ['--vary', '--set', '--find'];

/** A replay line read back: its inputs, and each option's values in order. */
export interface ReplayRead { inputs: string[]; values: (name: string) => string[] }

/**
 * The arguments as `idem-sim COMMAND INPUTS... [--allow-outside] OPTIONS...`, refused in any
 * other form; read before the rest of the part, then held to it by checkRunReplay or checkSweepReplay.
 */
export function readReplay(c: PartChecker, args: readonly string[], command: keyof typeof SHARD_REPLAY_OPTIONS): ReplayRead {
  const fail = (problem: string): never => c.fail('replay_args', problem);
  if (args[0] !== 'idem-sim' || args[1] !== command) fail(`does not begin "idem-sim ${command}", the command that writes this part`);
  let i = 2;
  const inputs: string[] = [];
  // An input that begins with - is written ./-name (ReplayLine): the first argument with a - is an option.
  while (i < args.length && !(args[i] as string).startsWith('-')) inputs.push(args[i++] as string);
  if (args[i] === '--allow-outside') i++;
  const names: readonly string[] = SHARD_REPLAY_OPTIONS[command];
  const given: [string, string][] = [];
  for (let last = -1; i < args.length; i += 2) {
    const name = args[i] as string;
    const at = names.indexOf(name);
    if (at < 0) fail(`holds an argument that is not an option a shard's replay line carries (${names.join(', ')})`);
    if (at < last || (at === last && !REPEATED.includes(name))) fail(`gives ${name} out of the order idem-sim writes`);
    if (i + 1 >= args.length) fail(`ends with ${name}, without its value`);
    given.push([name, args[i + 1] as string]);
    last = at;
  }
  const values = (name: string) => given.filter(([n]) => n === name).map(([, v]) => v);
  // --set and --actions as a command line would take them.
  try {
    parseOverrides({ set: values('--set'), actions: values('--actions')[0] });
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    fail('gives a --set or --actions that idem-sim would not take');
  }
  return { inputs, values };
}

const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * A run's part: its inputs are the runs' files (none for the lab defaults), its runs named as
 * `run` names them; --seed when every run has that one seed; --series as the part's step.
 */
export function checkRunReplay(c: PartChecker, { inputs, values }: ReplayRead, runs: readonly { name: string; file: string | null; seed: string }[], seriesStep: number | null): void {
  const files = runs.map((r) => r.file);
  const lab = files.length === 1 && files[0] === null;
  if (!lab && !files.every((f) => f !== null)) c.fail('runs', 'holds the lab defaults beside scenario files, which run never writes');
  if (!same(inputs, lab ? [] : (files as string[]).map(asInput))) c.fail('replay_args', 'does not name the runs\' own files, in order');
  const names = columnNames(files);
  runs.forEach((r, i) => { if (r.name !== names[i]) c.fail(`runs[${i}].name`, 'is not the name run gives its file'); });
  const seeds = [...new Set(runs.map((r) => r.seed))];
  if (!same(values('--seed'), seeds.length === 1 ? seeds : [])) c.fail('replay_args', 'gives a --seed that is not the runs\' seed');
  if (seriesStepIn(values('--series')) !== seriesStep) c.fail('replay_args', 'gives a --series that is not the step the part was written with');
}

/** The step a replay line's --series gives (null for none; NaN for more than one, or one idem-sim would not take). */
function seriesStepIn(series: readonly string[]): number | null {
  if (series.length > 1) return NaN;
  try {
    return series.length === 0 ? null : seriesOption(series[0]) ?? null;
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return NaN;
  }
}

/** A sweep's part: its input is the sweep's scenario file; --seed its seed; --vary keys it varies; --metric its metric; --find and --series its own. */
export function checkSweepReplay(c: PartChecker, { inputs, values }: ReplayRead,
  sweep: { scenario: string | null; paths: readonly string[]; seed: string; metric: string; find?: readonly string[]; series_step?: number }): void {
  if (!same(inputs, sweep.scenario === null ? [] : [asInput(sweep.scenario)])) c.fail('replay_args', 'does not name the sweep\'s scenario file');
  if (!same(values('--seed'), [sweep.seed])) c.fail('replay_args', 'gives a --seed that is not the sweep\'s');
  const metric = values('--metric');
  if (metric.length > 0 && (!same(metric, [sweep.metric]) || !isSweepMetric(sweep.metric))) c.fail('replay_args', 'gives a --metric that is not the sweep\'s');
  if (!same(values('--find'), sweep.find ?? [])) c.fail('replay_args', 'gives a --find that is not the sweep\'s');
  if (seriesStepIn(values('--series')) !== (sweep.series_step ?? null)) c.fail('replay_args', 'gives a --series that is not the step the part was written with');
  for (const v of values('--vary')) {
    const eq = v.indexOf('=');
    const path = eq > 0 ? v.slice(0, eq).trim() : '';
    if (!sweep.paths.includes(path) || parseKeyPath(path) === undefined) c.fail('replay_args', 'gives a --vary of a key the sweep does not vary');
  }
}
