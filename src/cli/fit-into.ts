/**
 * `fit --into SCENARIO`: the scenario's text with `service.latency` set to the fitted value,
 * through the yaml package's Document API, so that its comments and layout stay (a comment on
 * the old latency's own lines goes with it). The scenario must read as one before and after; a
 * JSON scenario stays JSON. The caller writes the text whole, through a temporary file.
 */
import { isMap, isSeq, parseDocument } from 'yaml';
import { InputError } from '../scenario/errors.js';
import { parseScenario } from '../scenario/parse.js';
import { baseFiles, MAX_SCENARIO_BYTES, readUserFile } from './files.js';

/** The text of the scenario at `path` with `value` as its service.latency. */
export function writeInto(path: string, value: Readonly<Record<string, unknown>>): string {
  const text = readUserFile(path, 'the scenario file', '', { source: `--into ${path}` }, 'the current directory', MAX_SCENARIO_BYTES);
  parseScenario(text, path, [], baseFiles(path));
  const next = /^\uFEFF?\s*\{/.test(text) ? intoJson(text, value) : intoYaml(text, path, value);
  try {
    parseScenario(next, path, [], baseFiles(path));
  } catch (e) {
    // The value came from the data: a scenario it breaks is a bug of fit, said as one.
    if (e instanceof InputError) throw new Error(`fit --into made a scenario idem-sim refuses: ${e.message}`);
    throw e;
  }
  return next;
}

function intoJson(text: string, value: Readonly<Record<string, unknown>>): string {
  const doc = JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>; // parseScenario read it
  const service = typeof doc['service'] === 'object' && doc['service'] !== null ? doc['service'] as Record<string, unknown> : {};
  return `${JSON.stringify({ ...doc, service: { ...service, latency: value } }, null, 2)}\n`;
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
  const node = doc.createNode(value);
  // A histogram's buckets one a line as {le, count}; the lognormal's keys on one line.
  const buckets = node.get('buckets', true);
  if (isSeq(buckets)) for (const item of buckets.items) if (isMap(item)) item.flow = true;
  if (!isSeq(buckets)) node.flow = true;
  doc.setIn(['service', 'latency'], node);
  // Flow mappings stay as the file spaces them: {a: 1} (idem-sim's own style) unless it writes { a: 1 }.
  return doc.toString({ flowCollectionPadding: /[{[] \S/.test(text) });
}
