/** The options every simulating command shares (run, sweep, check, size, report). */
import { Option, type Command } from 'commander';
import { PRECISION_METRICS } from '../results/precision.js';
import { withChoices } from './choices.js';

/** Collects a repeatable option's values (--set, --vary). */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Options every simulating command shares; `large` adds --precision and --shard. */
export function simulationOptions(cmd: Command, large: boolean): Command {
  cmd.option('--actions <n>', 'primary actions to simulate (overrides the file)')
    .option('--seed <seed>', 'random seed (overrides the file; default 1)')
    .addOption(new Option('--set <path=value>', 'override one key, e.g. idempotency.scope=intent (repeatable)').argParser(collect))
    .option('--threads <n>', 'threads: this one and n-1 workers (default: all cores, one per 2 M actions at most; at most 4 per core); results do not depend on it')
    .option('--allow-outside', "read data files (empirical latencies) outside the scenario file's directory: only for scenarios you trust");
  if (!large) return cmd;
  return cmd.option('--precision <x>', 'simulate until the 95% CI half-width of the metric is at most x')
    .addOption(withChoices(new Option('--precision-metric <name>', `metric for --precision (default duplicates_per_1000): ${Object.keys(PRECISION_METRICS).join(', ')}`), () => Object.keys(PRECISION_METRICS)))
    .option('--max-actions <n>', 'stop --precision here even if not reached (default 1e8, at most 1e13)')
    .option('--shard <i/n>', 'simulate only shard i of n and write a partial result for `idem-sim merge`');
}
