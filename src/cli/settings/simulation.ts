/**
 * Simulation settings, shared by every command that simulates (run, sweep, check, size, report):
 * the seed and the threads, and for run and sweep --precision and --shard; and the declaration
 * of those options together with the scenario-reading ones (settings/scenario.ts), in the order
 * --help lists them.
 */
import { Option, type Command } from 'commander';
import { PRECISION_METRICS, type PrecisionTarget } from '../../results/precision.js';
import { InputError } from '../../scenario/errors.js';
import type { Override } from '../../scenario/parse.js';
import { seedOption } from '../../scenario/seed.js';
import { withChoices } from '../../completion/choices.js';
import { DEFAULT_MAX_ACTIONS, maxActionsOption, oneOf, positiveNumber, shard, threadsOption, type Threads } from '../options.js';
import { parsedOption, type Given } from './given.js';
import { SCENARIO_OPTIONS } from './scenario.js';

/** A shard of a run or sweep: the index-th of count, from 1. */
export type Shard = { index: number; count: number };

/** The options as commander gives them. */
export interface SimulationOptions {
  seed?: Given<string>;
  threads?: Given<Threads>;
}

/** The options `large` adds (run and sweep). */
export interface LargeRunOptions {
  precision?: Given<number>;
  precisionMetric?: Given<string>;
  maxActions?: Given<number>;
  shard?: Given<Shard>;
}

export interface SimulationSettings {
  /** --seed, which overrides the file's. */
  readonly seed: Given<string> | undefined;
  /** --threads: undefined for the default (shared/simulate.ts, threadSetting). */
  readonly threads: Given<Threads> | undefined;
}

/** --precision, --precision-metric and --max-actions, as given. */
export interface PrecisionSettings {
  /** --precision: the 95% CI half-width to reach, in the metric's unit. */
  readonly halfWidth: Given<number> | undefined;
  readonly metric: Given<string> | undefined;
  readonly maxActions: Given<number> | undefined;
}

export interface LargeRunSettings {
  readonly precision: PrecisionSettings;
  readonly shard: Given<Shard> | undefined;
}

/** `--seed`: printable and not empty (scenario/seed.ts). */
const seedText = (text: string): string => {
  seedOption(text);
  return text;
};

/** The options every simulating command shares, each made for the command that declares it. */
export const SIMULATION_OPTIONS = {
  seed: (description: string): Option => parsedOption('--seed <seed>', description, seedText),
  threads: (): Option => parsedOption('--threads <n>', 'threads: this one and n-1 workers (default: all cores, one per 2 M actions at most; at most 4 per core); results do not depend on it', (text) => threadsOption(text)),
};

/** Declares the options every simulating command shares; `large` adds --precision and --shard. */
export function simulationOptions(cmd: Command, large: boolean): Command {
  cmd.addOption(SCENARIO_OPTIONS.actions('primary actions to simulate (overrides the file)'))
    .addOption(SIMULATION_OPTIONS.seed('random seed (overrides the file; default 1)'))
    .addOption(SCENARIO_OPTIONS.set('override one key, e.g. idempotency.scope=intent (repeatable)'))
    .addOption(SIMULATION_OPTIONS.threads())
    .addOption(SCENARIO_OPTIONS.allowOutside());
  if (!large) return cmd;
  const metrics = Object.keys(PRECISION_METRICS);
  return cmd.addOption(parsedOption('--precision <x>', 'simulate until the 95% CI half-width of the metric is at most x', (text) => positiveNumber('--precision', text)))
    .addOption(withChoices(parsedOption('--precision-metric <name>', `metric for --precision (default duplicates_per_1000): ${metrics.join(', ')}`,
      (text) => oneOf('--precision-metric', text, metrics)), () => metrics))
    .addOption(parsedOption('--max-actions <n>', 'stop --precision here even if not reached (default 1e8, at most 1e13)', maxActionsOption))
    .addOption(parsedOption('--shard <i/n>', 'simulate only shard i of n and write a partial result for `idem-sim merge`', shard));
}

export function simulationSettings(opts: SimulationOptions): SimulationSettings {
  return { seed: opts.seed, threads: opts.threads };
}

export function largeRunSettings(opts: LargeRunOptions): LargeRunSettings {
  return { precision: { halfWidth: opts.precision, metric: opts.precisionMetric, maxActions: opts.maxActions }, shard: opts.shard };
}

/** The target of --precision (undefined without it), refusing the options that do not go with it: `actions` is --actions. */
export function precisionTarget(p: PrecisionSettings, actions: Override | undefined): PrecisionTarget | undefined {
  if (p.halfWidth === undefined) {
    if (p.metric !== undefined || p.maxActions !== undefined) {
      throw new InputError({ source: p.metric !== undefined ? '--precision-metric' : '--max-actions' }, '',
        'only makes sense with --precision', 'Add --precision X (the 95% CI half-width to reach), or drop the option.');
    }
    return undefined;
  }
  if (actions !== undefined) {
    throw new InputError({ source: actions.option }, '', 'has no effect with --precision, which simulates until its target is met',
      'Drop --actions; to bound the run, give --max-actions N.');
  }
  const maxActions = p.maxActions === undefined ? DEFAULT_MAX_ACTIONS : p.maxActions.value;
  return { halfWidth: p.halfWidth.value, metric: p.metric === undefined ? 'duplicates_per_1000' : p.metric.value, maxActions };
}

