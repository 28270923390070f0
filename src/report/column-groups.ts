/**
 * Where a table too wide for the terminal is cut: into groups of consecutive columns that each
 * fit beside the row labels, as few groups as fit, and of them the split whose widest table is
 * narrowest (four columns that fit three at a time make two tables of two, not three and one).
 */

/** A table's width in columns: its borders (one more than its columns) and its columns' widths. */
const tableWidth = (label: number, columns: readonly number[], from: number, to: number): number => {
  let width = 2 + label;
  for (let k = from; k < to; k++) width += (columns[k] as number) + 1;
  return width;
};

/** The groups, cutting a new one before a column that would make a table wider than `limit`. */
function greedy(label: number, columns: readonly number[], limit: number): [from: number, to: number][] {
  const groups: [number, number][] = [];
  let from = 0;
  for (let k = 1; k <= columns.length; k++) {
    if (k === columns.length || tableWidth(label, columns, from, k + 1) > limit) {
      groups.push([from, k]);
      from = k;
    }
  }
  return groups;
}

/**
 * The groups of `columns` (widths, padding included; `label` the row labels' column) as
 * half-open ranges of column indices, each table at most `width` wide where a column can be.
 * A column wider than that on its own is a group of its own.
 */
export function columnGroups(label: number, columns: readonly number[], width: number): [from: number, to: number][] {
  if (columns.length === 0) return [];
  const fewest = greedy(label, columns, width).length;
  // The narrowest limit that still gives that few groups, found by bisection (the count only
  // falls as the limit grows). It is at most `width`, so a group of several columns still fits.
  let low = 1;
  let high = width;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (greedy(label, columns, mid).length <= fewest) high = mid;
    else low = mid + 1;
  }
  return greedy(label, columns, low);
}
