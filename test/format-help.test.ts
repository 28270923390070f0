/**
 * `--help` names the formats of each command's registry (src/report/formats.ts), all of them
 * and no other: its words are made from the registry, so a format added there reaches the help
 * (the hand-written list in cli/main.ts went stale when csv was added to run).
 */
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { program } from '../src/cli/main.js';
import { RUN_FORMAT_INFO, RUN_FORMATS, SWEEP_FORMAT_INFO, SWEEP_FORMATS } from '../src/report/formats.js';

const cli: Command = program({ io: { stdout: new PassThrough(), stderr: new PassThrough(), env: {} }, signal: new AbortController().signal, setCode: () => {} });

/** Every name a format has or might be given: the registries' and a few a help text could list by hand. */
const NAMES = [...new Set([...Object.keys(RUN_FORMAT_INFO), ...Object.keys(SWEEP_FORMAT_INFO), 'markdown', 'md', 'xml', 'junit', 'yaml', 'tsv', 'png', 'text'])];

/** The format names `text` lists: the words of NAMES, but those in an option's name (`--json`). */
const named = (text: string) => NAMES.filter((n) => new RegExp(`(?<![-\\w])${n}(?![-\\w])`).test(text)).sort();

/** The description of `command`'s option `long`. */
function help(command: string, long: string): string {
  const option = cli.commands.find((c) => c.name() === command)?.options.find((o) => o.long === long);
  expect(option, `${command} ${long}`).toBeDefined();
  return option?.description ?? '';
}

describe('--format in --help', () => {
  it.each([
    ['run', RUN_FORMATS],
    ['sweep', SWEEP_FORMATS],
    ['merge', [...new Set([...RUN_FORMATS, ...SWEEP_FORMATS])]],
  ])('%s --format names exactly the formats of its registry', (command, formats) => {
    expect(named(help(command, '--format'))).toEqual([...formats].sort());
  });

  it('run --series names the formats that write the series', () => {
    expect(named(help('run', '--series'))).toEqual(RUN_FORMATS.filter((f) => 'seriesRows' in RUN_FORMAT_INFO[f]).sort());
  });

  it('says what each format with words of its own is', () => {
    for (const [command, info] of [['run', RUN_FORMAT_INFO], ['sweep', SWEEP_FORMAT_INFO]] as const) {
      for (const [name, words] of Object.entries(info)) if ('help' in words) expect(help(command, '--format')).toContain(`${name} (${words.help})`);
    }
  });
});
