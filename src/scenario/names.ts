/** The names a scenario file goes by: its run's name in a report, and its place in a replay line. */
import { basename, extname } from 'node:path';
import { printable } from './printable.js';

/** A report's name for a scenario: the file's base name, or `lab-defaults`. */
export function scenarioName(file: string | null): string {
  return file === null ? 'lab-defaults' : printable(basename(file, extname(file)));
}

/** Column names: the file's base name, or the path as given where base names collide. */
export function columnNames(files: readonly (string | null)[]): string[] {
  const short = files.map(scenarioName);
  return short.map((n, i) => (short.indexOf(n) !== short.lastIndexOf(n) ? printable(files[i] ?? n) : n));
}

/** An input as a replay line writes it: one whose name begins with `-` as `./-name`, so the line cannot read it as an option (a file named `--series`). */
export const asInput = (file: string): string => (file.startsWith('-') ? `./${file}` : file);
