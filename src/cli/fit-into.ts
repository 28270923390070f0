/**
 * `fit --into SCENARIO`: the scenario's text with `service.latency` set to the fitted value,
 * through the yaml package's Document API, so that its comments and layout stay, those on the
 * old latency as a whole too (keepComments; one on a key of the old value goes with that key).
 * The scenario must read as one before and after; a JSON scenario stays JSON. The caller writes
 * the text whole, through a temporary file.
 */
import { isCollection, isMap, isNode, isScalar, isSeq, parseDocument, type Pair, type YAMLMap } from 'yaml';
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
  const old = isMap(service) ? service.items.find((p) => isScalar(p.key) && p.key.value === 'latency') : undefined;
  if (old !== undefined) keepComments(old, node);
  doc.setIn(['service', 'latency'], node);
  // Flow mappings stay as the file spaces them: {a: 1} (idem-sim's own style) unless it writes { a: 1 }.
  return doc.toString({ flowCollectionPadding: /[{[] \S/.test(text) });
}

/**
 * The comments on the old latency as a whole stay with the new one: the one on its line
 * (`latency: {...}  # from the dashboards`), the one between `latency:` and a block's first key,
 * and the one after a block. Those on the old value's own keys go with them.
 */
function keepComments(pair: Pair<unknown, unknown>, node: YAMLMap): void {
  const old = pair.value;
  if (!isNode(old)) return;
  const { commentBefore: before, comment: after } = old;
  if (node.flow) {
    // One line: its comment after it, on that line.
    node.comment = joined(before, after);
    return;
  }
  node.commentBefore = before ?? null;
  // A block starts on the next line: a comment that stood on the old value's line (a scalar or
  // a flow collection: `latency:` was its line) stays on the key's.
  const onItsLine = !isCollection(old) || old.flow === true;
  if (onItsLine && isScalar(pair.key)) pair.key.comment = joined(pair.key.comment, after);
  else node.comment = after ?? null;
}

const joined = (...comments: (string | null | undefined)[]): string | null => comments.filter((c) => c).join('\n') || null;
