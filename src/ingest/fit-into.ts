/**
 * `fit --into SCENARIO`: a scenario's text with `service.latency` set to the fitted value. Where
 * `service:` is a block mapping (or absent from a block of keys), only the latency's
 * lines are written (splice): every other byte stays as it was, comments and line endings too,
 * and so do the comments on the old latency as a whole, each on its line (the one on the
 * `latency:` line, those above a block's first key and after it); those on the old value's own
 * keys go with them. Elsewhere (a flow `service: {...}`, a flow document) the yaml package's
 * Document API writes the file, which keeps its comments but moves one on a block's `key:` line to
 * the next. A JSON scenario stays JSON. Pure: the shell reads the file, checks that it reads as a
 * scenario before and after (cli/fit.ts), and writes it whole.
 */
import { Document, isCollection, isMap, isNode, isScalar, isSeq, parseDocument, Parser, type Node, type Pair, type YAMLMap } from 'yaml';
import { InputError } from '../scenario/errors.js';

/** The scenario `text` (of the file `path`) with `value` as its service.latency. */
export function latencyInto(text: string, path: string, value: Readonly<Record<string, unknown>>): string {
  return /^\uFEFF?\s*\{/.test(text) ? intoJson(text, value) : intoYaml(text, path, value);
}

/** The line ending the file uses: CRLF where it has one, else LF. */
const lineEnding = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

function intoJson(text: string, value: Readonly<Record<string, unknown>>): string {
  const doc = JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>; // parseScenario read it
  const service = typeof doc['service'] === 'object' && doc['service'] !== null ? doc['service'] as Record<string, unknown> : {};
  return `${JSON.stringify({ ...doc, service: { ...service, latency: value } }, null, 2)}\n`.replace(/\n/g, lineEnding(text));
}

/** The value as YAML nodes: a histogram's buckets one a line as {le, count}; any other form on one line. */
function latencyNode(doc: Document, value: Readonly<Record<string, unknown>>): YAMLMap {
  const node = doc.createNode(value) as YAMLMap;
  const buckets = node.get('buckets', true);
  if (isSeq(buckets)) for (const item of buckets.items) if (isMap(item)) item.flow = true;
  if (!isSeq(buckets)) node.flow = true;
  return node;
}

/** `latency: VALUE` as lines, the value's own at an indent of 2: one line (a flow mapping, however long), or `latency:` and its block. */
function latencyLines(value: Readonly<Record<string, unknown>>, padded: boolean): string[] {
  const doc = new Document({});
  doc.set('latency', latencyNode(doc, value));
  return doc.toString({ flowCollectionPadding: padded, lineWidth: 0 }).replace(/\n$/, '').split('\n');
}

function intoYaml(text: string, path: string, value: Readonly<Record<string, unknown>>): string {
  const doc = parseDocument(text);
  const service = doc.get('service', true);
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new InputError({ source: path }, '', 'is not a mapping of keys', 'Give --into a scenario file (YAML or JSON) of keys such as service: and client:.');
  }
  if (service !== undefined && service !== null && !isMap(service)) {
    throw new InputError({ source: path }, 'service', 'is not a mapping', 'Write service: as a mapping of its keys, or leave it out.');
  }
  // Flow mappings stay as the file spaces them: {a: 1} (idem-sim's own style) unless it writes { a: 1 }.
  const padded = /[{[] \S/.test(text);
  return splice(text, doc, latencyLines(value, padded)) ?? throughDocument(text, doc, value, padded);
}

/** Where a line starts, and where it ends (before its CR LF or LF), for the line holding `at`. */
const lineStart = (text: string, at: number): number => text.lastIndexOf('\n', at - 1) + 1;
function lineEnd(text: string, at: number): number {
  const lf = text.indexOf('\n', at);
  const end = lf < 0 ? text.length : lf;
  return end > 0 && text[end - 1] === '\r' ? end - 1 : end;
}
/** The first offset past a node's content, its trailing blanks and line breaks left out. */
function contentEnd(text: string, node: Node): number {
  const [start, end] = node.range as [number, number, number];
  let at = end;
  while (at > start && /\s/.test(text[at - 1] as string)) at--;
  return at;
}
const indentOf = (text: string, at: number): string => ' '.repeat(at - lineStart(text, at));

/**
 * The text with the latency's lines written and nothing else touched, where service: is a block
 * mapping or absent from a block of keys; undefined elsewhere.
 */
function splice(text: string, doc: Document, lines: string[]): string | undefined {
  const eol = lineEnding(text);
  const root = doc.contents;
  if (!isMap(root) || root.flow) return undefined;
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === 'service');
  const below = (indent: string): string => `${eol}${indent}${lines[0]}${lines.slice(1).map((l) => `${eol}${indent}${l}`).join('')}`;
  const insert = (at: number, added: string): string => `${text.slice(0, at)}${added}${text.slice(at)}`;
  if (pair === undefined) {
    // No service: it follows the last key, before any comment that ends the file.
    const indent = indentOf(text, (root.items[0]?.key as Node).range?.[0] ?? 0);
    return insert(lineEnd(text, contentEnd(text, root) - 1), `${eol}${indent}service:${below(`${indent}  `)}`);
  }
  const service = pair.value;
  if (!isMap(service) || service.flow || service.items.length === 0) return undefined;
  const latency = service.items.find((p) => isScalar(p.key) && p.key.value === 'latency');
  const indent = indentOf(text, (service.items[0]?.key as Node).range?.[0] ?? 0);
  if (latency === undefined) return insert(lineEnd(text, contentEnd(text, service) - 1), below(indent));
  return replaced(text, latency, lines, eol, indent);
}

/** Every comment of the text, at its offset (`# ...`), from the yaml package's concrete syntax tree. */
function comments(text: string): { offset: number; source: string }[] {
  const found: { offset: number; source: string }[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (typeof x === 'object' && x !== null) {
      const t = x as { type?: unknown; offset?: unknown; source?: unknown };
      if (t.type === 'comment' && typeof t.offset === 'number' && typeof t.source === 'string') found.push({ offset: t.offset, source: t.source });
      else Object.values(x).forEach(walk);
    }
  };
  for (const token of new Parser().parse(text)) walk(token);
  return found;
}

/**
 * The text with the latency pair's value replaced by `lines`: the comment on the `latency:` line
 * stays on it, spaced as it was (inside a flow mapping that opens there too), and the lines
 * between it and a block's first key (its comments) stay below it; the old value's lines go.
 */
function replaced(text: string, latency: Pair<unknown, unknown>, lines: string[], eol: string, indent: string): string {
  const keyAt = (latency.key as Node).range?.[0] ?? 0;
  const colon = text.indexOf(':', (latency.key as Node).range?.[1] ?? keyAt) + 1;
  const keyLineEnd = lineEnd(text, keyAt);
  const old = isNode(latency.value) && latency.value.range ? latency.value : undefined;
  const onItsLine = old === undefined || (old.range as [number, number, number])[0] < keyLineEnd;
  const last = old === undefined ? keyLineEnd : lineEnd(text, Math.max(contentEnd(text, old) - 1, colon));
  const comment = comments(text).find((c) => c.offset >= colon && c.offset < keyLineEnd);
  const spaced = comment === undefined ? '' : `${/[ \t]*$/.exec(text.slice(colon, comment.offset))?.[0] || ' '}${comment.source}`;
  // A block's lines before its first key: its comments, kept as written.
  const between = onItsLine || old === undefined ? '' : text.slice(keyLineEnd, lineStart(text, (old.range as [number, number, number])[0])).replace(/\r?\n$/, '');
  const valueIndent = onItsLine || old === undefined ? `${indent}  ` : indentOf(text, (old.range as [number, number, number])[0]);
  const value = lines.length === 1 ? ` ${(lines[0] as string).slice('latency: '.length)}${spaced}${between}`
    : `${spaced}${between}${lines.slice(1).map((l) => `${eol}${valueIndent}${l.slice(2)}`).join('')}`;
  return `${text.slice(0, colon)}${value}${text.slice(last)}`;
}

/** Where no block of service: takes the latency's lines: the file through the Document API, its comments kept where the yaml package keeps them. */
function throughDocument(text: string, doc: ReturnType<typeof parseDocument>, value: Readonly<Record<string, unknown>>, padded: boolean): string {
  const service = doc.get('service', true);
  const node = latencyNode(doc, value);
  const old = isMap(service) ? service.items.find((p) => isScalar(p.key) && p.key.value === 'latency') : undefined;
  if (old !== undefined) keepComments(old, node);
  doc.setIn(['service', 'latency'], node);
  return doc.toString({ flowCollectionPadding: padded, lineWidth: 0 }).replace(/\n/g, lineEnding(text));
}

/**
 * The comments on the old latency as a whole stay with the new one, in the Document API: the one
 * on its line (`latency: {...}  # from the dashboards`), the one between `latency:` and a block's
 * first key, and the one after a block. Those on the old value's own keys go with them.
 */
function keepComments(pair: Pair<unknown, unknown>, node: YAMLMap): void {
  const old = pair.value;
  if (!isNode(old)) return;
  const { commentBefore: before, comment: after } = old;
  if (node.flow) {
    node.comment = joined(before, after);
    return;
  }
  node.commentBefore = before ?? null;
  const onItsLine = !isCollection(old) || old.flow === true;
  if (onItsLine && isScalar(pair.key)) pair.key.comment = joined(pair.key.comment, after);
  else node.comment = after ?? null;
}

const joined = (...comments: (string | null | undefined)[]): string | null => comments.filter((c) => c).join('\n') || null;
