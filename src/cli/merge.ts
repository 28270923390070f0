/** `idem-sim merge PART ...`: the result of a sharded run or sweep, as the unsharded one reports it. */
import { InputError } from '../scenario/errors.js';
import { readUserFile } from '../io/files.js';
import type { Io } from '../io/streams.js';
import { MAX_SHARDS } from '../shards/limits.js';
import { MAX_PART_BYTES } from '../shards/part-check.js';
import { openPart, RunMerger } from '../shards/partial.js';
import { SweepMerger } from '../shards/sweep-merge.js';
import { formatList, RUN_FORMATS } from '../report/formats.js';
import type { RunFormat } from '../report/run-reporters.js';
import type { SweepFormat } from '../report/sweep-reporters.js';
import { renderRuns } from './shared/formats.js';
import { withOutput } from '../io/output.js';
import { outputSettings, runFormat, sweepFormat, type MergeFormat, type OutputOptions, type OutputSettings } from './settings/output.js';

/** `merge`'s command line as commander parsed it (main.ts declares it). */
export interface MergeOptions extends OutputOptions { format?: MergeFormat }

/** What `merge` is asked: where and how to report the merged parts (their kind picks the formats that apply). */
export type MergeSettings = OutputSettings<MergeFormat>;

export const mergeSettings = (opts: MergeOptions): MergeSettings => outputSettings(opts);

/** The parts being merged, all of one kind, and the format to report them in. */
type Job = { kind: 'sweep'; merger: SweepMerger; format: SweepFormat } | { kind: 'run'; merger: RunMerger; format: RunFormat };

export async function mergeCommand(files: string[], s: MergeSettings, io: Io): Promise<number> {
  return withOutput(io, s.out, files, async (out) => {
    if (files.length > MAX_SHARDS) {
      throw new InputError(undefined, '', `${files.length.toLocaleString('en-US')} parts given, more than a run or sweep can have (at most ${MAX_SHARDS.toLocaleString('en-US')} shards)`,
        'Pass the parts of one sharded run or sweep, one per shard.');
    }
    const job = readParts(files, s);
    const style = out.style();
    if (job.kind === 'sweep') {
      out.write(await job.merger.render(job.format, style));
    } else {
      const { runs, version, replayArgs } = job.merger.finish();
      out.write(renderRuns(runs, replayArgs, job.format, version, style, out.width()));
    }
    return 0;
  });
}

/** Checks and adds up the parts, one in memory at a time: each is let go once added. */
function readParts(files: readonly string[], s: MergeSettings): Job {
  let job: Job | undefined;
  for (const file of files) {
    const part = openPart(file, readUserFile(file, 'the partial result', '', undefined, undefined, MAX_PART_BYTES));
    if (job !== undefined && part.kind !== job.kind) {
      throw new InputError({ source: file }, '', `is not a part of the same ${job.kind} as the others`, 'Merge the parts of one sharded run, or of one sharded sweep.');
    }
    job ??= part.kind === 'sweep'
      ? { kind: 'sweep', merger: new SweepMerger(), format: sweepFormat({ ...s, format: s.format?.sweep }) }
      : { kind: 'run', merger: new RunMerger(), format: mergedRunFormat(s) };
    job.merger.add(part);
  }
  if (!job) throw new InputError(undefined, '', 'no partial results given', 'Pass the files written by `idem-sim run --shard i/n --out FILE`.');
  return job;
}

/** The format of a merged run: one of RUN_FORMATS (the sweep's charts do not apply). */
function mergedRunFormat(s: MergeSettings): RunFormat {
  if (s.svg) throw new InputError({ source: '--svg' }, '', 'applies to sweeps, and these are the parts of a run', 'Drop --svg, or merge the parts of a sharded sweep for its charts.');
  if (!s.json && s.format?.text === 'html') {
    throw new InputError({ source: '--format html' }, '', 'applies to sweeps, and these are the parts of a run',
      `Merge them with --format ${formatList(RUN_FORMATS)}; for an HTML page of a run, use \`idem-sim report SCENARIO --out report.html\` (it runs the scenario itself).`);
  }
  return runFormat({ json: s.json, format: s.format?.run });
}
