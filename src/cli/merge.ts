/** `idem-sim merge PART ...`: the result of a sharded run or sweep, as the unsharded one reports it. */
import type { MetricPath } from '../model/metric-paths.js';
import { RunState } from '../model/metrics.js';
import { InputError } from '../scenario/errors.js';
import { PendingOutput, readUserFile } from './files.js';
import { chalkFor, shellQuote, type Io } from './io.js';
import { oneOf } from './options.js';
import { mergePartials, PARTIAL_FORMAT } from './partial.js';
import { renderRuns } from './run.js';
import { outputFormat, renderSweep, type PartialPoint } from './sweep.js';

export interface MergeOptions { json?: boolean; format?: string; out?: string; svg?: boolean }

interface SweepPartial {
  idem_sim_partial: number;
  kind: 'sweep';
  version: string;
  shard: { index: number; count: number };
  replay_args: string[];
  sweep: { scenario: string; fingerprint: string; paths: string[]; points: number; seed: string; metric: MetricPath; log_paths?: string[] };
  points: PartialPoint[];
}

export async function mergeCommand(files: string[], opts: MergeOptions, io: Io): Promise<number> {
  const out = opts.out !== undefined ? new PendingOutput(opts.out, files) : null;
  try {
    const parts = files.map((file) => ({ file, text: readUserFile(file, 'the partial result') }));
    const sweep = parts.map((p) => { try { return JSON.parse(p.text) as { kind?: string }; } catch { return {}; } });
    const sweeps = sweep.filter((p) => p.kind === 'sweep').length;
    if (sweeps > 0 && sweeps < parts.length) {
      const odd = parts[sweep.findIndex((p) => p.kind !== 'sweep')] as { file: string };
      throw new InputError({ source: odd.file }, '', 'is not a part of the same sweep as the others', 'Merge the parts of one sharded run, or of one sharded sweep.');
    }
    let text: string;
    if (sweeps > 0) {
      text = await mergeSweep(parts.map((p, i) => ({ file: p.file, p: sweep[i] as SweepPartial })), opts, io, out !== null);
    } else {
      if (opts.svg) throw new InputError({ source: '--svg' }, '', 'applies to sweeps, and these are the parts of a run', 'Drop --svg, or merge the parts of a sharded sweep for its charts.');
      if (!opts.json && opts.format === 'html') {
        throw new InputError({ source: '--format html' }, '', 'applies to sweeps, and these are the parts of a run',
          'Merge them with --format table or json; for an HTML page of a run, use `idem-sim report SCENARIO --out report.html` (it runs the scenario itself).');
      }
      const format = opts.json ? 'json' : oneOf('--format', opts.format ?? 'table', ['table', 'json']);
      const { runs, version, replayArgs } = mergePartials(parts);
      text = renderRuns(runs, replayArgs, format === 'json', version, io, out !== null);
    }
    if (out) out.commit(text, io.stdout);
    else io.stdout.write(text);
    return 0;
  } finally {
    out?.abort();
  }
}

function mergeSweep(parts: { file: string; p: SweepPartial }[], opts: MergeOptions, io: Io, toFile: boolean): Promise<string> {
  const first = parts[0] as { file: string; p: SweepPartial };
  const format = outputFormat(opts);
  const byIndex = new Map<number, { point: PartialPoint; file: string }>();
  const shards = new Set<number>();
  for (const { file, p } of parts) {
    const same = (what: string, a: unknown, b: unknown, fix: string) => {
      if (JSON.stringify(a) !== JSON.stringify(b)) throw new InputError({ source: file }, '', `${what} differs from ${first.file}'s`, fix);
    };
    same('the partial format', p.idem_sim_partial, PARTIAL_FORMAT, 'Run every shard with the same idem-sim version.');
    same('the idem-sim version', p.version, first.p.version, 'Run every shard with the same idem-sim version.');
    same('the scenario', p.sweep.fingerprint, first.p.sweep.fingerprint, 'Run every shard on the same scenario file (it changed between shards).');
    same('the command', p.replay_args, first.p.replay_args, 'Run every shard with the same scenario, --vary, --set and --seed.');
    same('the shard count', p.shard.count, first.p.shard.count, 'Merge the parts of one sharded sweep only.');
    if (shards.has(p.shard.index)) throw new InputError({ source: file }, '', `shard ${p.shard.index}/${p.shard.count} is given twice`, 'Pass each shard once.');
    shards.add(p.shard.index);
    for (const point of p.points) byIndex.set(point.index, { point, file });
  }
  const missing = Array.from({ length: first.p.shard.count }, (_, i) => i + 1).filter((i) => !shards.has(i));
  if (missing.length > 0) {
    throw new InputError(undefined, '', `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${first.p.shard.count}`).join(', ')} missing`, 'Pass the partial results of every shard.');
  }
  const points = Array.from({ length: first.p.sweep.points }, (_, i) => {
    const entry = byIndex.get(i);
    if (!entry) throw new InputError(undefined, '', `point ${i} of the sweep is in no part`, 'Pass the partial results of every shard.');
    const state = new RunState(entry.point.grid_step);
    state.addData(entry.point.state);
    return { params: entry.point.params, metrics: state.finish(entry.point.scenario) };
  });
  const s = first.p.sweep;
  return renderSweep({ scenario: s.scenario, paths: s.paths, seed: s.seed, version: first.p.version, replay: first.p.replay_args.map(shellQuote).join(' '), points, logPaths: s.log_paths ?? [] },
    format, s.metric, chalkFor(toFile ? {} : io.stdout, io.env));
}
