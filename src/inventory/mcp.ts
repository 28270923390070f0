/**
 * What an MCP server says of its tools (the result of `tools/list`), read as untrusted input:
 * only the parts the skeleton keeps (a tool's name, description, hints and annotations.title), each checked, the
 * rest (input schemas, icons, a tool's own title) passed over unread. The same reader serves a saved
 * answer and each page a live server sends (remote/mcp-stdio.ts).
 */
import { HINTS, MAX_TITLE_CHARS, MAX_TOOLS, type Hint } from '../agent/shape.js';
import { printable } from '../scenario/printable.js';
import { formatPath } from '../scenario/document.js';
import { InputError, type Origin } from '../scenario/errors.js';
import { MAX_SERVER_NAME_CHARS } from './limits.js';

/** A tool as its server lists it: the hints it gives, each true or false; a hint left out is absent. */
export interface McpTool {
  readonly name: string;
  readonly description: string | undefined;
  readonly annotations: Readonly<Partial<Record<Hint, boolean>>>;
  /** annotations.title, made printable and clipped to what an agent file takes. */
  readonly title: string | undefined;
}

/** One answer to `tools/list`: its tools, and the cursor of the next page if there is one. */
export interface ToolsPage {
  readonly tools: readonly McpTool[];
  readonly nextCursor: string | undefined;
}

/** Where a list came from, for its errors: the file or the server, and what to do about a list that is not one. */
export interface ListSource {
  readonly origin: Origin;
  /** Prefixed to key paths: `page 2: ` for a server's later pages. */
  readonly at?: string;
  readonly fix: string;
}

type Raw = Record<string, unknown>;
const isMapping = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
/** What kind of value a thing is (never the value: a list's contents are not echoed). */
const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `a ${typeof v}`);

/**
 * The tools of `data`: `{tools: [...]}` as a server's result, or a whole JSON-RPC response
 * `{jsonrpc, id, result: {tools}}`. `before`: tools already read from earlier pages, counted
 * against MAX_TOOLS. Throws an InputError naming the key path of the first thing wrong.
 */
export function readToolsList(data: unknown, from: ListSource, before = 0): ToolsPage {
  const refuse = (path: (string | number)[], problem: string, fix = from.fix): never => {
    throw new InputError(from.origin, path.length === 0 ? '' : `${from.at ?? ''}${formatPath(path)}`, problem, fix);
  };
  if (!isMapping(data)) return refuse([], `is ${kindOf(data)}, not a tools/list result ({"tools": [...]})`);
  if (isMapping(data['error']) && data['tools'] === undefined) {
    return refuse(['error'], 'is a JSON-RPC error response: the server refused tools/list', 'List the tools again once the server answers tools/list with its tools.');
  }
  const result = data['tools'] === undefined && isMapping(data['result']) ? data['result'] : data;
  const path = result === data ? [] : ['result'];
  const tools = result['tools'];
  if (!Array.isArray(tools)) return refuse([...path, 'tools'], tools === undefined ? 'is missing' : `is ${kindOf(tools)}, not a list of tools`);
  if (before + tools.length > MAX_TOOLS) {
    refuse([...path, 'tools'], `lists ${(before + tools.length).toLocaleString('en-US')} tools${before > 0 ? ' with the earlier pages' : ''}, more than the ${MAX_TOOLS} an agent file holds`,
      `Save the server's tools/list answer to a file, keep only the tools your agent calls, and run idem-sim inventory on that file.`);
  }
  const cursor = result['nextCursor'];
  if (cursor !== undefined && typeof cursor !== 'string') refuse([...path, 'nextCursor'], `is ${kindOf(cursor)}, not text`);
  return { tools: tools.map((t, i) => readTool(t, [...path, 'tools', i], refuse)), nextCursor: cursor === '' ? undefined : cursor as string | undefined };
}

/** One tool's name, description and hints, each of the kind MCP says. */
function readTool(t: unknown, path: (string | number)[], refuse: (path: (string | number)[], problem: string, fix?: string) => never): McpTool {
  if (!isMapping(t)) return refuse(path, `is ${kindOf(t)}, not a tool ({"name": ..., "annotations": {...}})`);
  const name = t['name'];
  if (typeof name !== 'string' || name === '') return refuse([...path, 'name'], name === undefined ? 'is missing' : name === '' ? 'is empty' : `is ${kindOf(name)}, not text`);
  if (name.length > MAX_SERVER_NAME_CHARS) {
    refuse([...path, 'name'], `is ${name.length.toLocaleString('en-US')} characters long, over the limit of ${MAX_SERVER_NAME_CHARS.toLocaleString('en-US')} (MCP advises at most 128)`,
      'Give the tool a short name on the server (MCP names are letters, digits, _, - and .), or leave it out of a saved list.');
  }
  const description = t['description'];
  if (description !== undefined && typeof description !== 'string') refuse([...path, 'description'], `is ${kindOf(description)}, not text`);
  const given = t['annotations'];
  if (given !== undefined && given !== null && !isMapping(given)) refuse([...path, 'annotations'], `is ${kindOf(given)}, not a mapping of hints`);
  const annotations: Partial<Record<Hint, boolean>> = {};
  for (const hint of HINTS) {
    const v = isMapping(given) ? given[hint] : undefined;
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') refuse([...path, 'annotations', hint], `is ${kindOf(v)}, expected true or false`);
    annotations[hint] = v as boolean;
  }
  const title = isMapping(given) ? given['title'] : undefined;
  if (title !== undefined && title !== null && typeof title !== 'string') refuse([...path, 'annotations', 'title'], `is ${kindOf(title)}, not text`);
  return { name, description: description as string | undefined, annotations, title: typeof title === 'string' ? titleOf(title) : undefined };
}

/** Half of a character written as two UTF-16 units, without its other half: no character at all. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A server's annotations.title as an agent file takes it: its unprintable characters escaped, a
 * lone surrogate as U+FFFD, at most MAX_TITLE_CHARS characters (code points: an emoji is one), a
 * blank one left out.
 */
function titleOf(title: string): string | undefined {
  if (title.trim() === '') return undefined;
  const chars = [...printable(title.replace(LONE_SURROGATE, '\uFFFD'))];
  return chars.length <= MAX_TITLE_CHARS ? chars.join('') : `${chars.slice(0, MAX_TITLE_CHARS - 3).join('')}...`;
}

/** Refuses a list that names a tool twice (MCP: a name is unique within its server): which of the two would the agent call? */
export function checkUnique(tools: readonly McpTool[], from: ListSource): void {
  const seen = new Set<string>();
  for (const [i, t] of tools.entries()) {
    if (seen.has(t.name)) {
      throw new InputError(from.origin, `${from.at ?? ''}tools[${i}].name`, 'names a tool that an earlier entry of the list names too (a tool name is unique within its server)', from.fix);
    }
    seen.add(t.name);
  }
}
