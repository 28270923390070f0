/**
 * Where a row is, for an error that must name it without showing what it holds: a file's line
 * where its source knows it (the readers of files.ts), else the row's number (a query's rows).
 */
import type { Origin } from '../scenario/errors.js';
import type { RawRows } from './raw.js';

/** A source that knows the line its last row began on (CSV, JSON lines). */
export interface RowLines {
  /** The 1-based line of the row last given. */
  lineOfLast(): number;
}

const hasLines = (rows: RawRows): rows is RawRows & RowLines => typeof (rows as Partial<RowLines>).lineOfLast === 'function';

export interface RowPlace {
  /** The error's origin: the source, and the line where known. */
  readonly origin: Origin;
  /** The row in words: `line 12`, `row 12`. */
  readonly words: string;
}

/** Where the row numbered `row` (1-based), the one last given, is. */
export function rowPlace(rows: RawRows, row: number): RowPlace {
  if (hasLines(rows)) {
    const line = rows.lineOfLast();
    return { origin: { source: rows.where, line }, words: `line ${line}` };
  }
  return { origin: { source: rows.where }, words: `row ${row.toLocaleString('en-US')}` };
}
