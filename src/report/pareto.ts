/** The Pareto frontier of points where less is better on both axes. */

export interface XY { x: number; y: number }

/**
 * For each point, whether it is Pareto-optimal: no other point has x and y both at most
 * its own and one of them lower. Identical points are all optimal or none; points with a
 * coordinate that is not finite are never optimal. O(n log n): sort by x then y, and keep
 * the lowest y seen.
 */
export function paretoFront(points: readonly XY[]): boolean[] {
  const front = points.map(() => false);
  const order = points.map((_, i) => i)
    .filter((i) => Number.isFinite((points[i] as XY).x) && Number.isFinite((points[i] as XY).y))
    .sort((a, b) => (points[a] as XY).x - (points[b] as XY).x || (points[a] as XY).y - (points[b] as XY).y);
  let best: XY | undefined; // the first point seen with the lowest y so far
  for (const i of order) {
    const p = points[i] as XY;
    if (best === undefined || p.y < best.y) {
      best = p;
      front[i] = true;
    } else if (p.y === best.y && p.x === best.x) {
      front[i] = true; // a copy of an optimal point
    }
  }
  return front;
}
