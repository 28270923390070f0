/** Merging the parts of a sharded sweep: each checked whole, its points gathered into the sweep the unsharded one reports. */
import type { ChalkInstance } from 'chalk';
import { isSweepMetric, type SweepMetric } from '../sweeps/metric.js';
import { MAX_FIND, parseFind, type FindCondition } from '../sweeps/find.js';
import { MAX_DURATION_MS } from '../model/limits.js';
import { InputError } from '../scenario/errors.js';
import { RunState } from '../results/metrics.js';
import { shardRange } from '../engine/plan.js';
import { primaryCount } from '../model/clock.js';
import { alertsOnly, timeResults } from '../results/time-results.js';
import { seriesStepOf } from '../results/alerts.js';
import { isCoupled } from '../model/capacity.js';
import { hasTrigger } from '../results/delivery.js';
import { alertReadings, MAX_ALERT_READINGS, tooManyReadings } from '../sweeps/readings.js';
import { shellQuote } from '../scenario/shell-quote.js';
import { MAX_POINTS } from '../sweeps/grid.js';
import { parseKeyPath } from '../scenario/overrides.js';
import { PartChecker } from './part-check.js';
import { checkSweepReplay, readReplay } from './part-replay.js';
import { checkFingerprint, checkGridStep, checkShard, checkVersionAndSeal, FINGERPRINT, missingShards, type OpenedPart } from './partial.js';
import { PRINTABLE_TEXT, SEED_TEXT } from '../scenario/printable.js';
import { forbiddenPart } from '../scenario/document.js';
import { labelChars, MAX_LABEL_CHARS, pointLabel, type Label } from '../sweeps/labels.js';
import type { SweepPointResult } from '../report/sweep.js';
import { renderSweep, type SweepFormat } from '../report/sweep-reporters.js';

interface SweepHead {
  file: string;
  version: string;
  count: number;
  replayArgs: string[];
  sweep: {
    scenario: string | null; fingerprint: string; paths: string[]; points: number; seed: string; metric: SweepMetric; log_paths: string[];
    /** `--find`'s conditions as given, and `--series`' step (ms), when the sweep had them. */
    find?: string[]; series_step?: number;
  };
}

const SWEEP_KEYS = ['scenario', 'fingerprint', 'paths', 'points', 'seed', 'metric'] as const;

/** Gathers the points of a sharded sweep, one part at a time; each point's sums become its metrics at once. */
export class SweepMerger {
  private head: SweepHead | undefined;
  private points: (SweepPointResult | undefined)[] = [];
  private readonly shards = new Map<number, string>();
  /** The alert readings of the points gathered so far (sweeps/readings.ts). */
  private readings = 0;

  add(part: OpenedPart): void {
    const c = new PartChecker(part.file);
    const version = checkVersionAndSeal(c, part, this.head);
    const o = c.object(part.fields, '', ['idem_sim_partial', 'kind', 'version', 'shard', 'replay_args', 'sweep', 'points', 'digest']);
    const shard = checkShard(c, o['shard']);
    const replayArgs = c.strings(o['replay_args'], 'replay_args');
    const replay = readReplay(c, replayArgs, 'sweep');
    const head: SweepHead = { file: part.file, version, count: shard.count, replayArgs, sweep: this.sweep(c, o['sweep']) };
    checkSweepReplay(c, replay, head.sweep);
    const first = this.head ?? head;
    const same = (what: string, a: unknown, b: unknown, fix: string) => {
      if (JSON.stringify(a) !== JSON.stringify(b)) c.fail('', `${what} differs from ${first.file}'s`, fix);
    };
    same('the scenario', head.sweep.fingerprint, first.sweep.fingerprint, 'Run every shard on the same scenario file (it changed between shards).');
    same('the command', head.replayArgs, first.replayArgs, 'Run every shard with the same scenario, --vary, --set and --seed.');
    same('the sweep', head.sweep, first.sweep, 'Run every shard with the same scenario, --vary, --set and --seed.');
    same('the shard count', shard.count, first.count, 'Merge the parts of one sharded sweep only.');
    const other = this.shards.get(shard.index);
    if (other !== undefined) c.fail('', `shard ${shard.index}/${shard.count} is also in ${other}`, 'Pass each shard once.');
    // A shard holds exactly its points, in order: a part relabelled as another shard holds another shard's.
    const [from, to] = shardRange(head.sweep.points, shard);
    const points = c.array(o['points'], 'points', to - from, to - from);
    if (!this.head) {
      this.head = head;
      this.points = new Array<SweepPointResult | undefined>(head.sweep.points);
    }
    points.forEach((v, k) => { this.points[from + k] = this.point(c, `points[${k}]`, v, from + k, head.sweep); });
    this.shards.set(shard.index, part.file);
  }

  private sweep(c: PartChecker, v: unknown): SweepHead['sweep'] {
    const o = c.object(v, 'sweep', [...SWEEP_KEYS, 'log_paths'], ['find', 'series_step']);
    const paths = c.strings(o['paths'], 'sweep.paths', 1_000);
    if (paths.length === 0) c.fail('sweep.paths', 'is empty');
    if (paths.some((p) => !PRINTABLE_TEXT.test(p) || parseKeyPath(p) === undefined || forbiddenPart(p) !== undefined)) c.fail('sweep.paths', 'holds a key path idem-sim would not write');
    if (new Set(paths).size !== paths.length) c.fail('sweep.paths', 'names a key twice');
    const logPaths = c.strings(o['log_paths'], 'sweep.log_paths', paths.length);
    if (logPaths.some((p) => !paths.includes(p))) c.fail('sweep.log_paths', 'names a key that is not varied');
    const metric = c.string(o['metric'], 'sweep.metric', 256);
    if (!isSweepMetric(metric)) c.fail('sweep.metric', 'is not a reading idem-sim knows');
    const find = o['find'] === undefined ? undefined : c.strings(o['find'], 'sweep.find', MAX_FIND);
    if (find !== undefined) findOf(c, find);
    const step = o['series_step'] === undefined ? undefined : c.number(o['series_step'], 'sweep.series_step', 1, MAX_DURATION_MS);
    const seed = c.string(o['seed'], 'sweep.seed', 200, SEED_TEXT);
    if (seed === '') c.fail('sweep.seed', 'is empty');
    return {
      scenario: o['scenario'] === null ? null : c.string(o['scenario'], 'sweep.scenario'),
      fingerprint: c.string(o['fingerprint'], 'sweep.fingerprint', 129, FINGERPRINT),
      paths, points: c.int(o['points'], 'sweep.points', 1, MAX_POINTS), seed, metric, log_paths: logPaths,
      ...(find !== undefined ? { find } : {}), ...(step !== undefined ? { series_step: step } : {}),
    };
  }

  private point(c: PartChecker, field: string, v: unknown, index: number, { paths, seed, points, series_step }: SweepHead['sweep']): SweepPointResult {
    const o = c.object(v, field, ['index', 'params', 'scenario', 'fingerprint', 'grid_step', 'state']);
    if (c.int(o['index'], `${field}.index`) !== index) c.fail(`${field}.index`, `is not ${index}, the point this shard holds there`);
    const params = c.object(o['params'], `${field}.params`, paths);
    for (const p of paths) {
      const value = params[p];
      if (typeof value === 'string') c.string(value, `${field}.params`, MAX_LABEL_CHARS);
      else if (typeof value === 'number') c.number(value, `${field}.params`, -Number.MAX_VALUE);
      else if (typeof value !== 'boolean' && value !== null) c.fail(`${field}.params`, 'holds a value that is not a string, number, boolean or null');
    }
    if (labelChars(params as Record<string, Label | null>) > MAX_LABEL_CHARS) c.fail(`${field}.params`, `holds more than ${MAX_LABEL_CHARS} characters, more than a sweep writes`);
    const scenario = c.scenario(o['scenario'], `${field}.scenario`);
    this.readings += alertReadings(scenario);
    if (this.readings > MAX_ALERT_READINGS) throw tooManyReadings(c.file, points, scenario);
    checkFingerprint(c, `${field}.fingerprint`, o['fingerprint'], scenario);
    // The values the point is labelled with are its scenario's (a duration in ms, a mapping as JSON; `none` has no number).
    for (const p of paths) {
      const own = pointLabel(scenario, parseKeyPath(p) ?? []);
      if (own !== undefined && own !== params[p]) c.fail(`${field}.params`, `holds a value of ${p} that is not its scenario's`);
    }
    const step = checkGridStep(c, `${field}.grid_step`, o['grid_step'], scenario);
    // A sweep counts a point's series only for its alerts, on --series' step when it was given.
    const state = c.runState(o['state'], `${field}.state`, step, seriesStepOf(scenario, series_step), isCoupled(scenario), hasTrigger(scenario));
    // With load.duration the point's primaries are the Poisson count its seed draws (model/clock.ts).
    if (state.primaries !== primaryCount(scenario, seed)) c.fail(`${field}.state.primaries`, 'is not the scenario\'s actions: a point is simulated whole');
    const sums = new RunState(step, 0, state.series?.step ?? null);
    sums.addData(state);
    return { params: params as SweepPointResult['params'], metrics: sums.finish(scenario), ...alertsOnly(timeResults(scenario, sums, false)) };
  }

  async render(format: SweepFormat, chalk: ChalkInstance): Promise<string> {
    const head = this.head as SweepHead;
    const missing = missingShards(head.count, this.shards);
    if (missing) throw missing;
    const s = head.sweep;
    return renderSweep({
      scenario: s.scenario, paths: s.paths, seed: s.seed, version: head.version, replay: head.replayArgs.map(shellQuote).join(' '),
      points: this.points as SweepPointResult[], logPaths: s.log_paths, ...(s.find ? { find: findOf(new PartChecker(head.file), s.find) } : {}),
    }, format, s.metric, chalk);
  }
}

/** A part's --find conditions read again (a condition idem-sim would not take is a damaged part). */
function findOf(c: PartChecker, texts: readonly string[]): FindCondition[] {
  return texts.map((text) => {
    try {
      return parseFind(text);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      return c.fail('sweep.find', 'holds a condition idem-sim would not take');
    }
  });
}
