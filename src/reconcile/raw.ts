/**
 * Effects as a source gives them (a CSV or JSON-lines export, a PostgreSQL query), before their
 * columns are found and their values read (docs/reconcile.md): the source's column names, then
 * each row's values in that order. A source reads as it goes, so that a table of any length runs
 * in bounded memory, and says where a row came from for errors without echoing what it holds.
 */

/** A value as a source gives it: text, a number, a time (a database's timestamp), or none. */
export type RawValue = string | number | Date | null;

export interface RawRows {
  /** Where the rows come from, for errors: a file's name, or `the query`. Never a credential. */
  readonly where: string;
  /** The column names, in the order each row's values come. */
  columns(): Promise<readonly string[]>;
  /** The rows, each with one value per column; read once. */
  rows(): AsyncIterable<readonly RawValue[]>;
  /** Releases what the source holds (a file, a connection), whether or not the rows were all read. */
  close(): Promise<void>;
}
