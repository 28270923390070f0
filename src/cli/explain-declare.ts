/**
 * Registers `explain` on the program (one entry of main.ts's list): its options, --format among
 * them (read against report/explain-formats.ts, which loads no reporter); explain.ts loads when it runs.
 */
import type { Command } from 'commander';
import { EXPLAIN_FORMAT_INFO, EXPLAIN_FORMATS, type ExplainFormat } from '../report/explain-formats.js';
import { formatList } from '../report/formats.js';
import { withChoices } from '../completion/choices.js';
import type { Io } from '../io/streams.js';
import { oneOf } from './options.js';
import { parsedOption } from './settings/given.js';
import { SCENARIO_OPTIONS } from './settings/scenario.js';
import type { ExplainOptions } from './explain.js';

/** `explain --format NAME`: one of EXPLAIN_FORMATS. */
export const explainFormatOf = (text: string): ExplainFormat => oneOf('--format', text, EXPLAIN_FORMATS) as ExplainFormat; // oneOf checked it

/** `explain`: every key of a scenario, its value and where it came from. */
export function declareExplain(cmd: Command, { io, setCode }: { io: Io; setCode: (code: number) => void }): void {
  cmd.command('explain')
    .description('every key a run of the scenario takes, its value, and where it comes from: the file\'s line, a file it extends, --set, a preset, an agent\'s defaults or the built-in default')
    .argument('[scenario]', 'the scenario or agent file (the built-in lab defaults when none is given)')
    .addOption(SCENARIO_OPTIONS.actions('primary actions to simulate (overrides the file)'))
    .addOption(SCENARIO_OPTIONS.set('override one key, e.g. idempotency.scope=intent (repeatable)'))
    .addOption(SCENARIO_OPTIONS.allowOutside())
    .addOption(withChoices(parsedOption('--format <format>', formatList(EXPLAIN_FORMATS, EXPLAIN_FORMAT_INFO), explainFormatOf), () => EXPLAIN_FORMATS))
    .option('--json', 'print JSON: each key with its value (durations in ms), as written, and where it comes from (file and line, option, preset)')
    .option('--out <file>', 'write it to a file instead of stdout')
    .action(async (file: string | undefined, opts: ExplainOptions) => {
      const { explainCommand, explainSettings } = await import('./explain.js');
      setCode(await explainCommand(file ?? null, explainSettings(opts), io));
    });
}
