/**
 * `idem-sim inventory`'s pieces that are the inventory's own: a saved `tools/list` answer's text
 * read (mcp.ts reads the list), the arguments a run takes, and the notes said beside the skeleton
 * (renamed tools, a page of a longer list, what to fill in). Pure: the shell reads the file, asks
 * a server (remote/mcp-stdio.ts) and says the notes.
 */
import { TOOL_NAME } from '../agent/names.js';
import { InputError } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';
import { MAX_RENAMES_LISTED } from './limits.js';
import { checkUnique, readToolsList, type McpTool } from './mcp.js';
import type { InventorySource, Skeleton } from './skeleton.js';

/** The tools of a saved tools/list answer (`text`, the file `path`'s), and whether it is one page of several. */
export function savedTools(path: string, text: string): { tools: readonly McpTool[]; paged: boolean } {
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

/**
 * The arguments: with --stdio, the command that starts the server; else one tools list file.
 * The warnings of options that do nothing without --stdio.
 */
export function inventoryArguments(inputs: readonly string[], given: { stdio: boolean; timeout: boolean; env: boolean }): string[] {
  if (given.stdio) {
    if (inputs.length === 0) throw new InputError({ source: '--stdio' }, '', 'needs the command that starts the server', 'Write it after --: idem-sim inventory --stdio -- node server.js');
    return [];
  }
  if (inputs.length !== 1) {
    throw new InputError({ source: 'inventory' }, '', inputs.length === 0 ? 'needs a tools list or a server' : 'reads one tools list file',
      'Give the JSON file of a tools/list answer (idem-sim inventory tools.json), or start the server: idem-sim inventory --stdio -- node server.js');
  }
  return ([['--timeout', given.timeout], ['--env', given.env]] as const).filter(([, on]) => on)
    .map(([flag]) => `${flag} has no effect without --stdio (it applies to a server idem-sim starts); a tools list file is read as it is.`);
}

/** What is said beside the skeleton: warnings (each tool whose name was rewritten, a page of a longer list), then the counts and what to fill in. */
export function inventoryNotes(sk: Skeleton, from: InventorySource, pagedFile: boolean): { warnings: string[]; line: string } {
  const warnings: string[] = [];
  const shown = sk.renamed.slice(0, MAX_RENAMES_LISTED).map((r) => `"${clipped(printable(r.from), 80)}" as ${r.to}`);
  const more = sk.renamed.length - shown.length;
  if (sk.renamed.length > 0) {
    warnings.push(`${sk.renamed.length} tool name${sk.renamed.length === 1 ? '' : 's'} rewritten, as an agent file's tool name is ${TOOL_NAME.description}: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}; the skeleton names the server's name beside each.`);
  }
  if (pagedFile) warnings.push(`${printable(from.source)} has a nextCursor: it is one page of a longer list, and the tools of the other pages are missing. Ask the server itself with --stdio, or join the pages' tools into one list.`);
  const { destructive, 'side-effecting': additive, 'read-only': readOnly } = sk.kinds;
  const count = destructive + additive + readOnly;
  const line = `idem-sim: inventory: ${count} tool${count === 1 ? '' : 's'}: ${destructive} destructive, ${additive} side-effecting and not destructive, ${readOnly} read-only. Fill in the lines marked "fill in:" (shares, keys, retention, costs, traffic) before trusting a run of it.\n`;
  return { warnings, line };
}
