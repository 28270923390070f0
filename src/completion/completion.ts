/**
 * `idem-sim completion bash|zsh|fish`: a shell completion script, written from the commander
 * program itself (completion-spec.ts), so that it cannot fall behind the command line.
 */
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionSpec, type CompletionSpec } from './spec.js';
import { zshScript } from './zsh.js';
import type { Shell } from './shells.js';


const RENDER: Record<Shell, (spec: CompletionSpec) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

/** The completion script of `program` for `shell`. */
export async function completionScript(program: Command, shell: Shell): Promise<string> {
  return RENDER[shell](await completionSpec(program));
}
