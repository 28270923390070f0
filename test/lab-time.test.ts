/**
 * The lab over time, in-process: the incident knob (a pause, a capacity drop or a slowdown in
 * `incidents[0]`) says what `--set` says and reads back; the actions knob shows the count
 * `load.duration` brings, not an `actions` the run does not use; the page counts the run's series
 * in buckets fine enough for a 30-second pause yet gives the CLI's numbers (whose series, with
 * incidents, is in minutes) and its alerts; and its charts shade the window of a storm that
 * outlives it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/exec/simulate.js';
import { labRun } from '../src/lab/engine.js';
import { runCommandLine } from '../src/lab/command.js';
import { KNOB_KEYS, knobSpec, switchedKeys, switchOf, unitText } from '../src/lab/knobs.js';
import { knobOverrides, knobState, switchedOnTexts, type KnobState } from '../src/lab/overrides.js';
import { actionsNote, byDuration, INCIDENT, INCIDENT_KEYS, incidentName, roughly } from '../src/lab/time-knobs.js';
import { chartStep, coarser, TIME_COUNTS } from '../src/lab/time-view.js';
import { listedSeriesJson } from '../src/lab/series-json.js';
import type { RunRequest } from '../src/lab/protocol.js';
import { NUM_SERIES, SER, type SeriesCounts } from '../src/model/series.js';
import { roundNoise } from '../src/report/json.js';
import { parseOverrides } from '../src/scenario/overrides.js';
import { parseScenario, type Override } from '../src/scenario/parse.js';
import { parseRunnable, ROOT } from './helpers.js';

/** scenarios/capacity-storm.yaml's service (26 workers at about 70% busy, blind retries, a 1 s timeout) for 4 minutes, with no incident. */
const STORM = `load: {rate_per_s: 50, duration: 4m}
service:
  latency: {median: 300ms, sigma: 0.6}
  capacity: {workers: 26}
client: {timeout: 1s, retries: 3}
`;

const stateOf = (yaml: string, sets: string[] = []): KnobState => knobState(parseScenario(yaml, 'x', parseOverrides({ set: sets })).scenario, '1');
const options = (state: KnobState, base: KnobState) => knobOverrides(state, base).map((o) => o.option);
const withTexts = (state: KnobState, texts: Record<string, string>): KnobState => ({ ...state, texts: { ...state.texts, ...texts } });
const rounded = (x: unknown) => JSON.parse(JSON.stringify(x, roundNoise)) as unknown;

function request(text: string, overrides: Override[], seed = '1'): RunRequest {
  return { kind: 'run', id: 1, text, source: 'storm.yaml', overrides, seed, data: {}, histograms: {}, command: runCommandLine('storm.yaml', overrides, seed), version: 'test', name: 'storm.yaml' };
}

/** Count `name` per second over [from, to) ms of a series. */
function rate(s: SeriesCounts, name: keyof typeof SER, from: number, to: number): number {
  let sum = 0;
  for (let b = Math.ceil(from / s.step); b < Math.min(s.buckets, to / s.step); b++) sum += s.counts[b * NUM_SERIES + SER[name]] as number;
  return sum / ((to - from) / 1000);
}

describe('the incident knob', () => {
  it('is the scenario\'s first window behind a switch: from, to, the workers in it and a latency multiplier, blank as outside the window', () => {
    for (const key of [INCIDENT, ...Object.values(INCIDENT_KEYS)]) expect(KNOB_KEYS, key).toContain(key);
    expect(knobSpec(INCIDENT)?.kind).toBe('switch');
    expect(switchedKeys(INCIDENT)).toEqual([INCIDENT_KEYS.from, INCIDENT_KEYS.to, INCIDENT_KEYS.workers, INCIDENT_KEYS.multiplier]);
    expect(switchOf(INCIDENT_KEYS.workers)).toBe(INCIDENT);
    expect(knobSpec(INCIDENT_KEYS.from)?.kind).toBe('duration');
    expect(knobSpec(INCIDENT_KEYS.workers)).toMatchObject({ kind: 'count', min: 0, blank: 'blank: as outside the window' });
    expect(knobSpec(INCIDENT_KEYS.multiplier)).toMatchObject({ kind: 'number', min: 0, blank: 'blank: as outside the window' });
    expect(unitText('count', '', INCIDENT_KEYS.workers)).toBe('as outside the window');
  });

  it('offers, switched off, a window from a third of the load lasting an eighth of it up to 30 s: a pause of a service with workers, else a slowdown', () => {
    expect([roughly(26_667), roughly(450_000), roughly(80_000)]).toEqual([30_000, 500_000, 80_000]);
    // Lab defaults: 4,000 actions at 50/s arrive over 80 s, so from 30 s (26.7 s roughly) for 10 s; no workers: latency ×4.
    const lab = stateOf('');
    expect(Object.values(INCIDENT_KEYS).map((k) => lab.texts[k])).toEqual(['30s', '40s', '', '4']);
    expect(lab.texts[INCIDENT]).toBe('false');
    const storm = stateOf(STORM);
    expect(Object.values(INCIDENT_KEYS).map((k) => storm.texts[k])).toEqual(['80s', '110s', '0', '']);
    const file = stateOf(readFileSync(join(ROOT, 'scenarios/capacity-storm.yaml'), 'utf8'));
    expect([INCIDENT, ...Object.values(INCIDENT_KEYS)].map((k) => file.texts[k])).toEqual(['true', '10m', '10.5m', '0', '']);
  });

  it('switched on writes the window\'s name and every knob not blank; its knobs then change it key by key; switched off is incidents=none', () => {
    const base = stateOf(STORM);
    expect(options(withTexts(base, { [INCIDENT]: 'true' }), base)).toEqual([
      '--set incidents[0].name=pause', '--set incidents[0].from=80s', '--set incidents[0].to=110s', '--set incidents[0].service.capacity.workers=0',
    ]);
    expect(options(withTexts(base, { [INCIDENT]: 'true', [INCIDENT_KEYS.workers]: '13', [INCIDENT_KEYS.multiplier]: '2' }), base)).toEqual([
      '--set incidents[0].name=capacity-drop', '--set incidents[0].from=80s', '--set incidents[0].to=110s',
      '--set incidents[0].service.capacity.workers=13', '--set incidents[0].service.latency_multiplier=2',
    ]);
    expect(options(withTexts(base, { [INCIDENT_KEYS.to]: '3m' }), base)).toEqual([]);
    const paused = stateOf(`${STORM}incidents: [{name: gc, from: 1m, to: 70s, service: {capacity: {workers: 0}}}]\n`);
    expect(options(withTexts(paused, { [INCIDENT_KEYS.to]: '2m', [INCIDENT_KEYS.multiplier]: '3' }), paused))
      .toEqual(['--set incidents[0].to=2m', '--set incidents[0].service.latency_multiplier=3']);
    expect(options(withTexts(paused, { [INCIDENT]: 'false' }), paused)).toEqual(['--set incidents=none']);
    expect([incidentName({ [INCIDENT_KEYS.multiplier]: '4' }), incidentName({}), incidentName({ [INCIDENT_KEYS.workers]: ' 0 ' })]).toEqual(['slowdown', 'incident', 'pause']);
  });

  it('reads back: the scenario its overrides make shows the knobs that made them', () => {
    const base = stateOf(STORM);
    const state = withTexts(base, { [INCIDENT]: 'true', [INCIDENT_KEYS.from]: '100s', [INCIDENT_KEYS.workers]: '5', [INCIDENT_KEYS.multiplier]: '1.5' });
    const written = parseScenario(STORM, 'x', knobOverrides(state, base)).scenario;
    expect(written.incidents).toEqual([expect.objectContaining({ name: 'capacity-drop', from: 100_000, to: 110_000 })]);
    expect(knobState(written, '1').texts).toEqual(state.texts);
  });

  it('turned on by a person becomes a pause when the service has workers now, a slowdown when not; a file\'s own window keeps its keys', () => {
    const base = stateOf('');
    expect(switchedOnTexts(INCIDENT, withTexts(base, { 'service.capacity': 'true' }), base)).toEqual({ [INCIDENT_KEYS.workers]: '0', [INCIDENT_KEYS.multiplier]: '' });
    expect(switchedOnTexts(INCIDENT, base, base)).toEqual({ [INCIDENT_KEYS.workers]: '', [INCIDENT_KEYS.multiplier]: '4' });
    const paused = stateOf(`${STORM}incidents: [{name: gc, from: 1m, to: 70s, service: {capacity: {workers: 0}}}]\n`);
    expect(switchedOnTexts(INCIDENT, paused, paused)).toEqual({});
    expect(switchedOnTexts('client.breaker', base, base)).toEqual({});
  });
});

describe('the actions knob', () => {
  it('shows the arrivals load.duration brings (it showed the 4,000 actions the run does not use), and writes no --actions while it does', () => {
    const storm = stateOf(readFileSync(join(ROOT, 'scenarios/capacity-storm.yaml'), 'utf8'));
    // 50 a second for 30 minutes: 90,000 expected; the page then shows the count simulated.
    expect(storm.texts['actions']).toBe('90000');
    expect(byDuration(storm.texts)).toBe(true);
    expect(options(withTexts(storm, { actions: '89651' }), storm)).toEqual([]);
    expect(options(withTexts(storm, { actions: '89651', 'load.duration': 'none' }), storm)).toEqual(['--set load.duration=none', '--actions 89651']);
    const lab = stateOf('');
    expect([lab.texts['actions'], lab.texts['load.duration'], lab.texts['load.rate_per_s']]).toEqual(['4000', 'none', '50']);
    expect(options(withTexts(lab, { 'load.duration': '2m', actions: '800' }), lab)).toEqual(['--set load.duration=2m']);
    expect([actionsNote(true, false), actionsNote(true, true), actionsNote(false, true)]).toEqual(['expected: set by load.duration', 'simulated: set by load.duration', '']);
  });
});

describe('the run over time', () => {
  it('is counted in the finest buckets that give at most 150 over the load and divide the CLI\'s minute (none without incidents or alerts)', () => {
    const at = (yaml: string, cli: number | null) => chartStep(parseScenario(yaml, 'x').scenario, cli);
    expect(at('', null)).toBe(1000); // 80 s of arrivals
    expect(at(STORM, 60_000)).toBe(2000);
    expect(at('load: {rate_per_s: 50, duration: 30m}', 60_000)).toBe(15_000);
    expect(at('load: {rate_per_s: 50, duration: 1h}', 60_000)).toBe(30_000);
    expect(at('load: {rate_per_s: 50, duration: 7d}', 60_000)).toBe(60_000);
    expect(at('load: {rate_per_s: 50, duration: 7d}', null)).toBe(120 * 60_000);
  });

  it('summed minute by minute is the CLI\'s series, and gives its numbers and alerts: the quiet time\'s figures read the minutes, not the page\'s buckets', () => {
    const text = `${STORM}incidents: [{name: pause, from: 80s, to: 110s, service: {capacity: {workers: 0}}}]
alerts: [{name: timeouts, metric: timeouts, above: 5, for: 1m}]
`;
    const page = labRun(request(text, []));
    const scenario = parseRunnable(text);
    const cli = simulate(scenario, '1', 60_000);
    expect(page.time?.step).toBe(2000);
    expect(coarser(page.time?.series as SeriesCounts, 60_000)).toEqual(cli.series);
    expect(page.metrics).toEqual(rounded(cli.metrics));
    // Finished on the page's own buckets, the quiet time's baselines would not be the CLI's.
    expect(rounded(simulate(scenario, '1', 2000).metrics)).not.toEqual(page.metrics);
    expect(page.goals).toEqual([]);
    expect(page.time?.charts.some((svg) => svg.includes('data-alert="timeouts"'))).toBe(true);
    expect(page.time?.alerts).toContain('<tr data-alert-row="timeouts">');
  });

  it('draws arrivals, attempts, timeouts and goodput with the window shaded, and the storm outlives it: the pause of 30 s leaves the service failing every call until the load ends', () => {
    const page = labRun(request(STORM, parseOverrides({ set: ['incidents[0].name=pause', 'incidents[0].from=80s', 'incidents[0].to=110s', 'incidents[0].service.capacity.workers=0'] })));
    const time = page.time;
    if (!time) throw new Error('no time view');
    expect(time.charts.map((svg) => /data-(?:series|reading)="(\w+)"/.exec(svg)?.[1])).toEqual(['saturated_share', 'arrivals', 'attempts', 'timeouts', 'succeeded', 'duplicates']);
    expect(TIME_COUNTS.slice(0, 4)).toEqual(['arrivals', 'attempts', 'timeouts', 'succeeded']);
    for (const svg of time.charts) expect(svg).toContain('<g class="incident" data-incident="pause" data-from-ms="80000" data-to-ms="110000">');
    expect(time.note).toContain('Shaded: pause from 1 min 20 s to 1 min 50 s (every worker paused (0 workers)).');
    // Before the pause: about 2 timeouts a second and the 50 calls a second succeed. From a minute after it to the load's end:
    // every attempt times out (hundreds a second) and no call succeeds.
    expect(rate(time.series, 'timeouts', 0, 80_000)).toBeLessThan(5);
    expect(rate(time.series, 'succeeded', 0, 80_000)).toBeGreaterThan(40);
    expect(rate(time.series, 'timeouts', 170_000, 240_000)).toBeGreaterThan(200);
    expect(rate(time.series, 'succeeded', 170_000, 240_000)).toBe(0);
    // The saturation readings say it in words, as the report's page does.
    expect(page.saturation).toContain('<strong>Saturation:</strong> pause: did not recover before the load ended (backlog cleared ');
    expect((page.metrics['recovered'] as Record<string, boolean>)['pause']).toBe(false);
    // Drawn first: every worker busy in every bucket from the pause's start to the load's end and after it, while the backlog drains;
    // its buckets in the load sum to saturated_share × T.
    const saturated = time.saturatedMs ?? [];
    for (let b = 80_000 / 2000; b < 240_000 / 2000; b++) expect(saturated[b]).toBe(2000);
    expect(saturated[240_000 / 2000]).toBeGreaterThan(0);
    const inLoad = saturated.slice(0, 240_000 / 2000).reduce((a, b) => a + b, 0);
    expect(inLoad / 240_000).toBeCloseTo(page.metrics['saturated_share'] as number, 6);
    expect(time.charts[0]).toContain('<g class="incident" data-incident="pause"');
    expect(time.note).toContain('The first is the share of each bucket with every worker busy');
    const json = listedSeriesJson(time.series, time.loadEnd, time.listed);
    expect(json.step_ms).toBe(2000);
    expect(json.buckets[0]).toMatchObject({ start_ms: 0, load_ms: 2000 });
    expect(Object.keys(json.buckets[0] ?? {})).toContain('succeeded');
  });

  it('with the guards of capacity-guards.yaml (a short queue shedding with Retry-After, a retry budget) comes back within a minute of the pause', () => {
    const page = labRun(request(STORM, parseOverrides({
      set: ['service.capacity.queue=26', 'service.capacity.retry_after=2s', 'client.retry_budget.tokens=500',
        'incidents[0].name=pause', 'incidents[0].from=80s', 'incidents[0].to=110s', 'incidents[0].service.capacity.workers=0'],
    })));
    const time = page.time;
    if (!time) throw new Error('no time view');
    expect(time.charts.map((svg) => /data-series="(\w+)"/.exec(svg)?.[1])).toEqual(expect.arrayContaining(['shed', 'budget_denied']));
    expect(rate(time.series, 'timeouts', 170_000, 240_000)).toBeLessThan(10);
    expect(rate(time.series, 'succeeded', 170_000, 240_000)).toBeGreaterThan(40);
    const cleared = /pause: backlog cleared ([\d.]+) (ms|s) after it ended<\/p>/.exec(page.saturation ?? '');
    expect(cleared).not.toBeNull();
    expect(Number(cleared?.[1]) * (cleared?.[2] === 's' ? 1000 : 1)).toBeLessThan(60_000);
  });
});
