/**
 * An MCP server's tools as the skeleton of an agent file (docs/inventory.md): one entry per tool
 * with its hints as the server gave them, side-effecting tools first (destructive before the
 * others) and read-only ones last, every value only the user knows marked `# fill in:` and set
 * to a placeholder that keeps the file valid: equal shares summing to 1, no key (scope none),
 * no cost. Text from the server (names, descriptions) reaches the file only made printable and
 * clipped, in comments or quoted.
 */
import { AGENT_NAME, fitName, TOOL_NAME } from '../agent/names.js';
import { ANNOTATIONS, HINTS, RESERVED_TOOL_NAMES } from '../agent/shape.js';
import { SCOPES } from '../model/enums.js';
import { clipped, printable } from '../scenario/printable.js';
import { MAX_DESCRIPTION_CHARS } from './limits.js';
import type { McpTool } from './mcp.js';

/** Where the tools came from, for the file's header. */
export interface InventorySource {
  /** The file, or the server's command line, as the user gave it. */
  readonly source: string;
  /** The server's own name and version (initialize's serverInfo), when it was asked. */
  readonly server?: { readonly name: string; readonly version: string | undefined };
}

/** A tool whose name the agent file does not take as it is, and the name it was given. */
export interface Renamed {
  readonly from: string;
  readonly to: string;
}

export interface Skeleton {
  readonly text: string;
  readonly renamed: readonly Renamed[];
  /** Tools by kind, in the file's order: side-effecting destructive, side-effecting not destructive, read-only. */
  readonly kinds: Readonly<Record<Kind, number>>;
}

export const KINDS = ['destructive', 'side-effecting', 'read-only'] as const;
export type Kind = (typeof KINDS)[number];
const KIND_HEADING: Readonly<Record<Kind, string>> = {
  destructive: 'Side-effecting and destructive (readOnlyHint false; destructiveHint true, or left out)',
  'side-effecting': 'Side-effecting, not destructive (destructiveHint false): additive changes',
  'read-only': 'Read-only (readOnlyHint true): a repeat changes nothing, by the server\'s word',
};

/** A hint's value: the server's, else the MCP specification's default (agent/shape.ts). */
const hint = (t: McpTool, h: (typeof HINTS)[number]): boolean => t.annotations[h] ?? ANNOTATIONS.params[h].default;

/** The kind a tool's hints make it (destructiveHint means something only when not read-only). */
export function kindOf(t: McpTool): Kind {
  return hint(t, 'readOnlyHint') ? 'read-only' : hint(t, 'destructiveHint') ? 'destructive' : 'side-effecting';
}

/** `tools` in the file's order: by kind, and in the server's order within a kind. */
export function ordered(tools: readonly McpTool[]): McpTool[] {
  return KINDS.flatMap((k) => tools.filter((t) => kindOf(t) === k));
}

/**
 * `n` equal shares that sum to 1 exactly as written: decimals with two more digits than `n`
 * has, the units left over by the division given one each to the first tools.
 */
export function equalShares(n: number): string[] {
  const digits = String(n).length + 2;
  const whole = 10 ** digits;
  const each = Math.floor(whole / n);
  return Array.from({ length: n }, (_, i) => (each + (i < whole - each * n ? 1 : 0)) / whole).map((s) => String(Number(s.toFixed(digits))));
}

/** Text from the server on one line of a comment: whitespace runs as one space, unprintable characters escaped, at most `max` characters. */
export function commentText(text: string, max = MAX_DESCRIPTION_CHARS): string {
  let out = '';
  for (const c of text.replace(/\s+/gu, ' ').trim()) {
    const shown = printable(c);
    if (out.length + shown.length > max - 3) return `${out}...`;
    out += shown;
  }
  return out;
}

/** A string as a YAML scalar: plain when it is a plain name YAML reads as text, else double-quoted (JSON's escapes are YAML's). */
const scalar = (s: string): string => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(s) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(s) ? s : JSON.stringify(s));

/** The header: where the tools came from, and how to read the file. */
function header(from: InventorySource, count: number): string[] {
  const server = from.server ? `the server ${commentText(from.server.name, 80)}${from.server.version ? ` ${commentText(from.server.version, 40)}` : ''}` : 'a tools/list answer';
  return [
    `# An agent file written by idem-sim inventory: the ${count} tool${count === 1 ? '' : 's'} of ${server},`,
    `# from ${commentText(clipped(from.source, 200), 220)}.`,
    '# Each "fill in:" marks a value only you know. Until then the file runs on placeholders that',
    '# model nothing of yours: equal shares, no idempotency key (scope none), no cost.',
    '# The annotations are the server\'s own hints, copied as given (a hint left out takes the',
    '# MCP specification\'s default, said beside it); MCP clients must not trust the hints of a',
    '# server they do not trust. See docs/inventory.md.',
  ];
}

/** The agent's own keys: its name (the server's, when it fits), its traffic and its retries. */
function agentLines(from: InventorySource): string[] {
  const name = from.server ? fitName(from.server.name, AGENT_NAME) : undefined;
  return [
    ...(from.server ? [`description: ${JSON.stringify(`the tools of ${commentText(from.server.name, 80)} (idem-sim inventory)`)}`] : []),
    'agent:',
    ...(name === undefined ? [] : [`  name: ${scalar(name)}${name === from.server?.name ? '' : '  # the server\'s name, rewritten to the form an agent\'s name takes'}`]),
    '  calls_per_s: 1  # fill in: tool calls a second across all tools (or conversations_per_s with calls_per_conversation)',
    '  auto_retry: all  # fill in: which tools your client retries itself: all, idempotent (those marked idempotentHint or readOnlyHint) or none',
  ];
}

/** One tool's entry. */
function toolLines(t: McpTool, name: string, share: string): string[] {
  const hints = HINTS.map((h) => (t.annotations[h] === undefined
    ? `      # ${h}: left out by the server; MCP's default is ${ANNOTATIONS.params[h].default}`
    : `      ${h}: ${t.annotations[h]}`));
  const scopes = SCOPES.join(', ');
  return [
    `  - name: ${scalar(name)}`,
    ...(name === t.name ? [] : [`    # renamed: the server calls it ${commentText(JSON.stringify(t.name), 120)}, a name an agent file's tools cannot have`]),
    ...(t.description ? [`    # ${commentText(t.description)}`] : []),
    `    share: ${share}  # fill in: this tool's share of the agent's tool calls (the shares sum to 1; this is an equal share)`,
    ...(t.title !== undefined || HINTS.some((h) => t.annotations[h] !== undefined)
      ? ['    annotations:', ...(t.title === undefined ? [] : [`      title: ${JSON.stringify(t.title)}`]), ...hints]
      : [`    annotations: {}  # the server gave no hints; MCP's defaults: ${HINTS.map((h) => `${h} ${ANNOTATIONS.params[h].default}`).join(', ')}`]),
    '    cost:',
    '      duplicate: none  # fill in: what one duplicate costs: {amount: 40, currency: USD}, or {amount: 1, unit: ticket}',
    '      lost: none  # fill in: what one lost action costs, in the same way',
    '    scenario:',
    '      idempotency:',
    `        scope: none  # fill in: the idempotency key this tool accepts today (${scopes})`,
    '        # retention: 24h  # fill in: how long the server keeps a key, with a scope other than none',
  ];
}

/** The skeleton of `tools` (as read and checked by mcp.ts: unique names, at most an agent file's tools). */
export function skeleton(tools: readonly McpTool[], from: InventorySource): Skeleton {
  const order = ordered(tools);
  const shares = equalShares(order.length);
  const fits = (n: string) => TOOL_NAME.pattern.test(n) && !RESERVED_TOOL_NAMES.includes(n);
  const taken = new Set([...RESERVED_TOOL_NAMES, ...order.map((t) => t.name).filter(fits)]);
  const renamed: Renamed[] = [];
  const kinds: Record<Kind, number> = { destructive: 0, 'side-effecting': 0, 'read-only': 0 };
  const entries = order.flatMap((t, i) => {
    const kind = kindOf(t);
    const first = kinds[kind]++ === 0;
    let name = t.name;
    if (!fits(name)) {
      name = fitName(t.name, TOOL_NAME, taken);
      taken.add(name);
      renamed.push({ from: t.name, to: name });
    }
    return [...(first ? [`  # ${KIND_HEADING[kind]}`] : []), ...toolLines(t, name, shares[i] as string)];
  });
  const text = [...header(from, order.length), ...agentLines(from), 'tools:', ...entries, ''].join('\n');
  return { text, renamed, kinds };
}
