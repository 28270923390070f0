import { clipped, printable } from './printable.js';

/** Where a problem is: a file position, or a command-line option. */
export interface Origin {
  /** File name as the user wrote it, or the option (`--set client.timeout=x`). */
  source: string;
  /** 1-based line and column in the file, when known. */
  line?: number;
  col?: number;
}

/** A problem with user input that a person can fix; the CLI prints it and exits with 2. */
export class InputError extends Error {
  constructor(
    readonly origin: Origin | undefined,
    /** Dotted key path (`idempotency.scope`), or '' for the whole document. */
    readonly keyPath: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(formatInputError(origin, keyPath, problem, fix));
    this.name = 'InputError';
  }
}

export function formatInputError(origin: Origin | undefined, keyPath: string, problem: string, fix: string): string {
  let where = '';
  if (origin) {
    where = clipped(origin.source);
    if (origin.line !== undefined) where += `:${origin.line}` + (origin.col !== undefined ? `:${origin.col}` : '');
  }
  const at = keyPath ? `${where ? `${where}, ` : ''}key ${clipped(keyPath)}` : where;
  // Names and paths in it come from the input: they must not reach a terminal as control codes,
  // nor flood a log (a 100 KB key given to --set is named by its start, its end and its length).
  return printable(`${at ? `${at}: ` : ''}${clipped(problem, 1000)}. ${clipped(fix, 2000)}`);
}
