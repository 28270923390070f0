/**
 * `idem-sim inventory`: an agent file's skeleton (inventory/skeleton.ts) from an MCP server's
 * tools, read from a saved `tools/list` answer or asked of the server itself over stdio
 * (remote/mcp-stdio.ts). The skeleton goes to standard output or --out, whole or not at all;
 * notes (renamed tools, what to fill in) go to standard error.
 */
import { MAX_LIST_BYTES, MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../inventory/limits.js';
import type { McpTool } from '../inventory/mcp.js';
import { inventoryArguments, inventoryNotes, savedTools } from '../inventory/saved-list.js';
import { skeleton, type InventorySource } from '../inventory/skeleton.js';
import { DURATION_PATTERN, durationSpellingHint, formatDuration, parseDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';
import { shellQuote } from '../scenario/shell-quote.js';
import { readUserFile } from '../io/files.js';
import { toolVersion, warn, type Io } from '../io/streams.js';
import { withOutput } from '../io/output.js';

export interface InventoryOptions {
  stdio?: boolean;
  timeout?: string;
  env?: string[];
  out?: string;
}

/** `--timeout`: a duration with its unit, above 0 and at most MAX_TIMEOUT_MS. */
export function timeoutOption(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_MS;
  const refuse = (problem: string, fix: string): never => { throw new InputError({ source: `--timeout ${clipped(text, 80)}` }, '', problem, fix); };
  if (!new RegExp(DURATION_PATTERN).test(text)) return refuse(`"${clipped(text, 80)}" is not a duration`, durationSpellingHint(text) || 'Write it with its unit, such as 10s, 30s or 2m.');
  const ms = parseDuration(text);
  if (ms <= 0 || ms > MAX_TIMEOUT_MS) return refuse(`must be above 0 and at most ${formatDuration(MAX_TIMEOUT_MS)}`, 'Give the server the time it needs to start and list its tools, such as 30s.');
  return ms;
}

/**
 * `--env NAME` (its value from idem-sim's own environment) and `--env NAME=VALUE`: the variables
 * the server gets besides the SDK's safe default ones. A value on the command line is visible to
 * other users of the machine (ps); NAME alone is not.
 */
export function serverEnvironment(given: readonly string[], env: NodeJS.ProcessEnv): Record<string, string> {
  // The names are the user's words: `constructor` is no variable of the environment's prototype, `__proto__` a key like any other.
  const out = Object.create(null) as Record<string, string>;
  for (const item of given) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? item : item.slice(0, eq);
    const source = `--env ${clipped(printable(name), 80)}`;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new InputError({ source }, '', 'is not the name of an environment variable (letters, digits and _, not starting with a digit)', 'Write --env NAME to pass on a variable idem-sim has, or --env NAME=VALUE.');
    }
    const value = eq < 0 ? (Object.hasOwn(env, name) ? env[name] : undefined) : item.slice(eq + 1);
    if (value === undefined) throw new InputError({ source }, '', 'is not set in idem-sim\'s environment', `Set ${name} before running idem-sim, or give --env ${name}=VALUE.`);
    out[name] = value;
  }
  return out;
}

/** The tools of a saved tools/list answer (a JSON file of at most MAX_LIST_BYTES), and whether it is one page of several. */
export function fileTools(path: string): { tools: readonly McpTool[]; paged: boolean } {
  return savedTools(path, readUserFile(path, 'the tools list', '', undefined, 'the current directory', MAX_LIST_BYTES));
}

export async function inventoryCommand(inputs: string[], opts: InventoryOptions, io: Io, signal: AbortSignal): Promise<number> {
  for (const text of inventoryArguments(inputs, { stdio: opts.stdio === true, timeout: opts.timeout !== undefined, env: (opts.env ?? []).length > 0 })) warn(io, text);
  const timeoutMs = timeoutOption(opts.timeout);
  const env = serverEnvironment(opts.env ?? [], io.env);
  return withOutput(io, opts.out, opts.stdio ? [] : inputs, async (out) => {
    let tools: readonly McpTool[];
    let from: InventorySource;
    let pagedFile = false;
    if (opts.stdio) {
      const { serverTools } = await import('../remote/mcp-stdio.js');
      const got = await serverTools(inputs, env, signal, timeoutMs, toolVersion());
      tools = got.tools;
      from = { source: inputs.map(shellQuote).join(' '), ...(got.server ? { server: got.server } : {}) };
    } else {
      ({ tools, paged: pagedFile } = fileTools(inputs[0] as string));
      from = { source: inputs[0] as string };
    }
    if (tools.length === 0) {
      throw new InputError({ source: opts.stdio ? `the server \`${clipped(from.source, 200)}\`` : from.source }, '', 'lists no tools', 'An agent file needs at least one tool: give the tools of a server that offers some.');
    }
    const sk = skeleton(tools, from);
    out.write(sk.text);
    const notes = inventoryNotes(sk, from, pagedFile);
    for (const text of notes.warnings) warn(io, text);
    io.stderr.write(notes.line);
    return 0;
  });
}
