/**
 * One line of Prometheus's text exposition format (and of OpenMetrics, which extends it): a
 * sample `name{label="value",...} value [timestamp]`, or a `# TYPE`, `# UNIT` or other comment.
 * Read with a hand-written scanner, one pass over the line, so that no line however long or
 * strange costs more than its length.
 */
import { unescapeLabel } from './selector.js';

export interface Sample { readonly name: string; readonly labels: Map<string, string>; readonly value: number }
/** A `# TYPE` or `# UNIT` line: the metric it is about and the word it gives. */
export interface Descriptor { readonly kind: 'TYPE' | 'UNIT'; readonly name: string; readonly word: string }
export type Line = Sample | Descriptor | 'comment' | 'blank' | 'eof';

const NAME = /[A-Za-z_:][A-Za-z0-9_:]*/y;
const LABEL_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

/** A number as the format writes it: decimal, `+Inf`, `-Inf` or `NaN` (never hex, as Number() would read it). */
export function expositionNumber(text: string): number | undefined {
  if (NUMBER.test(text)) return Number(text);
  const word = text.toLowerCase();
  return word === '+inf' || word === 'inf' ? Infinity : word === '-inf' ? -Infinity : word === 'nan' ? NaN : undefined;
}

function descriptor(line: string): Line {
  const m = /^#\s+(TYPE|UNIT)\s+([A-Za-z_:][A-Za-z0-9_:]*)\s+(\S+)\s*$/.exec(line);
  if (m) return { kind: m[1] as 'TYPE' | 'UNIT', name: m[2] as string, word: m[3] as string };
  return /^#\s*EOF\s*$/.test(line) ? 'eof' : 'comment';
}

/** The labels from `{` at `at`, and where they end; undefined when they are not well formed. */
function labels(line: string, at: number): { labels: Map<string, string>; end: number } | undefined {
  const out = new Map<string, string>();
  let i = at + 1;
  const skip = () => { while (line[i] === ' ' || line[i] === '\t') i++; };
  for (;;) {
    skip();
    if (line[i] === '}') return { labels: out, end: i + 1 };
    LABEL_NAME.lastIndex = i;
    const name = LABEL_NAME.exec(line)?.[0];
    if (name === undefined || out.has(name)) return undefined;
    i += name.length;
    skip();
    if (line[i] !== '=') return undefined;
    i++;
    skip();
    if (line[i] !== '"') return undefined;
    const start = ++i;
    while (i < line.length && line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
    if (i >= line.length) return undefined;
    out.set(name, unescapeLabel(line.slice(start, i)));
    i++;
    skip();
    if (line[i] === ',') i++;
    else if (line[i] !== '}') return undefined;
  }
}

/** One line read, or undefined when it is not of the format. */
export function readLine(raw: string): Line | undefined {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const first = line.search(/\S/);
  if (first < 0) return 'blank';
  if (line[first] === '#') return descriptor(line.slice(first));
  NAME.lastIndex = first;
  const name = NAME.exec(line)?.[0];
  if (name === undefined) return undefined;
  let i = first + name.length;
  let found = new Map<string, string>();
  if (line[i] === '{') {
    const read = labels(line, i);
    if (read === undefined) return undefined;
    ({ labels: found, end: i } = read);
  }
  // The value, then an optional timestamp, then (OpenMetrics) an optional exemplar after #.
  const rest = line.slice(i).replace(/\s#.*$/, '').trim().split(/\s+/);
  if (rest.length < 1 || rest.length > 2 || rest[0] === '') return undefined;
  const value = expositionNumber(rest[0] as string);
  if (value === undefined || (rest[1] !== undefined && expositionNumber(rest[1]) === undefined)) return undefined;
  return { name, labels: found, value };
}
