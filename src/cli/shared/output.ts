/**
 * Where a command's report goes: the file an option names (`--out`, `--junit`), checked and
 * opened before any work so that a bad path fails at once, or standard output. A report is
 * written whole at the end or not at all (cli/outputs.ts).
 */
import type { ChalkInstance } from 'chalk';
import { chalkFor, type Io } from '../io.js';
import { PendingOutput } from '../outputs.js';

export class ReportOutput {
  private readonly file: PendingOutput | null;

  /** `path` undefined: standard output. `inputs` are the files the command reads, which it must not overwrite. */
  constructor(private readonly io: Io, path: string | undefined, inputs: readonly string[], flag?: string) {
    this.file = path === undefined ? null : new PendingOutput(path, inputs, flag);
  }

  /** Colours for the report: a terminal's on standard output, none in a file. */
  style(): ChalkInstance {
    return chalkFor(this.file ? {} : this.io.stdout, this.io.env);
  }

  write(text: string): void {
    if (this.file) this.file.commit(text, this.io.stdout);
    else this.io.stdout.write(text);
  }

  /** Gives the file up if it was not written (the command failed or was stopped): no file is left. */
  abort(): void {
    this.file?.abort();
  }
}

/**
 * Opens the output `path` names (flag `flag`, by default --out), then does `work`; an output
 * `work` did not write is given up, whatever ends it. Outputs nest: one opened inside another's
 * work is checked after it, and a failure gives both up.
 */
export async function withOutput<T>(io: Io, path: string | undefined, inputs: readonly string[], work: (out: ReportOutput) => Promise<T> | T, flag?: string): Promise<T> {
  const out = new ReportOutput(io, path, inputs, flag);
  try {
    return await work(out);
  } finally {
    out.abort();
  }
}
