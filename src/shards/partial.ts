/**
 * Partial results of `run --shard i/n`: the integer sums of a range of chunks, with what is
 * needed to check that parts belong together. `merge` adds them up into the result the
 * unsharded run gives, byte for byte, after checking every field (part-check.ts).
 */
import { PRINTABLE_TEXT, SEED_TEXT } from '../scenario/printable.js';
import { RunState, type RunStateData } from '../results/metrics.js';
import { CHUNK_ACTIONS, chunkCount, shardRange } from '../engine/plan.js';
import { gridStepFor } from '../engine/grid.js';
import type { LatencySpec, Scenario, WrittenScenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { MAX_PART_DEPTH, MAX_SHARDS, PART_BYTES_PER_CONTAINER } from './limits.js';
import { jsonShapeProblem } from '../ingest/json-shape.js';
import { PartChecker, sealIntact, sealJson, sha256 } from './part-check.js';
import { checkRunReplay, readReplay } from './part-replay.js';
import { echoed, primaryCount } from '../model/clock.js';
import { resolvedScenario } from '../report/json.js';
import { timeResults } from '../results/time-results.js';
import { seriesStepOf } from '../results/alerts.js';
import { isCoupled } from '../model/capacity.js';
import { hasTrigger } from '../results/delivery.js';
import { MAX_DURATION_MS } from '../model/limits.js';
import type { ScenarioRun } from '../report/types.js';

/** 2: sealed with a digest, fingerprints that the embedded scenario re-hashes to. Format 1 is refused. */
export const PARTIAL_FORMAT = 2;

export interface PartialRun {
  name: string;
  file: string | null;
  seed: string;
  /** The resolved scenario, every key (`writtenScenario`); its fingerprint hashes it as reports print it. */
  scenario: WrittenScenario;
  /** Its warnings (ScenarioRun's), for the merged report. */
  warnings: readonly string[];
  /** See scenarioFingerprint: parts must agree on it. */
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
  /** The step `--series` asked for, in ms (null: none asked; the runs' alerts still count theirs). */
  series_step: number | null;
  runs: PartialRun[];
}

/**
 * SHA-256 (hex) of the scenario as reports print it (resolvedScenario), so that the copy a part
 * holds re-hashes to it; with data from files (empirical values, a histogram's buckets), `:` and their SHA-256, so
 * that parts run on other data differ too. Without data it is the SHA-256 of the scenario.
 */
export function scenarioFingerprint(s: Scenario): string {
  const data: (readonly number[])[] = [];
  const collect = (l: LatencySpec): void => {
    if (l.dist === 'empirical') data.push(l.values);
    // A histogram's buckets from a file (written ones are in the scenario): bounds and counts, the +Inf bound as null.
    else if (l.dist === 'histogram' && l.file !== null) data.push(l.values.flatMap((b) => [b.le, b.count]));
    else if (l.dist === 'mixture') l.components.forEach(collect);
  };
  collect(s.service.latency);
  const own = sha256(JSON.stringify(resolvedScenario(s)));
  return data.length === 0 ? own : `${own}:${sha256(JSON.stringify(data))}`;
}

export const FINGERPRINT = /^[0-9a-f]{64}(?::[0-9a-f]{64})?$/;

/** The part with its digest: the SHA-256 of its JSON without the digest, added as the last field. */
export function sealPartial(p: Partial): Partial & { digest: string } {
  return JSON.parse(sealJson(JSON.stringify(p))) as Partial & { digest: string };
}

/** The text of a part, sealed. */
export function renderPartial(p: Partial): string {
  return sealJson(JSON.stringify(p));
}

const WRITTEN_BY = 'Pass the files written by `idem-sim run --shard i/n --out FILE` or `idem-sim sweep ... --shard i/n --out FILE`.';

/** A part read from its text: which kind, its fields (unchecked), and whether its digest matches. */
export interface OpenedPart { file: string; kind: 'run' | 'sweep'; fields: Record<string, unknown>; intact: boolean | undefined }

export function openPart(file: string, text: string): OpenedPart {
  // Before JSON.parse: 63 MiB of nested or empty arrays, under the part's size limit, took 3.3 GB.
  const wrong = jsonShapeProblem(text, MAX_PART_DEPTH, Math.ceil(text.length / PART_BYTES_PER_CONTAINER));
  if (wrong) throw new InputError({ source: file, line: wrong.line }, '', `is not a part idem-sim writes: it ${wrong.problem}`, `${WRITTEN_BY} If it is one, it was damaged: run that shard again.`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new InputError({ source: file }, '', 'is not JSON', `${WRITTEN_BY} If it is one, it was damaged: run that shard again.`);
  }
  const o = v as Record<string, unknown>;
  if (typeof v !== 'object' || v === null || Array.isArray(v) || typeof o['idem_sim_partial'] !== 'number') {
    throw new InputError({ source: file }, '', 'is not a partial result of idem-sim', WRITTEN_BY);
  }
  if (o['idem_sim_partial'] === 1) {
    throw new InputError({ source: file }, '', 'was written by an earlier idem-sim (partial format 1, which has no digest to check it by)',
      'Run that shard again with this version of idem-sim, and merge the new parts.');
  }
  if (o['idem_sim_partial'] !== PARTIAL_FORMAT) {
    throw new InputError({ source: file }, 'idem_sim_partial', `is not format ${PARTIAL_FORMAT}, the one this idem-sim reads`,
      'Merge with the idem-sim version that wrote the parts, or run every shard again with this one.');
  }
  const kind = o['kind'] === undefined ? 'run' : o['kind'] === 'sweep' ? 'sweep' : new PartChecker(file).fail('kind', 'is neither absent (a run) nor "sweep"');
  return { file, kind, fields: o, intact: sealIntact(text) };
}

/**
 * The checks every part shares, before and after its fields: the version first (another
 * version may seal differently, and "run it with the same version" is the fix), then the seal.
 */
export function checkVersionAndSeal(c: PartChecker, part: OpenedPart, firstVersion: { file: string; version: string } | undefined): string {
  const version = c.string(part.fields['version'], 'version', 64, PRINTABLE_TEXT);
  if (firstVersion && version !== firstVersion.version) {
    c.fail('', `the idem-sim version differs from ${firstVersion.file}'s`, 'Run every shard with the same idem-sim version.');
  }
  if (part.intact === undefined) c.fail('digest', 'is missing or not the last field');
  if (!part.intact) c.fail('digest', 'does not match the content');
  return version;
}

/** Shard `i/n` of the part, checked: 1 <= i <= n <= MAX_SHARDS. */
export function checkShard(c: PartChecker, v: unknown): { index: number; count: number } {
  const o = c.object(v, 'shard', ['index', 'count']);
  const count = c.int(o['count'], 'shard.count', 1, MAX_SHARDS);
  return { index: c.int(o['index'], 'shard.index', 1, count), count };
}

/** A scenario's fingerprint must be the hash of the scenario the part holds (plus its data's). */
export function checkFingerprint(c: PartChecker, field: string, v: unknown, scenario: WrittenScenario): string {
  const fingerprint = c.string(v, field, 129, FINGERPRINT);
  if (fingerprint.slice(0, 64) !== sha256(JSON.stringify(echoed(scenario)))) c.fail(field, 'is not the hash of the scenario the part holds');
  return fingerprint;
}

/** The grid step the runner uses for a whole run of `scenario` (no --precision: shards cannot have one). */
export function checkGridStep(c: PartChecker, field: string, v: unknown, scenario: WrittenScenario): number {
  const step = c.number(v, field);
  if (step !== gridStepFor(scenario)) c.fail(field, 'is not the grid step of the scenario the part holds');
  return step;
}

/** "shard 2/5 missing", or the first few of many. */
export function missingShards(count: number, seen: { has(i: number): boolean; readonly size: number }): InputError | undefined {
  if (seen.size === count) return undefined;
  const shown: string[] = [];
  for (let i = 1; i <= count && shown.length < 10; i++) if (!seen.has(i)) shown.push(`${i}/${count}`);
  const more = count - seen.size - shown.length;
  return new InputError(undefined, '', `shard${count - seen.size > 1 ? 's' : ''} ${shown.join(', ')}${more > 0 ? ` and ${more.toLocaleString('en-US')} more` : ''} missing`,
    'Pass the partial results of every shard.');
}

/** The primary actions shard `shard` simulates of a run of `actions`: those of its chunks (runner.ts). */
export function shardPrimaries(actions: number, shard: { index: number; count: number }): number {
  const [from, to] = shardRange(chunkCount(actions), shard);
  return Math.min(to * CHUNK_ACTIONS, actions) - Math.min(from * CHUNK_ACTIONS, actions);
}

/** Adds up the parts of a sharded run, one at a time, checking each fully. */
export class RunMerger {
  private first: { file: string; version: string; p: Partial } | undefined;
  private states: RunState[] = [];
  private readonly shards = new Map<number, string>();
  /** A run's sums by their hash: two shards never simulate the same numbers. */
  private readonly sums = new Map<string, string>();

  add(part: OpenedPart): void {
    const c = new PartChecker(part.file);
    const version = checkVersionAndSeal(c, part, this.first);
    const o = c.object(part.fields, '', ['idem_sim_partial', 'version', 'shard', 'replay_args', 'runs', 'digest'], ['series_step']);
    const shard = checkShard(c, o['shard']);
    const replayArgs = c.strings(o['replay_args'], 'replay_args');
    const replay = readReplay(c, replayArgs, 'run');
    const seriesStep = o['series_step'] === undefined || o['series_step'] === null ? null : c.number(o['series_step'], 'series_step', 1, MAX_DURATION_MS);
    // Parts of builds before series_step carry series without saying which step was asked for.
    if (o['series_step'] === undefined && Array.isArray(o['runs']) && o['runs'].some((r) => (r as { state?: { series?: unknown } } | null)?.state?.series !== undefined)) {
      c.fail('series_step', 'is missing: the part was written by an earlier idem-sim, which did not record the series step', 'Run that shard again with this idem-sim.');
    }
    const runs = c.array(o['runs'], 'runs', 1, 10_000).map((r, i) => this.run(c, `runs[${i}]`, r, shard, seriesStep ?? undefined));
    checkRunReplay(c, replay, runs, seriesStep);
    const p: Partial = { idem_sim_partial: PARTIAL_FORMAT, version, shard, replay_args: replayArgs, series_step: seriesStep, runs };
    const first = this.first ?? { file: part.file, version, p };
    const differs = (what: string, fix: string) => c.fail('', `${what} differs from ${first.file}'s`, fix);
    if (shard.count !== first.p.shard.count) differs('the shard count', 'Merge the parts of one sharded run only.');
    if (JSON.stringify(replayArgs) !== JSON.stringify(first.p.replay_args) || seriesStep !== first.p.series_step || runs.length !== first.p.runs.length) {
      differs('the command', 'Run every shard with the same scenarios and options.');
    }
    runs.forEach((r, i) => {
      const f = first.p.runs[i] as PartialRun;
      if (r.name !== f.name || r.file !== f.file) differs(`the name of run ${i + 1}`, 'Run every shard with the same scenario files.');
      if (r.seed !== f.seed) differs(`the seed of ${r.name}`, 'Run every shard with the same --seed.');
      if (r.fingerprint !== f.fingerprint) differs(`the scenario ${r.name}`, 'Run every shard on the same scenario files and --set options.');
    });
    const other = this.shards.get(shard.index);
    if (other !== undefined) c.fail('', `shard ${shard.index}/${shard.count} is also in ${other}`, 'Pass each shard once.');
    runs.forEach((r, i) => {
      if (r.state.primaries === 0) return;
      const key = `${i}:${sha256(JSON.stringify(r.state))}`;
      const copy = this.sums.get(key);
      if (copy !== undefined) c.fail('', `holds the same sums as ${copy}: a copy of another shard's part under a new shard number`, 'Pass the part each shard wrote; run the missing shard again.');
      this.sums.set(key, part.file);
    });
    this.shards.set(shard.index, part.file);
    if (!this.first) {
      this.first = first;
      this.states = runs.map((r) => new RunState(r.grid_step, 0, r.state.series?.step ?? null));
    }
    runs.forEach((r, i) => (this.states[i] as RunState).addData(r.state));
    for (const r of runs) Reflect.deleteProperty(r, 'state'); // added up: let the sums go
  }

  private run(c: PartChecker, field: string, v: unknown, shard: { index: number; count: number }, asked: number | undefined): PartialRun {
    // `warnings` came later than format 2: a part without them has none.
    const o = c.object(v, field, ['name', 'file', 'seed', 'scenario', 'fingerprint', 'grid_step', 'state'], ['warnings']);
    const scenario = c.scenario(o['scenario'], `${field}.scenario`);
    const gridStep = checkGridStep(c, `${field}.grid_step`, o['grid_step'], scenario);
    const run: PartialRun = {
      name: c.string(o['name'], `${field}.name`, 4096, PRINTABLE_TEXT), file: o['file'] === null ? null : c.string(o['file'], `${field}.file`),
      seed: c.string(o['seed'], `${field}.seed`, 200, SEED_TEXT), scenario,
      warnings: o['warnings'] === undefined ? [] : c.array(o['warnings'], `${field}.warnings`, 0, 100).map((w, k) => c.string(w, `${field}.warnings[${k}]`, 4096, PRINTABLE_TEXT)), fingerprint: checkFingerprint(c, `${field}.fingerprint`, o['fingerprint'], scenario),
      grid_step: gridStep, state: c.runState(o['state'], `${field}.state`, gridStep, seriesStepOf(scenario, asked), isCoupled(scenario), hasTrigger(scenario)),
    };
    if (run.seed === '') c.fail(`${field}.seed`, 'is empty');
    if (run.state.primaries !== shardPrimaries(primaryCount(scenario, run.seed), shard)) {
      c.fail(`${field}.state.primaries`, `is not the number of actions in the chunks of shard ${shard.index}/${shard.count}`);
    }
    return run;
  }

  /** The merged runs, once every shard is in; throws for a missing one. */
  finish(): { runs: ScenarioRun[]; version: string; replayArgs: string[] } {
    const first = this.first;
    if (!first) throw new InputError(undefined, '', 'no partial results given', WRITTEN_BY);
    const missing = missingShards(first.p.shard.count, this.shards);
    if (missing) throw missing;
    // The shards' command asked for the series it prints (their alerts' series is counted, not printed).
    const shown = first.p.series_step !== null;
    const runs = first.p.runs.map((r, i): ScenarioRun => ({
      name: r.name, file: r.file, seed: r.seed, scenario: r.scenario, warnings: r.warnings, metrics: (this.states[i] as RunState).finish(r.scenario),
      ...timeResults(r.scenario, this.states[i] as RunState, shown),
    }));
    return { runs, version: first.version, replayArgs: first.p.replay_args };
  }
}

/** Reads, checks and adds up the parts of a run (texts in hand: for tests and small merges). */
export function mergePartials(parts: readonly { file: string; text: string }[]): { runs: ScenarioRun[]; version: string; replayArgs: string[] } {
  const merger = new RunMerger();
  for (const { file, text } of parts) {
    const part = openPart(file, text);
    if (part.kind !== 'run') throw new InputError({ source: file }, '', 'is a part of a sweep, not of a run', 'Merge the parts of one sharded run, or of one sharded sweep.');
    merger.add(part);
  }
  return merger.finish();
}
