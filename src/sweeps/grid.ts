/** A sweep's grid: every combination of the varied keys' values, the first key outermost. */

/** Largest grid run without --max-points: a sweep that size at the lab's 4,000 actions takes minutes. */
export const DEFAULT_MAX_POINTS = 10_000;
/**
 * Largest grid --max-points may allow: 50,000 points. A point keeps its metrics (about 4 KB of
 * heap) until the report is written, and the JSON report takes 3.3 KB a point more: 20,000
 * points of JSON peaked at 369 MB, so 50,000 stay under a gigabyte, and take about 20 s to
 * render as a table.
 */
export const MAX_POINTS = 50_000;

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
  const points: GridPoint[] = [];
  for (let index = from; index < to; index++) {
    let rest = index;
    const values = new Array<string>(axes.length);
    for (let k = axes.length - 1; k >= 0; k--) {
      const axis = axes[k] as Axis;
      values[k] = axis.values[rest % axis.values.length] as string;
      rest = Math.floor(rest / axis.values.length);
    }
    points.push({ index, values });
  }
  return points;
}
