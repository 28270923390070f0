/**
 * Registers `check` on the program (one entry of main.ts's list): its options, --format and
 * --summary among them (read against report/check-formats.ts, which loads no reporter);
 * check.ts and its reporters load when it runs.
 */
import { Option, type Command } from 'commander';
import { CHECK_FORMAT_INFO, CHECK_FORMATS, type CheckFormat } from '../report/check-formats.js';
import { formatList } from '../report/formats.js';
import { withChoices } from '../completion/choices.js';
import type { Io } from '../io/streams.js';
import { oneOf } from './options.js';
import { parsedOption } from './settings/given.js';
import { simulationOptions } from './settings/simulation.js';
import type { CheckOptions } from './check.js';

/** `check --format NAME`: one of CHECK_FORMATS. */
export const checkFormatOf = (text: string): CheckFormat => oneOf('--format', text, CHECK_FORMATS) as CheckFormat; // oneOf checked it

/** `check`: test scenarios' expect: blocks (a CI gate). */
export function declareCheck(cmd: Command, { io, signal, setCode }: { io: Io; signal: AbortSignal; setCode: (code: number) => void }): void {
  simulationOptions(cmd.command('check')
    .description('run scenarios and test their expect: blocks; exit 1 if any expectation fails (a CI gate)')
    .argument('<scenario...>', 'scenario files with an expect: block'), false)
    .option('--junit <file>', 'also write JUnit XML for CI systems')
    .option('--json', 'print JSON: each expectation with its metric, threshold, estimate, 95% CI and result, and the errors of invalid files')
    .option('--out <file>', 'write the table to a file instead of stdout')
    .addOption(withChoices(parsedOption('--format <format>', formatList(CHECK_FORMATS, CHECK_FORMAT_INFO), checkFormatOf), () => CHECK_FORMATS))
    .addOption(new Option('--summary <file>', 'write a Markdown summary of the check there (--format github without it: appended to the file $GITHUB_STEP_SUMMARY names, when set)'))
    .action(async (files: string[], opts: CheckOptions) => {
      const { checkCommand, checkSettings } = await import('./check.js');
      setCode(await checkCommand(files, checkSettings(opts), io, signal));
    });
}
