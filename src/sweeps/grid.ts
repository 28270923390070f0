/** A sweep's grid: every combination of the varied keys' values, the first key outermost. */
import { InputError } from '../scenario/errors.js';

/** Largest grid run without --max-points: a sweep that size at the lab's 4,000 actions takes minutes. */
export const DEFAULT_MAX_POINTS = 10_000;
/**
 * Largest grid --max-points may allow: 50,000 points. CSV and JSON are written as the points
 * finish, and keep none; a table, HTML or SVG keeps each point's params and the few readings it
 * shows (about 1 KB of heap) until it is drawn: 50,000 points take about 20 s to render as a
 * table.
 */
export const MAX_POINTS = 50_000;

/** `--max-points N` as given (its value read when taken): the most points the grid may have, DEFAULT_MAX_POINTS without it. */
export function maxPointsAllowed(given: { readonly value: number; readonly text: string } | undefined): number {
  if (given === undefined) return DEFAULT_MAX_POINTS;
  if (given.value > MAX_POINTS) {
    throw new InputError({ source: `--max-points ${given.text}` }, '', `is over the limit of ${MAX_POINTS.toLocaleString('en-US')} points`,
      `Give at most --max-points ${MAX_POINTS}; for a larger study, run several sweeps over parts of the range.`);
  }
  return given.value;
}

export interface Axis {
  /** Dotted key path, as written (`client.timeout`). */
  path: string;
  /** Values as text (read like `--set` values). */
  values: readonly string[];
  /** How the user wrote it, for error messages (`--vary client.timeout=...`). */
  option: string;
}

export interface GridPoint {
  index: number;
  /** One value per axis, in axis order. */
  values: string[];
}

export function gridSize(axes: readonly Axis[]): number {
  return axes.reduce((n, a) => n * a.values.length, 1);
}

/** Points [from, to) of the grid (all of it by default): a shard makes only its own. */
export function gridPoints(axes: readonly Axis[], from = 0, to = gridSize(axes)): GridPoint[] {
  return [...eachGridPoint(axes, from, to)];
}

/** The points [from, to) one at a time, made as they are taken: a sweep of 50,000 points holds none of them. */
export function* eachGridPoint(axes: readonly Axis[], from = 0, to = gridSize(axes)): Generator<GridPoint> {
  for (let index = from; index < to; index++) {
    let rest = index;
    const values = new Array<string>(axes.length);
    for (let k = axes.length - 1; k >= 0; k--) {
      const axis = axes[k] as Axis;
      values[k] = axis.values[rest % axis.values.length] as string;
      rest = Math.floor(rest / axis.values.length);
    }
    yield { index, values };
  }
}
