/**
 * The zsh completion script: `_arguments` specs per subcommand, with each option's description,
 * its values and its arguments. Works autoloaded from a file `_idem-sim` in $fpath and sourced.
 */
import { spellings, type ArgumentSpec, type Completion, type CompletionSpec, type OptionSpec } from './spec.js';

/** `text` as one single-quoted zsh word. */
const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** Text inside an `_arguments` [description]: its brackets and backslashes escaped. */
const described = (text: string): string => text.replace(/[\\[\]]/g, '\\$&').replace(/\s+/g, ' ');

/** A message or value inside an `_arguments` spec, where a colon would end the field. */
const field = (text: string): string => text.replace(/[:\\]/g, '\\$&');

/** The action that completes a word of this kind; `commands` are the subcommands' names. */
function action(c: Completion, commands: readonly string[]): string {
  switch (c.kind) {
    case 'none': return ' ';
    case 'file': return '_files';
    case 'scenario': return '_files -g "*.(yaml|yml|json)(-.)"';
    case 'choices': return `(${c.values.map(field).join(' ')})`;
    case 'command': return `(${commands.join(' ')})`;
  }
}

/** One option's specs: both spellings share a description; `-h`/`-V` end completion as they end the command. */
function optionSpecs(o: OptionSpec, commands: readonly string[]): string[] {
  const names = spellings(o);
  const exclusive = o.long === '--help' || o.long === '--version' ? '(- *)' : o.repeatable ? '*' : `(${names.join(' ')})`;
  const value = o.takesValue ? `:${field(o.valueName)}:${action(o.value, commands)}` : '';
  return names.map((name) => quote(`${exclusive}${name}${o.takesValue && name.startsWith('--') ? '=' : ''}[${described(o.description)}]${value}`));
}

/** An argument's spec: `1:` for a single one, `*:` for the rest. */
const argumentSpec = (a: ArgumentSpec, k: number, commands: readonly string[]): string =>
  quote(`${a.variadic ? '*' : k + 1}:${field(a.name)}:${action(a.value, commands)}`);

export function zshScript(spec: CompletionSpec): string {
  const fn = `_${spec.program}`;
  const names = spec.commands.map((c) => c.name);
  const join = (specs: readonly string[], indent: string) => specs.map((s) => `${indent}${s}`).join(' \\\n');
  const describedCommands = spec.commands.map((c) => `    ${quote(`${field(c.name)}:${c.description.replace(/\s+/g, ' ')}`)}`).join('\n');
  const branches = spec.commands.map((c) => [
    `        ${c.name})`,
    '          _arguments -s \\',
    `${join([...c.options.flatMap((o) => optionSpecs(o, names)), ...c.arguments.map((a, k) => argumentSpec(a, k, names))], '            ')} && ret=0`,
    '          ;;',
  ].join('\n')).join('\n');
  return `#compdef ${spec.program}
# zsh completion for ${spec.program} ${spec.version}, made by \`${spec.program} completion zsh\`.
# Install: ${spec.program} completion zsh > ~/.zfunc/_${spec.program}, with fpath=(~/.zfunc $fpath)
# before compinit in ~/.zshrc (or add  source <(${spec.program} completion zsh)  after compinit).

${fn}() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  local -a commands=(
${describedCommands}
  )
  _arguments -C \\
${join([...spec.options.flatMap((o) => optionSpecs(o, names)), quote('1: :->command'), quote('*:: :->argument')], '    ')} && return 0
  case $state in
    command)
      _describe -t commands '${spec.program} command' commands && ret=0
      ;;
    argument)
      curcontext=\${curcontext%:*:*}:${spec.program}-$words[1]:
      case $words[1] in
${branches}
      esac
      ;;
  esac
  return $ret
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${spec.program}
fi
`;
}
