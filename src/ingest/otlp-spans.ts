/**
 * Durations of spans from an OpenTelemetry traces export (OTLP/JSON: resourceSpans, scopeSpans,
 * spans with their start and end in ns): the spans of one name, chosen as a metric is
 * (`name{attribute="value"}`, the resource's attributes and the span's).
 */
import { MAX_DURATION_MS } from '../model/limits.js';
import { MAX_OBSERVATIONS } from './limits.js';
import { attributes, isObject, nanosOf, objectsOf, otlpDocuments } from './otlp-json.js';
import { selects, type Selector } from './selector.js';
import { namesText, refuse, type Source } from './source.js';

const WHAT = 'an OpenTelemetry traces export (resourceSpans, with spans that have startTimeUnixNano and endTimeUnixNano)';

/** Whether the documents are a traces export rather than a metrics one. */
export const holdsSpans = (docs: readonly unknown[]): boolean => docs.some((d) => isObject(d) && Array.isArray(d['resourceSpans']));

/** The durations in ms of the spans the selector names (every span's, when the export has spans of one name). */
export function spanDurations(text: string, src: Source, selector: Selector | undefined): { sorted: Float64Array; name: string } {
  const docs = otlpDocuments(text, src, WHAT);
  const byName = new Map<string, number[]>();
  for (const doc of docs) {
    for (const rs of objectsOf(isObject(doc) ? doc['resourceSpans'] : undefined)) {
      const resource = attributes(isObject(rs['resource']) ? rs['resource']['attributes'] : undefined);
      for (const ss of objectsOf(rs['scopeSpans'])) {
        for (const span of objectsOf(ss['spans'])) add(span, resource, byName, src, selector);
      }
    }
  }
  const names = [...byName.keys()];
  if (names.length === 0) refuse(src, undefined, selector ? `holds no span named ${selector.name} with the attributes asked for` : 'holds no span', selector ? `Check the span's name and attributes ${src.how('metric')}.` : `Give ${WHAT}.`);
  if (names.length > 1) refuse(src, undefined, `holds spans of ${namesText(src, names, 'name')}`, `Choose the operation's spans by name ${src.how('metric')}: one operation's latency, not a mixture of several.`);
  return { sorted: Float64Array.from(byName.get(names[0] as string) as number[]).sort(), name: names[0] as string };
}

function add(span: Readonly<Record<string, unknown>>, resource: ReadonlyMap<string, string>, byName: Map<string, number[]>, src: Source, selector: Selector | undefined): void {
  const name = span['name'];
  if (typeof name !== 'string' || (selector !== undefined && name !== selector.name)) return;
  if (selector !== undefined && selector.labels.size > 0 && !selects(selector, attributes(span['attributes'], new Map(resource)))) return;
  const start = nanosOf(span['startTimeUnixNano']), end = nanosOf(span['endTimeUnixNano']);
  if (start === undefined || end === undefined || end < start) {
    refuse(src, undefined, 'has a span without a start and an end at or after it (startTimeUnixNano, endTimeUnixNano)', `Give ${WHAT}.`);
  }
  const ms = Number(end - start) / 1e6;
  if (!(ms <= MAX_DURATION_MS)) refuse(src, undefined, 'has a span longer than 10 years', `Give ${WHAT}.`);
  let list = byName.get(name);
  if (list === undefined) byName.set(name, list = []);
  if (list.length === MAX_OBSERVATIONS) refuse(src, undefined, `holds more than ${MAX_OBSERVATIONS.toLocaleString('en-US')} spans of the name`, 'Export fewer: a million describe any latency.');
  list.push(ms);
}
