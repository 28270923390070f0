/**
 * A server's names as an agent file's names (agent/shape.ts): MCP allows tool names an agent
 * file does not (dots, which expect: paths use as separators; names past its length), and a
 * server may send anything. Such a name is rewritten, and the skeleton and a warning say so.
 */
import { AGENT_SHAPE } from '../agent/shape.js';
import { FORBIDDEN_KEYS } from '../model/params.js';
import { MAX_SERVER_NAME_CHARS } from './limits.js';

/** The agent file's forms of a tool's and of the agent's name, from its declaration. */
const TOOL_NAME = AGENT_SHAPE.params.tools.of.params.name;
const AGENT_NAME = AGENT_SHAPE.params.agent.params.name;
export const TOOL_NAME_FORM = TOOL_NAME.description;
const form = (pattern: string | undefined) => new RegExp(pattern ?? '^$');
export const VALID_TOOL_NAME = form(TOOL_NAME.pattern);
export const VALID_AGENT_NAME = form(AGENT_NAME.pattern);

/**
 * `name` in the form `valid` takes, none of `taken`: each character outside letters, digits, _
 * and - written `_`, then cut to the longest the form takes, then `_2`, `_3`... until it is free.
 */
export function fitName(name: string, valid: RegExp, taken: ReadonlySet<string> = new Set()): string {
  if (valid.test(name) && !taken.has(name)) return name;
  // Only the start of a name survives the cut: a server's megabyte of name costs no more than 1,024 characters.
  let base = [...name.slice(0, MAX_SERVER_NAME_CHARS)].map((c) => (/^[A-Za-z0-9_-]$/.test(c) ? c : '_')).join('');
  if (!/^[A-Za-z0-9_]/.test(base)) base = `_${base}`;
  if (FORBIDDEN_KEYS.includes(base)) base = `${base}_tool`;
  // One of taken.size + 1 distinct candidates is free.
  for (let k = 1; k <= taken.size + 1; k++) {
    const suffix = k === 1 ? '' : `_${k}`;
    let candidate = `${base}${suffix}`;
    // Cut until the form takes it: its length is the form's, not a copy of it here.
    while (!valid.test(candidate) && candidate.length > suffix.length + 1) candidate = `${candidate.slice(0, candidate.length - suffix.length - 1)}${suffix}`;
    if (valid.test(candidate) && !taken.has(candidate)) return candidate;
  }
  throw new Error(`inventory/names.ts: no name of the form ${valid.source} for a name of ${name.length} characters`);
}
