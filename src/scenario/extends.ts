/**
 * `extends: FILE`: a scenario (or an agent's tool) that starts from another file and writes its
 * own keys on top. Mappings merge key by key, deeply; a list or a scalar replaces, and so does a
 * latency distribution of another form (a `dist` of its own, or percentiles against
 * median and sigma). Pure: the shell reads the files (`BaseFiles`), under the folder rules and
 * size limits of data files; this module follows the chain, refuses its cycles and its length,
 * and says for every key path which file wrote it.
 */
import { DEFAULT_DISTRIBUTION, LATENCY_FORMS } from '../model/latency.js';
import { paramAt } from '../model/shape.js';
import { formatPath, valueAt, type TokenBudget } from './document.js';
import { InputError, type Origin } from './errors.js';
import { readDocument, type Locate } from './read-document.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;

/** Files in one chain, the first (the file that writes the first `extends:`) included. */
export const MAX_EXTENDS_FILES = 8;

/**
 * Keys that describe the file that writes them, and so do not carry over from a base: a file
 * that extends another without a description of its own has none. Everything else carries
 * over: the model's keys, `preset`, `seed`, `expect:` (a mission's goals stay the goals of the
 * file that answers it) and `sweep:`.
 */
export const OWN_FILE_KEYS: readonly string[] = ['description', 'hint', '$schema', 'extends'];

/** A file `extends:` names, as the shell read it. */
export interface BaseFile {
  /** The file's name in messages, and what its own `extends:` is read relative to. */
  source: string;
  /** One name for every way of reaching the file (its real path): how a cycle is found. */
  id: string;
  text: string;
}

/** The shell's access to the files a chain names. */
export interface BaseFiles {
  /**
   * Reads the file `path` that the file `from` (a `source`) names, or refuses it with an
   * InputError at `origin` (missing, outside the allowed folder, too large, not a regular file).
   */
  read(path: string, from: string, origin: Origin): BaseFile;
  /**
   * What the chain's files may still hold together: one allowance for each reading of a
   * scenario file (its own tokens included) or of an agent file (shared by its tools' chains).
   */
  budget: TokenBudget;
}

/** A chain resolved: the merged mapping, where each of its key paths was written, and the files read. */
export interface Extended {
  /** The merged keys, without `extends:` and without the bases' OWN_FILE_KEYS. */
  document: Raw;
  locate: Locate;
  /** The sources of the files read, nearest first. */
  bases: string[];
}

interface Layer { document: Raw; locate: Locate; source: string }

const isMapping = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Follows `document`'s `extends:` (if any) to the end of its chain and merges the files, the
 * first one's keys winning. `first`: the file that holds `document` (its source, for relative
 * paths and messages, and its id, for cycles); `locate` says where `document`'s keys are (for an
 * agent's tool, inside the agent file). `files` undefined: nothing can be read here (the lab's
 * page), and an `extends:` is refused.
 */
export function resolveExtends(document: Raw, locate: Locate, first: { source: string; id: string }, files: BaseFiles | undefined): Extended {
  const layers: Layer[] = [{ document, locate, source: first.source }];
  const ids = [first.id];
  for (let at = layers[0] as Layer; Object.hasOwn(at.document, 'extends');) {
    const path = checkedPath(at);
    const origin = at.locate(['extends']);
    if (files === undefined) {
      throw new InputError(origin, 'extends', 'names another file, which cannot be read here (the page holds one file)',
        'Copy the keys you need from that file into this one, or run the file with idem-sim, which reads its chain.');
    }
    if (layers.length === MAX_EXTENDS_FILES) {
      throw new InputError(origin, 'extends', `makes a chain of more than ${MAX_EXTENDS_FILES} files (${[...layers.map((l) => l.source), '...'].join(' -> ')})`,
        `Fold some of the files into one another: a chain holds at most ${MAX_EXTENDS_FILES} files, this one included.`);
    }
    const file = files.read(path, at.source, origin);
    if (ids.includes(file.id)) {
      const loop = [...layers.map((l) => l.source), file.source].join(' -> ');
      throw new InputError(origin, 'extends', `comes back to a file already in the chain: ${loop}`,
        'Remove the extends: that closes the loop; a file may extend another only if that one does not lead back to it.');
    }
    const read = readDocument(file.text, file.source, [], files.budget);
    if (!isMapping(read.document)) {
      throw new InputError(read.locate([]), '', 'the file extended is not a mapping of keys to values',
        `Name a scenario file in extends: (in ${at.source}), with keys such as client: and idempotency: at its top level.`);
    }
    ids.push(file.id);
    layers.push(at = { document: read.document, locate: read.locate, source: file.source });
  }
  const merged = layers.reduceRight<Raw>((acc, l, i) => merge(acc, i === 0 ? withoutKeys(l.document, ['extends']) : withoutKeys(l.document, OWN_FILE_KEYS), []), {});
  return { document: structuredClone(merged), locate: chainLocate(layers, merged), bases: layers.slice(1).map((l) => l.source) };
}

/** The layer's `extends:` value, checked: a file name. */
function checkedPath(at: Layer): string {
  const v = at.document['extends'];
  if (typeof v !== 'string' || v.trim() === '') {
    throw new InputError(at.locate(['extends']), 'extends', `got ${v === null || v === undefined ? 'an empty value' : clippedJson(v)}, expected the name of one scenario file`,
      'Write the path of the file this one starts from, relative to this file, such as extends: base.yaml (that file may extend another in turn).');
  }
  return v;
}

const clippedJson = (v: unknown): string => { const t = JSON.stringify(v) ?? String(v); return t.length > 80 ? `${t.slice(0, 60)}... (${t.length} characters)` : t; };

function withoutKeys(document: Raw, keys: readonly string[]): Raw {
  return Object.fromEntries(Object.entries(document).filter(([k]) => !keys.includes(k)));
}

/**
 * `over` written on top of `base`: mappings merge key by key; any other value, and a latency
 * distribution of another form, replaces. Keys are defined, not assigned (a key named
 * `__proto__` would otherwise set the prototype; document.ts refuses such keys first).
 */
export function merge(base: Raw, over: Raw, path: Path): Raw {
  const out: Raw = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = Object.hasOwn(out, k) ? out[k] : undefined;
    const at = [...path, k];
    const value = isMapping(b) && isMapping(v) && !otherForm(at, b, v) ? merge(b, v, at) : v;
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Whether two mappings at `path` are latency distributions of different forms, which do not mix. */
function otherForm(path: Path, a: Raw, b: Raw): boolean {
  if (paramAt(formatPath(path))?.kind !== 'latency') return false;
  const form = (d: Raw): string => {
    const dist = typeof d['dist'] === 'string' ? d['dist'] : DEFAULT_DISTRIBUTION;
    const fit = Object.hasOwn(LATENCY_FORMS, dist) ? LATENCY_FORMS[dist as keyof typeof LATENCY_FORMS].fit : undefined;
    return fit && Object.keys(fit.keys).some((k) => Object.hasOwn(d, k)) ? `${dist} fitted` : dist;
  };
  return form(a) !== form(b);
}

/**
 * Where a key path of the merged mapping was written: in the nearest file that holds the
 * deepest part of the path the merged mapping holds (the value there came from that file, or
 * merged mappings of which it wrote the key).
 */
function chainLocate(layers: readonly Layer[], merged: Raw): Locate {
  return (path, keyNode) => {
    let held = path.length;
    while (held > 0 && valueAt(merged, path.slice(0, held)) === undefined) held--;
    const prefix = path.slice(0, held);
    const owner = layers.find((l) => valueAt(l.document, prefix) !== undefined) ?? layers[0] as Layer;
    return owner.locate(path, keyNode);
  };
}
