/**
 * `idem-sim inventory`: an agent file's skeleton (inventory/skeleton.ts) from an MCP server's
 * tools, read from a saved `tools/list` answer or asked of the server itself over stdio
 * (inventory-stdio.ts). The skeleton goes to standard output or --out, whole or not at all;
 * notes (renamed tools, what to fill in) go to standard error.
 */
import { MAX_LIST_BYTES, MAX_RENAMES_LISTED, MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../inventory/limits.js';
import { checkUnique, readToolsList, type McpTool } from '../inventory/mcp.js';
import { TOOL_NAME } from '../agent/names.js';
import { skeleton, type InventorySource, type Skeleton } from '../inventory/skeleton.js';
import { DURATION_PATTERN, durationSpellingHint, formatDuration, parseDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';
import { shellQuote } from '../scenario/shell-quote.js';
import { readUserFile } from './files.js';
import { warn, type Io } from './io.js';
import { withOutput } from './shared/output.js';

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
  const text = readUserFile(path, 'the tools list', '', undefined, 'the current directory', MAX_LIST_BYTES);
  const origin = { source: path };
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    // The parser's message quotes the text: only the place is kept (a data file is never echoed).
    const at = /position (\d+)/.exec((e as Error).message);
    const before = at ? text.slice(0, Number(at[1])).split('\n') : undefined;
    throw new InputError(before ? { ...origin, line: before.length, col: (before.at(-1)?.length ?? 0) + 1 } : origin, '', 'is not JSON',
      'Save the server\'s answer to tools/list as JSON: {"tools": [...]}, or the whole JSON-RPC response; or use --stdio to ask the server itself.');
  }
  const fix = 'Give the JSON of a tools/list answer: {"tools": [{"name": ..., "annotations": {...}}, ...]} or {"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}.';
  const page = readToolsList(data, { origin, fix });
  checkUnique(page.tools, { origin, fix });
  return { tools: page.tools, paged: page.nextCursor !== undefined };
}

/** The notes on standard error: what was written, and each tool whose name was rewritten. */
function notes(io: Io, sk: Skeleton, from: InventorySource, pagedFile: boolean): void {
  const shown = sk.renamed.slice(0, MAX_RENAMES_LISTED).map((r) => `"${clipped(printable(r.from), 80)}" as ${r.to}`);
  const more = sk.renamed.length - shown.length;
  if (sk.renamed.length > 0) {
    warn(io, `${sk.renamed.length} tool name${sk.renamed.length === 1 ? '' : 's'} rewritten, as an agent file's tool name is ${TOOL_NAME.description}: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}; the skeleton names the server's name beside each.`);
  }
  if (pagedFile) warn(io, `${printable(from.source)} has a nextCursor: it is one page of a longer list, and the tools of the other pages are missing. Ask the server itself with --stdio, or join the pages' tools into one list.`);
  const { destructive, 'side-effecting': additive, 'read-only': readOnly } = sk.kinds;
  const count = destructive + additive + readOnly;
  io.stderr.write(`idem-sim: inventory: ${count} tool${count === 1 ? '' : 's'}: ${destructive} destructive, ${additive} side-effecting and not destructive, ${readOnly} read-only. Fill in the lines marked "fill in:" (shares, keys, retention, costs, traffic) before trusting a run of it.\n`);
}

/** Options that do nothing without --stdio, and --stdio without a command. */
function checkArgs(inputs: readonly string[], opts: InventoryOptions, io: Io): void {
  if (opts.stdio) {
    if (inputs.length === 0) throw new InputError({ source: '--stdio' }, '', 'needs the command that starts the server', 'Write it after --: idem-sim inventory --stdio -- node server.js');
    return;
  }
  if (inputs.length !== 1) {
    throw new InputError({ source: 'inventory' }, '', inputs.length === 0 ? 'needs a tools list or a server' : 'reads one tools list file',
      'Give the JSON file of a tools/list answer (idem-sim inventory tools.json), or start the server: idem-sim inventory --stdio -- node server.js');
  }
  for (const [flag, given] of [['--timeout', opts.timeout !== undefined], ['--env', (opts.env ?? []).length > 0]] as const) {
    if (given) warn(io, `${flag} has no effect without --stdio (it applies to a server idem-sim starts); a tools list file is read as it is.`);
  }
}

export async function inventoryCommand(inputs: string[], opts: InventoryOptions, io: Io, signal: AbortSignal): Promise<number> {
  checkArgs(inputs, opts, io);
  const timeoutMs = timeoutOption(opts.timeout);
  const env = serverEnvironment(opts.env ?? [], io.env);
  return withOutput(io, opts.out, opts.stdio ? [] : inputs, async (out) => {
    let tools: readonly McpTool[];
    let from: InventorySource;
    let pagedFile = false;
    if (opts.stdio) {
      const { serverTools } = await import('./inventory-stdio.js');
      const got = await serverTools(inputs, env, signal, timeoutMs);
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
    notes(io, sk, from, pagedFile);
    return 0;
  });
}
