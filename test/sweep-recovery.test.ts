/**
 * Recovery in sweeps (docs/sweeps.md, "Recovery"): each incident's recovery as one word, so that
 * a point that stormed before the incident or never recovered reads as neither a short backlog
 * nor an empty cell; --find's conditions and answer; the recovery chart's marks.
 */
import { describe, expect, it } from 'vitest';
import { renderCsv } from '../src/report/sweep-csv.js';
import { saturationCell, saturationColumns } from '../src/report/saturation-text.js';
import { answerLines, findAnswers, found, meets } from '../src/report/sweep-find.js';
import { recoveryChart } from '../src/report/sweep-recovery-chart.js';
import { paramAxes } from '../src/report/sweep-axes.js';
import { renderSweepTable, type SweepPointResult, type SweepReport } from '../src/report/sweep.js';
import { renderSweepJson } from '../src/report/sweep-json.js';
import { recoveryStatus, saturationReadings } from '../src/results/saturation.js';
import type { Metrics } from '../src/results/metrics.js';
import { parseFind } from '../src/sweeps/find.js';
import { parseScenario } from '../src/scenario/parse.js';
import { InputError } from '../src/scenario/errors.js';
import { sim } from './helpers.js';
import { Chalk } from 'chalk';

const MIN = 60_000;
const base = sim('', 200);

/** A point of `workers` with the readings of one incident, `pause`, from 10 min to 10.5 min. */
function point(workers: number, backlog: number, recovery: NonNullable<Metrics['recovery']>[string], stable = recovery !== 'stormed_before' && recovery !== 'stormed_after'): SweepPointResult {
  const recovered = recovery === 'not_recovered' ? false : recovery === 'at_load_end' ? null : true;
  return {
    params: { 'service.capacity.workers': workers },
    metrics: {
      ...base, load_end_ms: 30 * MIN, saturated_share: 0.5, offered_utilisation: 0.5, peak_offered_utilisation: 0.5,
      backlog_cleared_ms: { pause: backlog }, recovered: { pause: recovered }, overload_episodes: stable ? [] : [[6 * MIN, 11 * MIN]], stable, recovery: { pause: recovery },
    },
  };
}

const report = (points: SweepPointResult[], find: string[] = []): SweepReport => ({
  scenario: 's.yaml', paths: ['service.capacity.workers'], seed: '1', version: 'v', replay: 'idem-sim sweep s.yaml', points, ...(find.length ? { find: find.map(parseFind) } : {}),
});

/** The CSV as rows of named cells. */
function rows(csv: string): Record<string, string>[] {
  const [head = '', ...lines] = csv.trimEnd().split('\n');
  const names = head.split(',');
  // No cell of these columns holds a comma but overload_episodes (quoted JSON): split it out first.
  return lines.map((line) => {
    const cells = line.replace(/"[^"]*"/g, 'EPISODES').split(',');
    return Object.fromEntries(names.map((n, i) => [n, cells[i] ?? '']));
  });
}

describe('an incident\'s recovery in one word', () => {
  it('stormed_before when an overload episode began a minute or more before the incident, whatever its backlog; then not recovered, the load\'s end, stormed after, recovered', () => {
    const w = { name: 'slowdown', from: 10 * MIN, to: 20 * MIN };
    const only = [w];
    expect(recoveryStatus(w, only, true, [[w.from - MIN, w.from + 20_000]])).toBe('stormed_before');
    expect(recoveryStatus(w, only, false, [[2 * MIN, 5 * MIN]])).toBe('stormed_before'); // a storm over before the incident: the service storms by itself
    // An episode that normal load began a moment before `from` belongs to the incident (docs/model.md): outliving it is not storming before it.
    expect(recoveryStatus(w, only, false, [[w.from - 30_000, 50 * MIN]])).toBe('not_recovered');
    expect(recoveryStatus(w, only, null, [])).toBe('at_load_end');
    expect(recoveryStatus(w, only, true, [])).toBe('recovered');
    // The storm the incident set off outlived its 30 minutes (to + 30m = 50 min): recovered by the contract, an overload all the same.
    expect(recoveryStatus(w, only, true, [[w.from, 59.9 * MIN]])).toBe('stormed_after');
    expect(recoveryStatus(w, only, true, [[45 * MIN, 52 * MIN]])).toBe('stormed_after'); // began after the backlog cleared, within the half hour
    expect(recoveryStatus(w, only, true, [[50 * MIN, 53 * MIN]])).toBe('recovered'); // began past the half hour: no incident's
    expect(recoveryStatus(w, only, false, [[w.from, 59.9 * MIN]])).toBe('not_recovered'); // lasting past the load: not recovered wins
    // Two incidents: a 1 s blip at 10 min and a pause at 35 min whose storm outlives the pause. The episode is the pause's (the last
    // incident it meets), not the blip's, though it begins within the blip's half hour.
    const blip = { name: 'blip', from: 10 * MIN, to: 10 * MIN + 1000 }, pause = { name: 'pause', from: 35 * MIN, to: 35.5 * MIN };
    const storm: [number, number][] = [[35 * MIN, 80 * MIN]];
    expect(recoveryStatus(blip, [blip, pause], true, storm)).toBe('recovered');
    expect(recoveryStatus(pause, [blip, pause], true, storm)).toBe('stormed_after');
  });

  it('saturationReadings gives it per incident, from the engine\'s episodes', () => {
    const s = parseScenario('load: {rate_per_s: 1, duration: 30m}\nservice: {capacity: {workers: 1}}\nincidents:\n  - {name: a, from: 10m, to: 630s, service: {capacity: {workers: 0}}}\n  - {name: b, from: 20m, to: 1230s, service: {capacity: {workers: 0}}}\n  - {name: c, from: 29m, to: 31m, service: {capacity: {workers: 0}}}\n', 't.yaml').scenario;
    const data = { saturatedMs: 0, clearedMs: [1000, 2000, 3000], pastLoad: [false, true, false], overload: [[12 * MIN, 19 * MIN]] as [number, number][], offered: null };
    expect(saturationReadings(s, data, 30 * MIN).recovery).toEqual({ a: 'recovered', b: 'stormed_before', c: 'stormed_before' }); // every incident after the storm
    expect(saturationReadings(s, { ...data, overload: [] }, 30 * MIN).recovery).toEqual({ a: 'recovered', b: 'not_recovered', c: 'at_load_end' });
  });
});

describe('the CSV: a filter never reads a storm as a recovery', () => {
  const points = [point(20, 30_000, 'stormed_before'), point(100, 1_373_167, 'not_recovered'), point(140, 61_007, 'recovered'), point(150, 42_380, 'recovered')];

  it('recovery.INCIDENT says why beside a backlog that is always there; no cell is empty where a reading exists', () => {
    const csv = rows(renderCsv(report(points)));
    expect(csv.map((r) => r['recovery.pause'])).toEqual(['stormed_before', 'not_recovered', 'recovered', 'recovered']);
    expect(csv.map((r) => r['backlog_cleared_ms.pause'])).toEqual(['30000', '1373167', '61007', '42380']);
    expect(csv.map((r) => r['recovered.pause'])).toEqual(['true', 'false', 'true', 'true']);
    expect(csv.map((r) => r['stable'])).toEqual(['false', 'true', 'true', 'true']);
    // The spreadsheet's filter: recovery.pause = recovered and backlog_cleared_ms.pause <= 60000. The stormed point's 30 s backlog does not pass.
    expect(csv.filter((r) => r['recovery.pause'] === 'recovered' && Number(r['backlog_cleared_ms.pause']) <= 60_000).map((r) => r['param_service.capacity.workers'])).toEqual(['150']);
  });

  it('a point without service.capacity, or without the incident, says so in words', () => {
    const plain: SweepPointResult = { params: { 'service.capacity.workers': null }, metrics: base };
    const other = point(30, 0, 'recovered');
    other.metrics = { ...other.metrics, backlog_cleared_ms: {}, recovered: {}, recovery: {} };
    const ms = [points[0] as SweepPointResult, plain, other].map((p) => p.metrics);
    expect(saturationColumns(ms)).toEqual(['stable', 'overload_episodes', 'backlog_cleared_ms.pause', 'recovered.pause', 'recovery.pause']);
    expect(saturationCell(plain.metrics, 'recovery.pause')).toBe('no_capacity');
    expect(saturationCell(plain.metrics, 'backlog_cleared_ms.pause')).toBe('');
    expect(saturationCell(other.metrics, 'recovery.pause')).toBe('no_incident');
  });

  it('--find adds found: true only where the incident recovered within the bound', () => {
    const csv = rows(renderCsv(report(points, ['backlog_cleared_ms.pause<=60s'])));
    expect(csv.map((r) => r['found'])).toEqual(['false', 'false', 'false', 'true']);
    const plain = rows(renderCsv(report(points)));
    expect(Object.keys(plain[0] ?? {})).not.toContain('found');
  });
});

describe('--find', () => {
  it('reads READING OP VALUE as expect: reads a threshold, units and flags checked', () => {
    expect(parseFind('backlog_cleared_ms.pause <= 60s')).toEqual({ path: 'backlog_cleared_ms.pause', op: '<=', threshold: 60_000, text: 'backlog_cleared_ms.pause <= 60s' });
    expect(parseFind('stable==true')).toMatchObject({ path: 'stable', op: '==', threshold: 1 });
    expect(parseFind('duplicates_per_1000<5')).toMatchObject({ threshold: 5 });
    const problem = (text: string) => { try { parseFind(text); } catch (e) { return e instanceof InputError ? `${e.problem} | ${e.fix}` : String(e); } return 'taken'; };
    expect(problem('backlog_cleared_ms.pause<=60')).toMatch(/has no unit, but backlog_cleared_ms\.pause is a time \| Write <=60s or <=60ms/);
    expect(problem('duplicates_per_1000<5s')).toMatch(/has a time unit, but duplicates_per_1000 is not a time/);
    expect(problem('stable<1')).toMatch(/stable is true or false \| Write --find stable==true/);
    expect(problem('dupes<5')).toMatch(/is not a reading a sweep can chart/);
    expect(problem('backlog_cleared_ms.pause')).toMatch(/is not a condition of the form READING OP VALUE/);
  });

  it('a backlog condition holds only where the incident recovered: never at a storm before it, or a backlog that outlived the load', () => {
    const within = parseFind('backlog_cleared_ms.pause<=60s');
    expect(meets(point(20, 30_000, 'stormed_before'), within)).toBe(false);
    expect(meets(point(20, 30_000, 'not_recovered'), within)).toBe(false);
    expect(meets(point(20, 30_000, 'at_load_end'), within)).toBe(false);
    expect(meets(point(20, 30_000, 'recovered'), within)).toBe(true);
    expect(meets(point(20, 45 * MIN, 'stormed_after'), parseFind('backlog_cleared_ms.pause<=1h'))).toBe(false); // a storm outliving the pause: no recovery, however short the bound's reach
    expect(found(point(20, 30_000, 'recovered', false), [parseFind('backlog_cleared_ms.pause<=60s'), parseFind('stable==true')])).toBe(false);
  });

  it('answers with the least value of the first key, in numeric order, and says whether every value above it holds too', () => {
    const find = ['backlog_cleared_ms.pause<=60s'];
    const pts = [point(160, 33_000, 'recovered'), point(20, 30_000, 'stormed_before'), point(150, 42_000, 'recovered'), point(140, 61_000, 'recovered')];
    expect(answerLines(report(pts, find), report(pts, find).find ?? [])).toEqual(['least service.capacity.workers with backlog_cleared_ms.pause<=60s: 150 (and every value above it)']);
    const dip = [...pts, point(170, 70_000, 'not_recovered')];
    expect(findAnswers(report(dip, find), report(dip, find).find ?? [])).toEqual([{ at: {}, found: true, least: 150, every_value_above: false, fails_above: 170, last: false }]);
    const queues = [point(0, 0, 'recovered'), point(26, 149, 'recovered'), point(0, 1e6, 'not_recovered')].map((p, i) => ({ ...p, params: { 'service.capacity.workers': [0, 26, 'unbounded'][i] as number | string } }));
    expect(answerLines(report(queues, find), report(queues, find).find ?? [])).toEqual(['first service.capacity.workers in the order given with backlog_cleared_ms.pause<=60s: 0 (and every value after it)'.replace('and every value after it', 'not every value after it: unbounded does not')]);
    const none = [point(20, 30_000, 'stormed_before'), point(100, 1e6, 'not_recovered')];
    expect(answerLines(report(none, find), report(none, find).find ?? [])).toEqual(['no service.capacity.workers meets backlog_cleared_ms.pause<=60s (at 100: backlog (pause) not recovered)']);
  });

  it('the table marks the points and says the answer; JSON carries both', () => {
    const r = report([point(20, 30_000, 'stormed_before'), point(150, 42_000, 'recovered')], ['backlog_cleared_ms.pause<=60s']);
    const table = renderSweepTable(r, 'duplicates_per_1000', new Chalk({ level: 0 }));
    expect(table).toMatch(/│ 20 +│.*│ +stormed before │ no +│/);
    expect(table).toMatch(/│ 150 +│.*│ +42 s │ yes +│/);
    const after = renderSweepTable(report([point(30, 45 * MIN, 'stormed_after')]), 'duplicates_per_1000', new Chalk({ level: 0 }));
    expect(after).toMatch(/│ 30 +│.*│ +45 min \(stormed after\) │/);
    expect(table).toContain('found: least service.capacity.workers with backlog_cleared_ms.pause<=60s: 150 (the last value tried)');
    const doc = JSON.parse(renderSweepJson(r)) as { find: { conditions: string[] }; points: { found: boolean }[] };
    expect(doc.find.conditions).toEqual(['backlog_cleared_ms.pause<=60s']);
    expect(doc.points.map((p) => p.found)).toEqual([false, true]);
    expect(JSON.parse(renderSweepJson(report(r.points))).find).toBeUndefined();
  });
});

describe('a triggered sweep\'s table', () => {
  it('adds the actions redelivered and dead-lettered per 1000 where a point has a trigger, and only there', () => {
    const triggered = sim('trigger: {kind: webhook, ack_timeout: 1s, redeliveries: 2}\n', 400);
    const columns = (m: Metrics) => renderSweepTable({ ...report([{ params: { 'client.retries': 3 }, metrics: m }]), paths: ['client.retries'] }, 'duplicates_per_1000', new Chalk({ level: 0 })).split('\n')[1];
    expect(columns(triggered)).toMatch(/redelivered\/1000 │ dead-lettered\/1000 │$/);
    expect(columns(base)).not.toMatch(/redelivered/);
  });
});

describe('the recovery chart', () => {
  it('marks each point by its status, draws --find\'s bound, and keeps a storm\'s backlog from flattening the rest', () => {
    const r = report([point(20, 9_576_625, 'stormed_before'), point(100, 1_373_167, 'not_recovered'), point(140, 61_007, 'recovered'), point(150, 42_380, 'recovered')], ['backlog_cleared_ms.pause<=60s']);
    const [axis] = paramAxes(r);
    if (!axis) throw new Error('no axis');
    const spec = recoveryChart(r, axis, 'pause', 'rc') as unknown as { data: { values: { status: string; value: number }[] }; layer: { name: string; encoding: { y: { scale?: { domain: number[] } } } }[] };
    expect(spec.data.values.map((v) => v.status)).toEqual(['stormed before the incident', 'not recovered before the load ended', 'recovered', 'recovered']);
    expect(spec.layer.map((l) => l.name)).toEqual(['rc_points', 'rc_bound', 'rc_bound_text']);
    // The axis covers the recovered points and the bound (with room), not the storms' backlog: those are drawn on its top edge.
    const top = spec.layer[0]?.encoding.y.scale?.domain[1] ?? 0;
    expect(top).toBeGreaterThanOrEqual(75_000);
    expect(top).toBeLessThan(1_373_167);
  });
});
