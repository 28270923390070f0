/** `idem-sim merge PART ...`: the result of a sharded run, as the unsharded run reports it. */
import { PendingOutput, readUserFile } from './files.js';
import type { Io } from './io.js';
import { mergePartials } from './partial.js';
import { renderRuns } from './run.js';

export interface MergeOptions { json?: boolean; out?: string }

export function mergeCommand(files: string[], opts: MergeOptions, io: Io): number {
  const out = opts.out ? new PendingOutput(opts.out, files) : null;
  try {
    const parts = files.map((file) => ({ file, text: readUserFile(file, 'the partial result') }));
    const { runs, version, replayArgs } = mergePartials(parts);
    const text = renderRuns(runs, replayArgs, opts.json === true, version, io, out !== null);
    if (out) out.commit(text, io.stdout);
    else io.stdout.write(text);
    return 0;
  } finally {
    out?.abort();
  }
}
