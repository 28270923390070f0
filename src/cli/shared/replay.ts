/**
 * The command line that gives a result's numbers again, which every report carries (STYLE.md:
 * "every run says how to replay it"). Only what changes the numbers goes in: not --threads,
 * --out or a progress bar. Options are added in the order the command's report has always
 * written them, each only when given.
 */
import { shellQuote } from '../../scenario/shell-quote.js';
import type { Given } from '../settings/given.js';
import type { ScenarioSettings } from '../settings/scenario.js';
import type { PrecisionSettings } from '../settings/simulation.js';
import { asInput } from '../../scenario/names.js';

export class ReplayLine {
  private readonly parts: string[];

  /** `idem-sim COMMAND INPUTS...` (each `asInput`), and --allow-outside when given (it decides which data files are read). */
  constructor(command: string, inputs: readonly string[], opts: { allowOutside?: boolean | undefined }) {
    this.parts = ['idem-sim', command, ...inputs.map(asInput), ...(opts.allowOutside ? ['--allow-outside'] : [])];
  }

  /** `name value`, when there is a value. */
  option(name: string, value: string | undefined): this {
    if (value !== undefined) this.parts.push(name, value);
    return this;
  }

  /** `name text` of an option given on the command line, as its text was written. */
  given(name: string, option: Given<unknown> | undefined): this {
    return this.option(name, option?.text);
  }

  /** `name`, when it is on. */
  flag(name: string, on: boolean | undefined): this {
    if (on) this.parts.push(name);
    return this;
  }

  /** `name value` for each value of a repeatable option. */
  each(name: string, values: readonly string[] | undefined): this {
    for (const v of values ?? []) this.parts.push(name, v);
    return this;
  }

  /** Each --set, then --actions: what the scenario reader applies to the file. */
  overrides(s: ScenarioSettings): this {
    return this.each('--set', s.set.map((given) => given.text)).option('--actions', s.actions?.text);
  }

  /** --precision, --precision-metric and --max-actions, as given. */
  precision(p: PrecisionSettings): this {
    return this.given('--precision', p.halfWidth).given('--precision-metric', p.metric).given('--max-actions', p.maxActions);
  }

  /** The arguments, unquoted (a partial result keeps them so that `merge` can write the line). */
  get args(): string[] {
    return [...this.parts];
  }

  /** The line, quoted for a POSIX shell. */
  text(): string {
    return this.parts.map(shellQuote).join(' ');
  }
}
