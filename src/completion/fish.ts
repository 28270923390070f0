/**
 * The fish completion script: one `complete` line per subcommand and per option, each option
 * offered once its subcommand is on the line, with its description and values.
 */
import type { Completion, CompletionSpec, OptionSpec } from './spec.js';

/** `text` as one single-quoted fish word (fish escapes \ and ' inside single quotes). */
const quote = (text: string): string => `'${text.replace(/[\\']/g, '\\$&').replace(/\s+/g, ' ')}'`;

/** The flags that say what a word of this kind takes: -x no files (with -a its values), -F files. */
function values(c: Completion, commands: readonly string[]): string {
  switch (c.kind) {
    case 'none': return '-x';
    case 'file': return '-r -F';
    case 'scenario': return '-r -F';
    case 'choices': return `-x -a ${quote(c.values.join(' '))}`;
    case 'command': return `-x -a ${quote(commands.join(' '))}`;
  }
}

/** What an argument is completed with: files (forced, over the -f of the whole command), or its values. */
function argumentValues(c: Completion, commands: readonly string[]): string | undefined {
  if (c.kind === 'file' || c.kind === 'scenario') return '-F';
  return c.kind === 'none' ? undefined : values(c, commands).replace(/^-x /, '');
}

function optionLine(head: string, o: OptionSpec, commands: readonly string[]): string {
  const names = [o.short ? `-s ${o.short.slice(1)}` : '', o.long ? `-l ${o.long.slice(2)}` : ''].filter(Boolean).join(' ');
  return `${head} ${names}${o.takesValue ? ` ${values(o.value, commands)}` : ''} -d ${quote(o.description)}`;
}

export function fishScript(spec: CompletionSpec): string {
  const c = `complete -c ${spec.program}`;
  const names = spec.commands.map((cmd) => cmd.name);
  const top = `${c} -n __fish_use_subcommand`;
  const lines = [
    `${c} -f`,
    ...spec.options.map((o) => optionLine(top, o, names)),
    ...spec.commands.map((cmd) => `${top} -a ${cmd.name} -d ${quote(cmd.description)}`),
    ...spec.commands.flatMap((cmd) => {
      const head = `${c} -n ${quote(`__fish_seen_subcommand_from ${cmd.name}`)}`;
      const arg = cmd.arguments[0] && argumentValues(cmd.arguments[0].value, names);
      return [...cmd.options.map((o) => optionLine(head, o, names)), ...(arg ? [`${head} ${arg}`] : [])];
    }),
  ];
  return `# fish completion for ${spec.program} ${spec.version}, made by \`${spec.program} completion fish\`.
# Install: ${spec.program} completion fish > ~/.config/fish/completions/${spec.program}.fish
${lines.join('\n')}
`;
}
