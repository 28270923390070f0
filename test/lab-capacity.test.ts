/**
 * The lab's capacity knobs (docs/model.md, "Capacity"), in-process: the workers and queue, a
 * retry budget and a breaker each switch on and off as `--set` does, their knobs read back what
 * they wrote, a run with them gives the CLI's numbers and its capacity readings, and the page
 * shows a switched section's knobs only while it is on, and the readings' rows from the registry.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/exec/simulate.js';
import { labRun } from '../src/lab/engine.js';
import { runCommandLine } from '../src/lab/command.js';
import { KNOB_KEYS, knobSpec, switchedKeys, switchOf, unitText } from '../src/lab/knobs.js';
import { knobOverrides, knobState, type KnobState } from '../src/lab/overrides.js';
import { labPage } from '../src/lab/page.js';
import type { LabScenario } from '../src/lab/config.js';
import type { RunRequest } from '../src/lab/protocol.js';
import { metricTitle, METRICS } from '../src/results/metric-registry.js';
import { ALL_METRIC_PATHS } from '../src/results/metric-paths.js';
import { roundNoise } from '../src/report/json.js';
import { escapeHtml } from '../src/report/html.js';
import { parseOverrides } from '../src/scenario/overrides.js';
import { parseScenario } from '../src/scenario/parse.js';
import { parseRunnable } from './helpers.js';

const CAPACITY = ['service.capacity', ...['workers', 'queue', 'order', 'drop_expired', 'retry_after'].map((k) => `service.capacity.${k}`)];
const BUDGET = ['client.retry_budget', 'client.retry_budget.tokens'];
const BREAKER = ['client.breaker', ...['failure_rate', 'window', 'min_calls', 'open_for'].map((k) => `client.breaker.${k}`)];

const stateOf = (yaml: string, sets: string[] = []): KnobState => knobState(parseScenario(yaml, 'x', parseOverrides({ set: sets })).scenario, '1');
const options = (state: KnobState, base: KnobState) => knobOverrides(state, base).map((o) => o.option);
const withTexts = (state: KnobState, texts: Record<string, string>): KnobState => ({ ...state, texts: { ...state.texts, ...texts } });

describe('the capacity knobs', () => {
  it('are the keys of service.capacity, a retry budget with its tokens and a breaker with its four settings, each section behind its switch', () => {
    for (const key of [...CAPACITY, ...BUDGET, ...BREAKER]) expect(KNOB_KEYS, key).toContain(key);
    expect(['service.capacity', 'client.retry_budget', 'client.breaker'].map((k) => knobSpec(k)?.kind)).toEqual(['switch', 'switch', 'switch']);
    expect(switchedKeys('service.capacity')).toEqual(CAPACITY.slice(1));
    expect(switchedKeys('client.retry_budget')).toEqual(BUDGET.slice(1));
    expect(switchedKeys('client.breaker')).toEqual(BREAKER.slice(1));
    expect(switchOf('client.timeout')).toBeUndefined();
    expect(knobSpec('service.capacity.queue')).toMatchObject({ kind: 'count_or_unbounded', min: 0 });
    expect(knobSpec('service.capacity.order')?.values).toEqual(['fifo', 'lifo']);
    expect(knobSpec('service.capacity.drop_expired')?.kind).toBe('flag');
    expect(knobSpec('service.capacity.retry_after')?.kind).toBe('optional_duration');
    expect(knobSpec('client.breaker.failure_rate')?.kind).toBe('probability');
    expect(knobSpec('client.breaker.window')?.kind).toBe('duration');
  });

  it('show, switched off, what switching on gives: the defaults, and workers about 80% busy at the load', () => {
    const off = stateOf('');
    expect([off.texts['service.capacity'], off.texts['client.retry_budget'], off.texts['client.breaker']]).toEqual(['false', 'false', 'false']);
    // Lab defaults: 50 actions/s of lognormal(300 ms, 0.6), mean 300·e^0.18 = 359 ms: 17.96 busy workers, / 0.8 = 22.4, so 23.
    expect(CAPACITY.slice(1).map((k) => off.texts[k])).toEqual(['23', 'unbounded', 'fifo', 'false', 'none']);
    expect(off.texts['client.retry_budget.tokens']).toBe('500');
    expect(BREAKER.slice(1).map((k) => off.texts[k])).toEqual(['0.5', '10s', '20', '30s']);
    expect(stateOf('service: { latency: { dist: constant, value: 100ms } }').texts['service.capacity.workers']).toBe('');
    expect(unitText('count_or_unbounded', 'unbounded')).toBe('no limit');
    expect(unitText('optional_duration', 'none', 'service.capacity.retry_after')).toBe('no Retry-After');
    expect(unitText('optional_duration', 'none', 'client.deadline')).toBe('no limit');
  });

  it('switched on, set the keys a file must write and those changed; switched off, set none; an off section\'s knobs set nothing', () => {
    const base = stateOf('');
    expect(options(withTexts(base, { 'service.capacity': 'true' }), base)).toEqual(['--set service.capacity.workers=23']);
    expect(options(withTexts(base, { 'service.capacity': 'true', 'service.capacity.queue': '40', 'service.capacity.order': 'lifo' }), base))
      .toEqual(['--set service.capacity.workers=23', '--set service.capacity.queue=40', '--set service.capacity.order=lifo']);
    expect(options(withTexts(base, { 'client.retry_budget': 'true' }), base)).toEqual(['--set client.retry_budget.tokens=500']);
    expect(options(withTexts(base, { 'client.breaker': 'true', 'client.breaker.window': '5s' }), base)).toEqual(['--set client.breaker.window=5s']);
    expect(options(withTexts(base, { 'service.capacity.queue': '40', 'client.breaker.window': '5s' }), base)).toEqual([]);

    const file = 'service: { capacity: { workers: 8, queue: 16 } }\nclient: { retry_budget: aws-standard }\n';
    const on = stateOf(file);
    expect([on.texts['service.capacity'], on.texts['service.capacity.workers'], on.texts['service.capacity.queue'], on.texts['client.retry_budget.tokens']]).toEqual(['true', '8', '16', '500']);
    expect(options(withTexts(on, { 'service.capacity.queue': 'unbounded' }), on)).toEqual(['--set service.capacity.queue=unbounded']);
    expect(options(withTexts(on, { 'service.capacity': 'false', 'service.capacity.queue': '3', 'client.retry_budget': 'false' }), on))
      .toEqual(['--set client.retry_budget=none', '--set service.capacity=none']);
  });

  it('read back: the scenario their overrides make shows the knobs that made them', () => {
    const base = stateOf('');
    const state = withTexts(base, {
      'service.capacity': 'true', 'service.capacity.workers': '6', 'service.capacity.queue': '0', 'service.capacity.drop_expired': 'true', 'service.capacity.retry_after': '2s',
      'client.retry_budget': 'true', 'client.retry_budget.tokens': '80', 'client.breaker': 'true', 'client.breaker.min_calls': '5',
    });
    const again = knobState(parseScenario('', 'x', knobOverrides(state, base)).scenario, '1');
    // The incident the page offers (switched off) is a pause once the service has workers, a slowdown before.
    expect(again.texts).toEqual({ ...state.texts, 'incidents[0].service.capacity.workers': '0', 'incidents[0].service.latency_multiplier': '' });
    const off = knobState(parseScenario('service: { capacity: { workers: 8 } }', 'x', knobOverrides(withTexts(stateOf('service: { capacity: { workers: 8 } }'), { 'service.capacity': 'false' }), stateOf('service: { capacity: { workers: 8 } }'))).scenario, '1');
    expect(off.texts['service.capacity']).toBe('false');
  });
});

/** A run request as the page makes it for the lab defaults with `sets`. */
function request(sets: string[], actions: string): RunRequest {
  const overrides = parseOverrides({ set: sets, actions });
  return { kind: 'run', id: 1, text: '', source: '(built-in lab defaults)', overrides, seed: '3', data: {}, histograms: {}, command: runCommandLine(null, overrides, '3'), version: 'test', name: 'lab-defaults' };
}

describe('a lab run with capacity', () => {
  it('gives the CLI\'s numbers with the capacity readings, and a timeline whose legend names them', () => {
    const sets = ['service.capacity.workers=18', 'service.capacity.queue=20', 'client.retry_budget.tokens=100'];
    const page = labRun(request(sets, '6000'));
    const { metrics } = simulate(parseRunnable('', 'x', parseOverrides({ set: sets, actions: '6000' })), '3');
    expect(page.metrics).toEqual(JSON.parse(JSON.stringify(metrics, roundNoise)));
    for (const path of ['shed_per_1000', 'budget_denied_per_1000', 'queue_wait_ms', 'utilisation']) expect(page.metrics, path).toHaveProperty(path);
    expect(page.timeline).toContain('>waited for a worker (the lighter start)</text>');
    const plain = labRun(request([], '2000'));
    expect(plain.metrics).not.toHaveProperty('shed_per_1000');
    expect(plain.timeline).not.toContain('waited for a worker');
  });
});

describe('the page', () => {
  const start = (overrides: string[]): LabScenario => ({
    name: 'lab-defaults', source: '(built-in lab defaults)', file: null, text: '', overrides: parseOverrides({ set: overrides }), seed: '1', data: {}, histograms: {}, allowOutside: false, goals: [],
  });
  const knob = (page: string, key: string) => new RegExp(`<div class="knob[^"]*" data-knob="${key.replace(/\./g, '\\.')}"[^>]*>`).exec(page)?.[0] ?? '';

  it('shows a section\'s knobs only while its switch is on', () => {
    const off = labPage({ version: 'test', start: start([]), missions: [] }, { engine: '', ui: '' });
    expect(off).toMatch(/<input type="checkbox" id="k-service-capacity" data-key="service\.capacity" data-kind="switch"[^>]*>/);
    expect(knob(off, 'service.capacity')).not.toContain('hidden');
    for (const key of [...CAPACITY.slice(1), ...BUDGET.slice(1), ...BREAKER.slice(1)]) expect(knob(off, key), key).toMatch(/data-switch="[^"]+" hidden>$/);
    const on = labPage({ version: 'test', start: start(['service.capacity.workers=4']), missions: [] }, { engine: '', ui: '' });
    expect(on).toMatch(/data-key="service\.capacity" data-kind="switch"[^>]* checked>/);
    for (const key of CAPACITY.slice(1)) expect(knob(on, key), key).toMatch(/data-switch="service\.capacity">$/);
    expect(knob(on, 'client.breaker.window')).toMatch(/hidden>$/);
  });

  it('has a row for each capacity reading, titled by the registry, hidden until a run reports it', () => {
    const page = labPage({ version: 'test', start: start([]), missions: [] }, { engine: '', ui: '' });
    const capacity = ALL_METRIC_PATHS.filter((p) => METRICS[p].only === 'capacity');
    expect(capacity.length).toBeGreaterThan(0);
    for (const path of capacity) {
      expect(page).toContain(`<tr data-only="capacity" hidden><td>${escapeHtml(metricTitle(path))}</td><td><span class="value" data-metric="${path}">–</span></td></tr>`);
    }
  });
});
