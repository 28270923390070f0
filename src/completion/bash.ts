/**
 * The bash completion script (bash 4 and later, with or without the bash-completion package):
 * one case branch per subcommand, offering its options, the values of the one just typed, and
 * its arguments. Works for `--option value` and `--option=value`.
 */
import { spellings, type CommandSpec, type Completion, type CompletionSpec, type OptionSpec } from './spec.js';

/** `text` as one single-quoted bash word. */
const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The function name: letters, digits and underscores only. */
const functionName = (program: string): string => `_${program.replace(/\W/g, '_')}`;

/** The statement that fills COMPREPLY for a word of this kind; `commands` are the subcommands' names. */
function reply(c: Completion, fn: string, commands: readonly string[]): string {
  switch (c.kind) {
    case 'none': return ':';
    case 'file': return `${fn}_files ''`;
    case 'scenario': return `${fn}_files yaml yml json`;
    case 'choices': return `COMPREPLY=($(compgen -W ${quote(c.values.join(' '))} -- "$cur"))`;
    case 'command': return `COMPREPLY=($(compgen -W ${quote(commands.join(' '))} -- "$cur"))`;
  }
}

/** The branch of one command (or of the program, before a subcommand): values first, then options or arguments. */
function branch(options: readonly OptionSpec[], words: Completion, fn: string, commands: readonly string[]): string[] {
  // The options whose values complete alike share a pattern: `--actions|--seed) :; return ;;`.
  const byReply = new Map<string, string[]>();
  for (const o of options.filter((v) => v.takesValue)) {
    const r = reply(o.value, fn, commands);
    byReply.set(r, [...(byReply.get(r) ?? []), ...spellings(o)]);
  }
  const lines = byReply.size === 0 ? [] : [
    '      case $prev in',
    ...[...byReply].map(([r, names]) => `        ${names.join('|')}) ${r}; return ;;`),
    '      esac',
  ];
  return [
    ...lines,
    '      if [[ $cur == -* ]]; then',
    `        COMPREPLY=($(compgen -W ${quote(options.flatMap(spellings).join(' '))} -- "$cur"))`,
    '      else',
    `        ${reply(words, fn, commands)}`,
    '      fi',
  ];
}

export function bashScript(spec: CompletionSpec): string {
  const fn = functionName(spec.program);
  const names = spec.commands.map((c) => c.name);
  const commandBranch = (c: CommandSpec): string[] => {
    const args: Completion = c.arguments[0]?.value ?? { kind: 'none' };
    return [`    ${c.name})`, ...branch(c.options, args, fn, names), '      ;;'];
  };
  return `# bash completion for ${spec.program} ${spec.version}, made by \`${spec.program} completion bash\`.
# Install: ${spec.program} completion bash > ~/.local/share/bash-completion/completions/${spec.program}
# (or add  eval "$(${spec.program} completion bash)"  to ~/.bashrc). See docs/command-line.md, Shell completion.

# Files for the word being completed: those ending in one of the extensions given (any file
# when the first is ''), and directories to go into.
${fn}_files() {
  local IFS=$'\\n' ext
  compopt -o filenames 2>/dev/null
  if [[ $1 == '' ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -d -- "$cur"))
  for ext in "$@"; do
    COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur"))
  done
}

${fn}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} command= i
  # bash splits --option=value at the =: complete the value of --option.
  if [[ $cur == = ]]; then
    cur=
  elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
    prev=\${COMP_WORDS[COMP_CWORD-2]}
  fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    case \${COMP_WORDS[i]} in
      -*) ;;
      *) command=\${COMP_WORDS[i]}; break ;;
    esac
  done
  case $command in
    '')
${branch(spec.options, { kind: 'command' }, fn, names).join('\n')}
      ;;
${spec.commands.flatMap(commandBranch).join('\n')}
  esac
}

complete -F ${fn} ${spec.program}
`;
}
