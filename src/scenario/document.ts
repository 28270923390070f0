/**
 * YAML text (a scenario file or a `--set` value) to plain data, refusing what a scenario never
 * needs and what could crash or mislead the loader: documents too large or too deeply nested
 * for the parser, tags (`!!omap`, `!!set`, `!!binary`, `!foo`: the core schema would read them
 * as something else, or drop them), aliases that refer to themselves or expand without bound,
 * keys that are not plain scalars, keys given twice, and keys that name a JavaScript object's
 * internals (`__proto__`, `constructor`, `prototype`).
 */
import { createRequire } from 'node:module';
import type { Document, Node as YamlNode } from 'yaml';
import { FORBIDDEN_KEYS as FORBIDDEN_NAMES } from '../model/params.js';
import { InputError, type Origin } from './errors.js';
import { clipped } from './printable.js';

type Path = readonly (string | number)[];

/**
 * The yaml package, loaded when there is text to read: the built-in defaults (no file, no
 * --set) never need it, and loading it is a sizeable share of `idem-sim run`'s start-up.
 */
let yamlPackage: typeof import('yaml') | undefined;
export const yaml = (): typeof import('yaml') => (yamlPackage ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/**
 * Tokens (keys, values, and the `:`, `-`, `,`, `[` and `{` between them) a text may hold. A
 * scenario has a few hundred; composing a document costs about 1 KB of heap per token, so a
 * 4 MiB file of one-character keys (1.2 M tokens) ran a 512 MB heap out of memory.
 */
export const MAX_TOKENS = 100_000;
/** Levels of nested mappings and lists; a scenario needs 5 (a mixture inside a mixture, 7). */
export const MAX_DEPTH = 64;
/** How many times the values of aliases may be copied in (yaml's maxAliasCount, its default). */
export const MAX_ALIAS_COUNT = 100;
/** Key-path parts that would reach a JavaScript object's prototype instead of a key of its own. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(FORBIDDEN_NAMES);
/** The tags of YAML 1.2's core schema, which read a value as it would be read without them. */
const CORE_TAGS: ReadonlySet<string> = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

/** Lexer tokens that start a value or separate two (the rest are spaces, newlines and comments). */
const COUNTED = new Set(['scalar', 'single-quoted-scalar', 'double-quoted-scalar', 'block-scalar-header', 'alias', 'anchor', 'tag',
  'seq-item-ind', 'explicit-key-ind', 'map-value-ind', 'comma', 'flow-map-start', 'flow-seq-start']);
/** Tokens the lexer adds that are not in the text (doc-mode, flow-error-end, scalar). */
const SYNTHETIC = /^[\x02\x18\x1f]$/;

/** Where the text came from: the file (positions in it), or an option (`--set a.b=...`, at key `prefix`). */
export interface TextSource {
  source: string;
  /** The key path the text's root sits at (the --set path), for messages. */
  prefix?: Path;
  /** Reports offsets of the text as line and column; leave out for an option's value. */
  lines?: boolean;
}

/** 1-based line and column of an offset. */
function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1, start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) { line++; start = i + 1; }
  return { line, col: offset - start + 1 };
}

function origin(text: string, from: TextSource, offset: number | undefined): Origin {
  return from.lines && offset !== undefined ? { source: from.source, ...lineCol(text, offset) } : { source: from.source };
}

/** A key path for people (`a.b[2].c`). */
export function formatPath(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/**
 * The part of a key path (as parts, or written as `a.b[0].c`) that is forbidden, if any.
 * `idem-sim run --set __proto__.actions=7` once set the number of actions through the prototype.
 */
export function forbiddenPart(path: Path | string): string | undefined {
  const parts = typeof path === 'string' ? path.split(/[.[\]]/).map((p) => p.trim()) : path.map(String);
  return parts.find((p) => FORBIDDEN_KEYS.has(p));
}

/** Refuses a key path that names `__proto__`, `constructor` or `prototype`. */
export function checkKeyPath(path: Path | string, where: Origin, keyPath = typeof path === 'string' ? path : formatPath(path)): void {
  const bad = forbiddenPart(path);
  if (bad !== undefined) {
    throw new InputError(where, keyPath, `"${bad}" cannot be used as a key (it names a JavaScript object's internals, not a setting)`,
      'Use the keys listed by `idem-sim schema`, such as client.timeout.');
  }
}

/**
 * What the files of one `extends:` chain may still hold together (scenario/extends.ts): every
 * file read stays in memory for its line numbers, so the chain shares one file's allowance.
 */
export interface TokenBudget { left: number }

/**
 * Counts tokens and flow nesting before the text is parsed, so that neither a huge number of
 * values nor 100,000 `[` reaches the parser (which allocates per token and recurses per level).
 * With a `budget` (a file of a chain), the text is counted whatever its length and its tokens
 * are taken from what the chain has left.
 */
export function checkSize(text: string, from: TextSource, budget?: TokenBudget): void {
  // A shorter text has fewer tokens (each takes a character, an empty value two at most), and
  // its nesting the parser survives (past about 800 levels it reports an error, which parse.ts
  // words as tooDeep) and checkTree refuses. Lexing costs a quarter of parsing a small file.
  if (budget === undefined && text.length <= MAX_TOKENS / 2) return;
  const limit = budget?.left ?? MAX_TOKENS;
  const { CST, Lexer } = yaml();
  let tokens = 0, depth = 0, offset = 0;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === 'flow-map-start' || type === 'flow-seq-start') depth++;
    else if (type === 'flow-map-end' || type === 'flow-seq-end') depth--;
    if (depth > MAX_DEPTH) throw tooDeep(origin(text, from, offset), from);
    if (type !== null && COUNTED.has(type) && ++tokens > limit) {
      throw new InputError(origin(text, from, offset), '', budget
        ? `is too large for a scenario: with the files before it in its chain of extends:, more than ${MAX_TOKENS.toLocaleString('en-US')} keys, values and separators (a scenario has a few hundred)`
        : `is too large for a scenario: more than ${MAX_TOKENS.toLocaleString('en-US')} keys, values and separators (a scenario has a few hundred)`,
      'Check that this is the scenario you meant; put observed latencies in an empirical file (dist: empirical) instead of the scenario.');
    }
    if (!SYNTHETIC.test(token)) offset += token.length;
  }
  if (budget) budget.left -= tokens;
}

export function tooDeep(at: Origin, from: TextSource, path: Path = []): InputError {
  const full = [...(from.prefix ?? []), ...path];
  return new InputError(at, formatPath(full), `nests mappings and lists more than ${MAX_DEPTH} levels deep`,
    'A scenario needs a handful of levels; write the value flatter.');
}

/**
 * Tags, aliases, keys and depth of a parsed document (see the module's comment). Returns the
 * offset of its first alias, if any: where an alias expansion that is too large is reported.
 */
export function checkTree(doc: Document, text: string, from: TextSource): number | undefined {
  const { isAlias, isCollection, isMap, isScalar, isSeq } = yaml();
  // A %YAML 1.1 directive would switch the file to 1.1's rules (010 is 8, 1:30 is 90, on is true, << merges keys).
  if (doc.directives?.yaml.version !== '1.2') {
    throw new InputError(origin(text, from, Math.max(0, text.indexOf('%YAML'))), formatPath(from.prefix ?? []), `the %YAML ${doc.directives?.yaml.version ?? ''} directive asks for another YAML than 1.2, which scenarios are read as (it would read 010 as 8, 1:30 as 90 and on as true)`,
      'Remove the %YAML line (and the --- after it, if nothing else needs it).');
  }
  let firstAlias: number | undefined;
  const fail = (node: YamlNode | null | undefined, path: Path, problem: string, fix: string): InputError =>
    new InputError(origin(text, from, node?.range?.[0]), formatPath([...(from.prefix ?? []), ...path]), problem, fix);
  const tag = (node: YamlNode, path: Path): void => {
    if (node.tag !== undefined && !CORE_TAGS.has(node.tag)) {
      throw fail(node, path, `the YAML tag ${node.tag.replace(/^tag:yaml\.org,2002:/, '!!')} is not supported in a scenario (it would be read as something else)`,
        'Remove the tag, and write the value as a plain mapping, list or scalar (quote a string that starts with !).');
    }
  };
  const walk = (node: YamlNode | null, path: Path, ancestors: readonly YamlNode[]): void => {
    if (node === null) return;
    if (isCollection(node) && ancestors.length >= MAX_DEPTH) throw tooDeep(origin(text, from, node.range?.[0]), from, path);
    if (isAlias(node)) {
      firstAlias ??= node.range?.[0];
      const target = node.resolve(doc);
      const name = clipped(node.source, 60);
      if (!target) throw fail(node, path, `the alias *${name} has no anchor &${name} before it`, `Define &${name} before using *${name}, or write the value out.`);
      if (ancestors.includes(target as YamlNode)) {
        throw fail(node, path, `the alias *${node.source} is inside the value it refers to, so that value would contain itself without end`,
          'Write the value out instead of the alias.');
      }
      return;
    }
    tag(node, path);
    if (isMap(node)) {
      const seen = new Map<string, YamlNode>();
      for (const pair of node.items) {
        const key = pair.key as YamlNode | null;
        if (!isScalar(key) || key.value === null || typeof key.value === 'object') {
          throw fail(key ?? (pair.value as YamlNode | null), path, 'a key is not a plain word (a YAML alias, list, mapping or empty key)', 'Write each key as a plain word such as timeout.');
        }
        tag(key, path);
        const name = String(key.value);
        if (FORBIDDEN_KEYS.has(name)) checkKeyPath([...(from.prefix ?? []), ...path, name], origin(text, from, key.range?.[0]));
        if (seen.has(name)) {
          const first = seen.get(name)?.range?.[0];
          throw fail(key, [...path, name], `the key "${name}" is given twice${from.lines && first !== undefined ? ` (first at line ${lineCol(text, first).line})` : ''}`,
            'Keep one of them.');
        }
        seen.set(name, key);
        walk(pair.value as YamlNode | null, [...path, name], [...ancestors, node]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item as YamlNode | null, [...path, i], [...ancestors, node]));
    }
  };
  walk(doc.contents as YamlNode | null, [], []);
  return firstAlias;
}

/**
 * The document as fresh plain objects and arrays. yaml's toJS gives every use of an alias the
 * same object, so a `--set` into one place would change the other; the copy also stops at
 * MAX_TOKENS values after aliases are expanded.
 */
export function toPlain(doc: Document, text: string, from: TextSource, aliasAt: number | undefined): unknown {
  let js: unknown;
  const at = origin(text, from, aliasAt);
  const expands = (): InputError => new InputError(at, formatPath(from.prefix ?? []),
    `cannot be read: its YAML aliases (*name) expand to more than ${MAX_ALIAS_COUNT} copies or ${MAX_TOKENS.toLocaleString('en-US')} values`,
    'Write the scenario with fewer aliases: a scenario is small enough to write out.');
  try {
    js = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    if (e instanceof ReferenceError || e instanceof RangeError) throw expands();
    throw e;
  }
  let budget = MAX_TOKENS;
  const copy = (v: unknown, depth: number): unknown => {
    if (--budget < 0) throw expands();
    if (typeof v !== 'object' || v === null) return v;
    // checkTree bounds the text's nesting; an alias copies a nested value in deeper still.
    if (depth >= MAX_DEPTH) throw tooDeep(at, from);
    if (Array.isArray(v)) return v.map((x) => copy(x, depth + 1));
    // fromEntries defines keys (it never calls a __proto__ setter), and checkTree refused such keys.
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x, depth + 1)]));
  };
  return copy(js, 0);
}

/** Parses, checks and converts a `--set` value (the file goes through the same steps in parse.ts). */
export function readValue(text: string, from: TextSource): { ok: true; value: unknown } | { ok: false } {
  checkSize(text, from);
  const doc = yaml().parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) {
    if (doc.errors.some((e) => /call stack/i.test(e.message))) throw tooDeep({ source: from.source }, from);
    return { ok: false };
  }
  const aliasAt = checkTree(doc, text, from);
  return { ok: true, value: toPlain(doc, text, from, aliasAt) };
}

/** The value at a key path of plain data (own keys only), or undefined. */
export function valueAt(raw: unknown, path: readonly (string | number)[]): unknown {
  let cur = raw;
  for (const k of path) cur = typeof cur === 'object' && cur !== null && Object.hasOwn(cur, k) ? (cur as Record<string | number, unknown>)[k] : undefined;
  return cur;
}
