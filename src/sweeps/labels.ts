/**
 * A sweep point's labels: the value each varied key took there, as the table, CSV, JSON and
 * HTML print it and as `merge` checks a part's points against their scenarios. Read from the
 * scenario as written, never as loaded: an empirical latency is labelled by its file, never by
 * its values (a million observations once went into every label: 37 MB of table for 2 points).
 */
import { paramAt } from '../model/shape.js';
import type { WrittenScenario } from '../model/types.js';

export type Label = string | number | boolean;

/**
 * The most characters a point's labels hold together (every varied key's), checked at every
 * point before any runs: a mixture of three fitted lognormals is about 300.
 */
export const MAX_LABEL_CHARS = 500;

/**
 * The value at `path` of `written` (the scenario as `writtenScenario` gives it), a mapping as
 * its JSON; a percentile a lognormal was fitted to is found under its `fitted_to`, in ms.
 * Undefined where the scenario holds nothing there, or null (`none`): the value as the sweep
 * wrote it labels the point then.
 */
export function pointLabel(written: WrittenScenario, path: readonly (string | number)[]): Label | undefined {
  let node: unknown = written;
  for (const k of path) {
    const parent = typeof node === 'object' && node !== null ? node as Record<string | number, unknown> : undefined;
    node = parent && Object.hasOwn(parent, k) ? parent[k] : undefined;
    if (node === undefined) {
      const fitted = parent?.['fitted_to'];
      node = typeof fitted === 'object' && fitted !== null && Object.hasOwn(fitted, k) ? (fitted as Record<string | number, unknown>)[k] : undefined;
    }
  }
  const param = paramAt(path.filter((k) => typeof k === 'string').join('.'));
  if (node === null && param?.kind === 'count_or_unbounded') return 'unbounded';
  if (node === undefined || node === null) return undefined;
  if (typeof node === 'object' && param?.kind === 'optional') {
    // A preset's values are labelled by the preset's name (aws-standard), as the file says it.
    const preset = Object.entries(param.presets).find(([, p]) => JSON.stringify(p.values) === JSON.stringify(node));
    if (preset) return preset[0];
  }
  return typeof node === 'object' ? JSON.stringify(node) : node as Label;
}

/** How many characters a point's labels hold together, as its outputs print them. */
export function labelChars(labels: Readonly<Record<string, Label | null>>): number {
  let n = 0;
  for (const v of Object.values(labels)) n += typeof v === 'string' ? v.length : String(v).length;
  return n;
}
