/**
 * What a completion script completes, read from the commander program itself: the commands and
 * options commander's help shows, their values' choices and their arguments. The scripts of
 * each shell (completion-bash.ts, -zsh.ts, -fish.ts) are written from this alone, and so is
 * docs/command-line.md (report/command-line-doc.ts, by `npm run generate`).
 */
import type { Command, Help } from 'commander';
import type { DocArgument, DocCommand, DocCommandLine, DocOption } from '../report/command-line-doc.js';
import { choicesOf } from './choices.js';

/** What an option or an argument is completed with. */
export type Completion =
  | { kind: 'none' } // a flag, or a value with nothing to offer (a number, a URL)
  | { kind: 'file' } // any file
  | { kind: 'scenario' } // a scenario (or part) file: YAML or JSON
  | { kind: 'choices'; values: readonly string[] }
  | { kind: 'command' }; // a subcommand's name (`help COMMAND`)

/** An option as the help lists it (flags, description: report/command-line-doc.ts), and how it is completed. */
export interface OptionSpec extends DocOption {
  /** `--format`; undefined for a short-only flag. */
  readonly long: string | undefined;
  /** `-h`, if it has one. */
  readonly short: string | undefined;
  /** Whether it takes a value, and which. */
  readonly takesValue: boolean;
  /** The value's name in the help (`<format>` is `format`). */
  readonly valueName: string;
  readonly value: Completion;
  /** Given more than once (collected, as --set and --vary are). */
  readonly repeatable: boolean;
}

export interface ArgumentSpec extends DocArgument {
  readonly value: Completion;
}

export interface CommandSpec extends DocCommand {
  readonly options: readonly OptionSpec[];
  readonly arguments: readonly ArgumentSpec[];
}

/** The whole command line: the program's own options and its subcommands (as the docs read them), and its version. */
export interface CompletionSpec extends DocCommandLine {
  readonly version: string;
  readonly options: readonly OptionSpec[];
  readonly commands: readonly CommandSpec[];
}

/** An option's value: its choices if fixed, files for a `<file>` value, scenario files for a `<scenario>`, else nothing to offer. */
async function optionSpec(help: Help, option: Command['options'][number]): Promise<OptionSpec> {
  const takesValue = option.required || option.optional;
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? 'value';
  const choices = takesValue ? await choicesOf(option) : undefined;
  const value: Completion = !takesValue ? { kind: 'none' } : choices ? { kind: 'choices', values: choices }
    : valueName === 'file' ? { kind: 'file' } : valueName === 'scenario' ? { kind: 'scenario' } : { kind: 'none' };
  // A custom parser is what collects a repeated option (--set, --vary); the others keep their last value.
  return { flags: option.flags, long: option.long, short: option.short, description: help.optionDescription(option), takesValue, valueName, value, repeatable: option.parseArg !== undefined };
}

/** A command's arguments: their choices if fixed, subcommand names for `help`'s, any file for a `[file]`, scenario files otherwise. */
async function argumentSpecs(help: Help, cmd: Command, isHelp: boolean): Promise<ArgumentSpec[]> {
  return Promise.all(cmd.registeredArguments.map(async (arg): Promise<ArgumentSpec> => {
    const choices = await choicesOf(arg);
    const value: Completion = choices ? { kind: 'choices', values: choices } : isHelp ? { kind: 'command' } : arg.name() === 'file' ? { kind: 'file' } : { kind: 'scenario' };
    return { name: arg.name(), description: help.argumentDescription(arg), variadic: arg.variadic, value };
  }));
}

/** The spec of `program`: what commander's help lists (hidden options and commands stay hidden). */
export async function completionSpec(program: Command): Promise<CompletionSpec> {
  const help = program.createHelp();
  const optionsOf = (cmd: Command) => Promise.all(help.visibleOptions(cmd).map((o) => optionSpec(help, o)));
  const commands = await Promise.all(help.visibleCommands(program).map(async (cmd): Promise<CommandSpec> => ({
    name: cmd.name(),
    // commander's own `help` command has no parent, so its usage lacks the program's name.
    usage: cmd.parent ? help.commandUsage(cmd) : `${program.name()} ${help.commandUsage(cmd)}`,
    description: help.subcommandDescription(cmd),
    options: await optionsOf(cmd),
    arguments: await argumentSpecs(help, cmd, cmd.name() === 'help' && !program.commands.includes(cmd)),
  })));
  const own = { program: program.name(), version: program.version() ?? '', usage: help.commandUsage(program), description: help.commandDescription(program) };
  return { ...own, options: await optionsOf(program), commands };
}

/** An option's spellings, short first (`-h`, `--help`). */
export const spellings = (o: OptionSpec): string[] => [o.short, o.long].filter((s): s is string => s !== undefined);
