/**
 * Scenario-reading settings, shared by every command that reads a scenario: --set and --actions
 * (overrides of the file's keys, validated with the scenario) and --allow-outside. Their options
 * are declared here and read by shared/load.ts's scenarioReader.
 */
import { Option } from 'commander';
import { parseOverrides } from '../../scenario/overrides.js';
import type { Override } from '../../scenario/parse.js';
import { repeatedOption, type Given } from './given.js';

/** The options as commander gives them. */
export interface ScenarioOptions {
  set?: readonly Given<Override>[] | undefined;
  actions?: Override | undefined;
  allowOutside?: boolean | undefined;
}

export interface ScenarioSettings {
  /** Each --set, as the override of one key it asks for. */
  readonly set: readonly Given<Override>[];
  /** --actions N, an override of the file's actions. */
  readonly actions: Override | undefined;
  /** --allow-outside: read data files outside the scenario file's directory. */
  readonly allowOutside: boolean;
}

/** The options, each made for the command that declares it; `description` says what it does there. */
export const SCENARIO_OPTIONS = {
  set: (description: string): Option => repeatedOption('--set <path=value>', description, (text) => parseOverrides({ set: [text] })[0] as Override),
  // Any text is an override: the scenario's own checks judge its value.
  actions: (description: string): Option => new Option('--actions <n>', description).argParser((text: string) => parseOverrides({ actions: text })[0] as Override),
  allowOutside: (): Option => new Option('--allow-outside', "read data files (empirical latencies, histograms) and extends: bases outside the scenario file's directory: only for scenarios you trust"),
};

export function scenarioSettings(opts: ScenarioOptions): ScenarioSettings {
  return { set: opts.set ?? [], actions: opts.actions, allowOutside: opts.allowOutside === true };
}

/** Each --set, then --actions: the overrides the reader applies to the file. Throws the first --set that does not parse. */
export function overridesOf(s: ScenarioSettings): Override[] {
  return [...s.set.map((given) => given.value), ...(s.actions ? [s.actions] : [])];
}
