/**
 * The names an agent's outputs print: the agent's and its tools'. Every one is a name of the form
 * agent/shape.ts declares (letters, digits, _ and -, at most 64, not a key of an object's
 * prototype), whatever gave it: a name the agent file writes is refused otherwise (agent/read.ts),
 * and one that comes from elsewhere (the agent file's own name, an MCP server's names in
 * `inventory`) is rewritten to it here. So no name can carry a control character, a line break or
 * a workflow command into a table, a log, a CSV cell or a scenario's text, nor reach a
 * prototype where it is used as a key. Pure.
 */
import { FORBIDDEN_KEYS } from '../model/params.js';
import { AGENT_SHAPE } from './shape.js';

/** The form a name takes: the declaration's pattern and words, and what a name of it names. */
export interface NameForm {
  readonly pattern: RegExp;
  readonly description: string;
  /** Added after a name that is a prototype's key (`constructor_tool`). */
  readonly noun: string;
}

const formOf = (p: { readonly description: string; readonly pattern?: string }, noun: string): NameForm =>
  ({ pattern: new RegExp(p.pattern ?? '^$', 'u'), description: p.description, noun });

/** A tool's name and the agent's, as agent/shape.ts declares them. */
export const TOOL_NAME = formOf(AGENT_SHAPE.params.tools.of.params.name, 'tool');
export const AGENT_NAME = formOf(AGENT_SHAPE.params.agent.params.name, 'agent');

/** Only the start of a name is read: the form keeps 64 characters, and a megabyte of name costs no more than this many. */
const MAX_READ_CHARS = 1_024;

/**
 * `name` in `form`, none of `taken`: a letter's accents left out (é as e; the form's letters are
 * ASCII's, so a letter of another script has no form to keep), each character outside letters,
 * digits, _ and - written `_`, a name that would begin with `-` given a `_` first, a key of the
 * prototype given `_NOUN` after it, then cut to the longest the form takes, then `_2`, `_3`...
 * until it is free.
 */
export function fitName(name: string, form: NameForm, taken: ReadonlySet<string> = new Set()): string {
  const valid = form.pattern;
  if (valid.test(name) && !taken.has(name)) return name;
  // Decomposed (NFD), an accented letter is its base letter and a combining mark, which is dropped.
  const bare = name.slice(0, MAX_READ_CHARS).normalize('NFD').replace(/\p{M}/gu, '');
  let base = [...bare].map((c) => (/^[A-Za-z0-9_-]$/.test(c) ? c : '_')).join('');
  if (!/^[A-Za-z0-9_]/.test(base)) base = `_${base}`;
  if (FORBIDDEN_KEYS.includes(base)) base = `${base}_${form.noun}`;
  // One of taken.size + 1 distinct candidates is free.
  for (let k = 1; k <= taken.size + 1; k++) {
    const suffix = k === 1 ? '' : `_${k}`;
    let candidate = `${base}${suffix}`;
    // Cut until the form takes it: its length is the form's, not a copy of it here.
    while (!valid.test(candidate) && candidate.length > suffix.length + 1) candidate = `${candidate.slice(0, candidate.length - suffix.length - 1)}${suffix}`;
    if (valid.test(candidate) && !taken.has(candidate)) return candidate;
  }
  throw new Error(`agent/names.ts: no name of the form ${valid.source} for a name of ${name.length} characters`);
}

/**
 * The agent's name: `agent.name` as the file writes it (the reader checked it), else the file's
 * own name (`fileName`, its base name without the extension) in the form a name takes;
 * `rewritten` when that is not the file's name as it is.
 */
export function agentName(written: string | undefined, fileName: string): { name: string; rewritten: boolean } {
  if (written !== undefined) return { name: written, rewritten: false };
  const name = fitName(fileName, AGENT_NAME);
  return { name, rewritten: name !== fileName };
}
