/**
 * Which series of a metrics file to read: a metric's name and label matchers, as PromQL writes a
 * selector (`http_request_duration_seconds{method="GET",code="200"}`), equality only. For
 * OpenTelemetry the labels are attributes, whose names may hold dots (`service.name`).
 */
import { InputError, type Origin } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';

export interface Selector {
  /** The metric's name; for a histogram without its `_bucket`, `_count` or `_sum`. */
  readonly name: string;
  /** Label (attribute) names and the values they must have. */
  readonly labels: ReadonlyMap<string, string>;
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_:.]*/;
const LABEL = /^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(,|$)/;
const FORM = 'name or name{label="value",...}, as PromQL writes a selector (equality only)';

/**
 * A label value as written between quotes: \\, \" and \n are its escapes (the exposition format's
 * and PromQL's); a backslash before any other character (not a line's end) stands for it. One pass
 * over the code units: a regular expression's replace with a callback per escape took 700 MB for a
 * 10 MB value of escapes, and aborted under a smaller heap.
 */
export function unescapeLabel(text: string): string {
  if (!text.includes('\\')) return text;
  const out = new Uint16Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1); // NaN past the end
    if (c === 92 && next === next && next !== 10 && next !== 13 && next !== 0x2028 && next !== 0x2029) {
      i++;
      c = next === 110 ? 10 : next;
    }
    out[n++] = c;
  }
  // Code units back to a string as they are (a decoder would drop a leading U+FEFF and mend lone surrogates), a piece at a time.
  let result = '';
  for (let k = 0; k < n; k += 8192) result += String.fromCharCode(...out.subarray(k, Math.min(n, k + 8192)));
  return result;
}

/** The matchers between braces, or a problem with them. */
function matchers(inner: string): Map<string, string> | string {
  const labels = new Map<string, string>();
  let rest = inner;
  while (rest.trim() !== '') {
    const m = LABEL.exec(rest);
    if (!m) return 'has a label matcher that is not label="value"';
    if (labels.has(m[1] as string)) return `names the label ${m[1]} twice`;
    labels.set(m[1] as string, unescapeLabel(m[2] as string));
    rest = rest.slice(m[0].length);
  }
  return labels;
}

/**
 * Reads a selector; `origin` and `keyPath` say where it was written. With `anyName` (a span's
 * name, such as `POST /pay`) the name is any text, and braces at its end hold matchers if they read as such.
 */
export function parseSelector(text: string, origin: Origin, keyPath: string, anyName = false): Selector {
  const refuse = (problem: string): never => {
    throw new InputError(origin, keyPath, `"${clipped(printable(text), 80)}" ${problem}`, `Write the ${anyName ? 'span' : 'metric'} as ${FORM}, such as ${anyName ? 'POST /pay{http.route="/pay"}' : 'http_request_duration_seconds{method="GET"}'}.`);
  };
  const brace = text.indexOf('{');
  if (anyName) {
    const labels = brace > 0 && text.endsWith('}') ? matchers(text.slice(brace + 1, -1)) : undefined;
    if (labels === undefined || typeof labels === 'string') return text.trim() === '' ? refuse('is empty') : { name: text, labels: new Map() };
    return { name: text.slice(0, brace).trim(), labels };
  }
  const name = NAME.exec(text)?.[0];
  if (name === undefined) return refuse('does not begin with a metric name');
  const rest = text.slice(name.length).trim();
  if (rest !== '' && (!rest.startsWith('{') || !rest.endsWith('}'))) return refuse('has something after the name that is not {labels}');
  const labels = rest === '' ? new Map<string, string>() : matchers(rest.slice(1, -1));
  if (typeof labels === 'string') return refuse(labels);
  return { name: name.replace(/_(bucket|count|sum)$/, ''), labels };
}

/** Whether a series' labels have every value the selector asks for. */
export function selects(selector: Selector | undefined, labels: ReadonlyMap<string, string>): boolean {
  if (selector === undefined) return true;
  for (const [k, v] of selector.labels) if (labels.get(k) !== v) return false;
  return true;
}

/** A series' labels as a selector writes them (`{method="GET"}`), for a message about the user's own input. */
export function labelsText(labels: ReadonlyMap<string, string>, without: readonly string[] = []): string {
  const parts = [...labels].filter(([k]) => !without.includes(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}="${v.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\n')}"`);
  return `{${parts.join(',')}}`;
}
