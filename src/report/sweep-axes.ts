/** How a sweep's varied key is drawn on a chart axis: continuous or by category, log or linear, durations. */
import { isDurationKey } from '../scenario/schema.js';
import { show, type SweepReport } from './sweep.js';

export type ParamValue = string | number | boolean | null;

export interface ParamAxis {
  /** Dotted key path (`client.timeout`): the axis title. */
  path: string;
  /** Short name for point labels: the last part of the path, or the whole path when two keys share it. */
  short: string;
  /** The values the key took, in grid order (as given). */
  values: ParamValue[];
  /** Every value a number: a continuous axis; otherwise one category per value. */
  numeric: boolean;
  /** A log axis: the values came from a log range (and are all above 0). */
  log: boolean;
  /** Values in ms, labelled as durations (`1.5 s`). */
  duration: boolean;
  /**
   * Two values print alike at three significant digits (1000 and 1001 ms are both `1 s`): the
   * labels give every digit instead (`1000 ms`, `1001 ms`), so no label repeats and no two
   * categories merge.
   */
  exact: boolean;
}

/** A number with every digit it has (to 12 significant), in ms for a duration. */
export function exactText(v: number, duration: boolean): string {
  return `${Number(v.toPrecision(12))}${duration ? ' ms' : ''}`;
}

export function paramAxes(r: SweepReport): ParamAxis[] {
  const last = (p: string) => p.split('.').pop() as string;
  return r.paths.map((path) => {
    const seen = new Map<string, ParamValue>();
    for (const pt of r.points) {
      const v = pt.params[path] ?? null;
      seen.set(JSON.stringify(v), v);
    }
    const values = [...seen.values()];
    const numeric = values.every((v) => typeof v === 'number');
    const short = r.paths.filter((q) => last(q) === last(path)).length > 1 ? path : last(path);
    const shown = new Set(values.map((v) => show(v, path)));
    return {
      path, short, values, numeric,
      log: numeric && (r.logPaths ?? []).includes(path) && values.every((v) => (v as number) > 0),
      duration: isDurationKey(path),
      exact: shown.size < values.length,
    };
  });
}

/** A value as an axis category or a label shows it. */
export function label(axis: ParamAxis, v: ParamValue): string {
  return axis.exact && typeof v === 'number' ? exactText(v, axis.duration) : show(v, axis.path);
}

/** The value of a point on a chart axis: the number itself on a continuous axis, else its label. */
export function position(axis: ParamAxis, v: ParamValue): string | number {
  return axis.numeric ? (v as number) : label(axis, v);
}

/** Least clear space in px between two labels shown on one axis. */
const LABEL_GAP = 6;

/**
 * Which labels of an axis to show, when label `i` is centred `at[i]` px along the axis (ascending)
 * and spans `size(i)` px along it: the first and the last always; in between, from the left, every
 * one clear of the last shown and of the last label. Evenly spaced values come out evenly thinned.
 */
export function thinLabels(at: readonly number[], size: (i: number) => number, gap = LABEL_GAP): number[] {
  const n = at.length;
  if (n <= 2) return Array.from({ length: n }, (_, i) => i);
  const clear = (i: number, j: number) => Math.abs((at[j] as number) - (at[i] as number)) >= (size(i) + size(j)) / 2 + gap;
  const kept = [0];
  for (let i = 1; i < n - 1; i++) if (clear(kept.at(-1) as number, i) && clear(i, n - 1)) kept.push(i);
  kept.push(n - 1);
  return kept;
}
