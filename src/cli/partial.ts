/**
 * Partial results of `run --shard i/n`: the integer sums of a range of chunks, with what is
 * needed to check that parts belong together. `merge` adds them up into the result the
 * unsharded run gives, byte for byte.
 */
import { createHash } from 'node:crypto';
import { RunState, type RunStateData } from '../model/metrics.js';
import type { Scenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import type { ScenarioRun } from './report/types.js';

export const PARTIAL_FORMAT = 1;

export interface PartialRun {
  name: string;
  file: string | null;
  seed: string;
  /** The resolved scenario as reports print it. */
  scenario: Scenario;
  /** SHA-256 of the scenario including empirical data: parts must agree on it. */
  fingerprint: string;
  grid_step: number;
  state: RunStateData;
}

export interface Partial {
  idem_sim_partial: number;
  version: string;
  shard: { index: number; count: number };
  /** Arguments of the unsharded run, for the replay line. */
  replay_args: string[];
  runs: PartialRun[];
}

export function scenarioFingerprint(s: Scenario): string {
  return createHash('sha256').update(JSON.stringify(s)).digest('hex');
}

export function renderPartial(p: Partial): string {
  return `${JSON.stringify(p)}\n`;
}

/** Reads and checks parts; returns the merged runs and the replay arguments. */
export function mergePartials(parts: readonly { file: string; text: string }[]): { runs: ScenarioRun[]; version: string; replayArgs: string[] } {
  const parsed = parts.map(({ file, text }) => ({ file, p: parsePartial(file, text) }));
  const first = parsed[0];
  if (!first) throw new InputError(undefined, '', 'no partial results given', 'Pass the files written by `idem-sim run --shard i/n --out FILE`.');
  const mismatch = (file: string, what: string, mine: string, theirs: string, fix: string) =>
    new InputError({ source: file }, '', `${what} differs from ${first.file}'s (${mine} vs ${theirs})`, fix);
  const seen = new Map<number, string>();
  for (const { file, p } of parsed) {
    if (p.version !== first.p.version) {
      throw mismatch(file, 'the idem-sim version', p.version, first.p.version, 'Run every shard with the same idem-sim version.');
    }
    if (p.shard.count !== first.p.shard.count) {
      throw mismatch(file, 'the shard count', String(p.shard.count), String(first.p.shard.count), 'Merge the parts of one sharded run only.');
    }
    if (JSON.stringify(p.replay_args) !== JSON.stringify(first.p.replay_args) || p.runs.length !== first.p.runs.length) {
      throw mismatch(file, 'the command', p.replay_args.join(' '), first.p.replay_args.join(' '), 'Run every shard with the same scenarios and options.');
    }
    p.runs.forEach((r, i) => {
      const f = first.p.runs[i] as PartialRun;
      if (r.seed !== f.seed) throw mismatch(file, `the seed of ${r.name}`, r.seed, f.seed, 'Run every shard with the same --seed.');
      if (r.fingerprint !== f.fingerprint) {
        throw mismatch(file, `the scenario ${r.name}`, r.fingerprint.slice(0, 12), f.fingerprint.slice(0, 12), 'Run every shard on the same scenario files and --set options.');
      }
    });
    const other = seen.get(p.shard.index);
    if (other) throw new InputError({ source: file }, '', `shard ${p.shard.index}/${p.shard.count} is also in ${other}`, 'Pass each shard once.');
    seen.set(p.shard.index, file);
  }
  const missing = Array.from({ length: first.p.shard.count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) {
    throw new InputError(undefined, '', `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${first.p.shard.count}`).join(', ')} missing`,
      'Pass the partial results of every shard.');
  }
  const runs = first.p.runs.map((r, i): ScenarioRun => {
    const state = new RunState(r.grid_step);
    for (const { p } of parsed) state.addData((p.runs[i] as PartialRun).state);
    return { name: r.name, file: r.file, seed: r.seed, scenario: r.scenario, metrics: state.finish(r.scenario) };
  });
  return { runs, version: first.p.version, replayArgs: first.p.replay_args };
}

function parsePartial(file: string, text: string): Partial {
  let p: Partial;
  try {
    p = JSON.parse(text) as Partial;
  } catch {
    throw new InputError({ source: file }, '', 'is not JSON', 'Pass the files written by `idem-sim run --shard i/n --out FILE`.');
  }
  if (typeof p !== 'object' || p === null || p.idem_sim_partial !== PARTIAL_FORMAT || !Array.isArray(p.runs)) {
    throw new InputError({ source: file }, '', 'is not a partial result of idem-sim', 'Pass the files written by `idem-sim run --shard i/n --out FILE`.');
  }
  return p;
}
