/**
 * The fixed values of options whose lists live in registries that load only when a command runs
 * (`--format`'s reporters, the metric registry): commander's own `.choices()` would load them at
 * every start, and would replace the commands' messages for a wrong value with its own. The
 * completion scripts (completion/completion.ts) ask here, so a new format or metric reaches them.
 */
import type { Argument, Option } from 'commander';

type Load = () => Promise<readonly string[]> | readonly string[];

const LOADERS = new WeakMap<Option, Load>();

/** `option`, its values given by `load` when asked. */
export function withChoices(option: Option, load: Load): Option {
  LOADERS.set(option, load);
  return option;
}

/** The values an option or argument takes, if they are a fixed list (commander's choices or withChoices). */
export async function choicesOf(target: Option | Argument): Promise<readonly string[] | undefined> {
  if (target.argChoices) return target.argChoices;
  const load = 'flags' in target ? LOADERS.get(target) : undefined;
  return load ? await load() : undefined;
}
