/**
 * A trigger's readings in every output (docs/model.md, "Inbound delivery"): the source
 * `redelivery` beside transport, re-plan and replay, deliveries per action, actions redelivered
 * and dead-lettered per 1000, and the series `deliveries` and `dead_lettered`: in the table, JSON,
 * CSV, the sweep's columns, the series' listing, the report page and the lab; a run without a
 * trigger shows none of them (its bytes are test/golden's). The contract's constant-latency
 * webhook with `scope: none` gives exact numbers: 3 deliveries, 2000 duplicates per 1000, all of
 * them redeliveries', every action redelivered and dead-lettered.
 */
import { parseScenario } from '../src/scenario/parse.js';
import { Chalk } from 'chalk';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simulate } from '../src/exec/simulate.js';
import { breakdownSvg } from '../src/lab/breakdown.js';
import { TIME_COUNTS } from '../src/lab/time-view.js';
import { C, NUM_COUNTERS } from '../src/model/counters.js';
import { SERIES_NAMES, TRIGGER_SERIES, type SeriesCounts } from '../src/model/series.js';
import type { Trigger } from '../src/model/trigger.js';
import type { Scenario } from '../src/model/types.js';
import { breakdownSpec } from '../src/report/charts.js';
import { csvMetricPaths } from '../src/report/csv.js';
import { headline } from '../src/report/html-headline.js';
import { renderJson } from '../src/report/json.js';
import { renderRunsCsv } from '../src/report/runs-csv.js';
import { renderSeriesCsv } from '../src/report/series-csv.js';
import { renderCsv } from '../src/report/sweep-csv.js';
import { plannedShape, SweepColumns } from '../src/report/sweep-columns.js';
import { renderTable } from '../src/report/table.js';
import type { ScenarioRun } from '../src/report/types.js';
import { listedSeries } from '../src/results/capacity.js';
import { alertsWithoutTrigger, hasTrigger, triggerOnlyExpectation } from '../src/results/delivery.js';
import { ALL_METRIC_PATHS, METRICS, type MetricPath } from '../src/results/metric-registry.js';
import { PRECISION_METRICS } from '../src/results/precision.js';
import { check, type Expectation } from '../src/scenario/expect.js';
import { counterSums } from '../src/shards/part-capacity.js';
import { PartChecker } from '../src/shards/part-check.js';
import { checkSweepMetric } from '../src/sweeps/metric.js';
import { captured } from './command-line.js';
import { parseRunnable } from './helpers.js';

/** The contract's webhook: acknowledged after the step, 1 s to do it, two redeliveries at once. */
const WEBHOOK: Trigger = {
  kind: 'webhook', ack_timeout: 1000, ack: 'after_step', redeliveries: 2, schedule: [0], ack_loss: 0, consumer_crash: 0,
  run_id: 'per_delivery', extend_up_to: null, dedupe: 'none',
};
/** Constant 2 s, timeout 5 s, nothing retried, re-planned or lost: every delivery's run executes once. */
const YAML = 'actions: 2000\nload: {rate_per_s: 50}\nservice: {latency: {dist: constant, value: 2s}}\nclient: {timeout: 5s, retries: 0}\nnetwork: {reply_loss: 0}\nagent: {replan_probability: 0}\n';
const PLAIN = parseRunnable(YAML);
const TRIGGERED = { ...PLAIN, trigger: WEBHOOK } as Scenario;

/** The readings only a trigger gives, in report order. */
const TRIGGER_PATHS = ALL_METRIC_PATHS.filter((p) => METRICS[p].only === 'trigger');
const LABELS = TRIGGER_PATHS.map((p) => METRICS[p].label);
const INFO = { version: 'test', replay: 'idem-sim run s.yaml' };

function runOf(name: string, scenario: Scenario, series = false): ScenarioRun {
  const r = simulate(scenario, '1', series ? 10_000 : null);
  return { name, file: null, seed: '1', scenario: r.scenario, warnings: [], metrics: r.metrics, ...(r.series ? { series: r.series } : {}) };
}
const triggered = runOf('hook', TRIGGERED, true);
const plain = runOf('plain', PLAIN, true);
const text = (runs: readonly ScenarioRun[]) => renderTable(runs, INFO, new Chalk({ level: 0 }));

describe('the readings of a run with a trigger', () => {
  it('are the contract\'s numbers: 3 deliveries, 2000 duplicates per 1000 all from redeliveries, every action redelivered and dead-lettered', () => {
    const m = triggered.metrics;
    expect(m.duplicates_per_1000.value).toBe(2000);
    expect(m.duplicates_per_1000.redelivery?.value).toBe(2000);
    expect([m.duplicates_per_1000.transport.value, m.duplicates_per_1000.replan.value, m.duplicates_per_1000.replay.value]).toEqual([0, 0, 0]);
    expect(m.deliveries_per_action?.value).toBe(3);
    expect(m.redelivered_per_1000?.value).toBe(1000);
    expect(m.dead_lettered_per_1000?.value).toBe(1000);
    expect(hasTrigger(TRIGGERED)).toBe(true);
    expect(hasTrigger(PLAIN)).toBe(false);
  });

  it('are rows of the run table: the source beside the others, a section of their own; a run without a trigger has none', () => {
    const table = text([triggered]);
    expect(table).toMatch(/ {3}from crash replays +│ +0 \(≤ 1\.5\) │\n│ {3}from redeliveries +│ +2,000 │\n│ duplicates per day/);
    expect(table).toMatch(/of which twins merged per 1000 +│ +0 \(≤ 1\.5\) │\n│ Deliveries \(trigger\) +│ +│\n│ deliveries per action \(the first included\) +│ +3 │\n│ redelivered per 1000 \(delivered twice or more\) +│ +1,000 │\n│ dead-lettered per 1000 \(the sender gave up\) +│ +1,000 │\n│ Outcomes per 1000 actions/);
    const without = text([plain]);
    for (const label of [...LABELS, 'Deliveries (trigger)']) expect(without).not.toContain(label);
    // Side by side: the rows are there, the run without a trigger has no value in them.
    const both = text([plain, triggered]);
    expect(both).toMatch(/ {3}from redeliveries +│ +– │ +2,000 │/);
  });

  it('are fields of the JSON, with the series it lists and model 4; a run without a trigger has none, and model 2', () => {
    const doc = JSON.parse(renderJson([triggered], INFO)) as { model: number; results: { metrics: Record<string, unknown>; series: { buckets: Record<string, number>[] } }[] };
    expect(doc.model).toBe(4);
    const m = doc.results[0]?.metrics as Record<string, { value: number; redelivery?: { value: number } }>;
    expect(Object.keys(m).slice(0, 8)).toEqual(['actions', 'primary_actions', 'actions_per_second', 'duplicates_per_1000', 'duplicates_per_day', 'lost_per_1000', 'merged_per_1000', 'deliveries_per_action']);
    expect(Object.keys(m['duplicates_per_1000'] ?? {})).toEqual(['value', 'ci95', 'transport', 'replan', 'replay', 'redelivery']);
    expect(m['redelivered_per_1000']?.value).toBe(1000);
    const buckets = doc.results[0]?.series.buckets ?? [];
    expect(Object.keys(buckets[0] ?? {})).toEqual(['start_ms', 'load_ms', ...listedSeries(TRIGGERED)]);
    expect(buckets.reduce((n, b) => n + (b['deliveries'] ?? 0), 0)).toBe(3 * triggered.metrics.actions);
    expect(buckets.reduce((n, b) => n + (b['dead_lettered'] ?? 0), 0)).toBe(triggered.metrics.actions);
    const old = JSON.parse(renderJson([plain], INFO)) as { model: number; results: { metrics: Record<string, { redelivery?: unknown }>; series: { buckets: object[] } }[] };
    expect(old.model).toBe(2);
    for (const p of TRIGGER_PATHS.filter((x) => !x.includes('.'))) expect(old.results[0]?.metrics, p).not.toHaveProperty(p);
    expect(old.results[0]?.metrics['duplicates_per_1000']).not.toHaveProperty('redelivery');
    for (const name of TRIGGER_SERIES) expect(old.results[0]?.series.buckets[0]).not.toHaveProperty(name);
  });

  it('are columns of run --format csv where some run has a trigger, empty for a run without one', () => {
    const header = (runs: readonly ScenarioRun[]) => (renderRunsCsv(runs, INFO).split('\n')[0] as string).split(',');
    expect(header([plain]).filter((c) => TRIGGER_PATHS.some((p) => c.startsWith(p)))).toEqual([]);
    const cols = header([plain, triggered]);
    const at = cols.indexOf('deliveries_per_action');
    expect(cols.slice(at, at + 3)).toEqual(['deliveries_per_action', 'deliveries_per_action_ci95_low', 'deliveries_per_action_ci95_high']);
    expect(cols.indexOf('duplicates_per_1000.redelivery')).toBe(cols.indexOf('duplicates_per_1000.replay_ci95_high') + 1);
    const [, first, second] = renderRunsCsv([plain, triggered], INFO).split('\n').map((l) => l.split(','));
    expect(first?.[at]).toBe('');
    expect(second?.[at]).toBe('3');
    expect(second?.[cols.indexOf('dead_lettered_per_1000')]).toBe('1000');
  });

  it('are columns of a sweep where some point has a trigger, foretold before the points run', () => {
    expect(plannedShape(TRIGGERED).reported).toEqual(TRIGGER_PATHS);
    expect(plannedShape(PLAIN).reported).toEqual([]);
    const columns = SweepColumns.of([{ metrics: plain.metrics }, { metrics: triggered.metrics }]);
    expect(csvMetricPaths(columns.coupled, columns.reports).filter((p) => METRICS[p].only === 'trigger')).toEqual(TRIGGER_PATHS);
    const report = (metrics: ScenarioRun['metrics'][]) => ({
      scenario: 's.yaml', paths: ['trigger.ack_timeout'], seed: '1', version: 'test', replay: 'idem-sim sweep s.yaml',
      points: metrics.map((m, i) => ({ params: { 'trigger.ack_timeout': 1000 * (i + 1) }, metrics: m })),
    });
    const csv = renderCsv(report([triggered.metrics])).split('\n');
    const cols = (csv[0] as string).split(',');
    expect(csv[1]?.split(',')[cols.indexOf('dead_lettered_per_1000')]).toBe('1000');
    expect(renderCsv(report([plain.metrics])).split('\n')[0]).not.toMatch(/redeliver|deliveries|dead_lettered/);
  });

  it('list the series deliveries and dead_lettered only where the scenario has a trigger; a coupled run keeps its own', () => {
    expect(listedSeries(TRIGGERED)).toEqual(expect.arrayContaining([...TRIGGER_SERIES]));
    expect(listedSeries(PLAIN).filter((n) => (TRIGGER_SERIES as readonly string[]).includes(n))).toEqual([]);
    const coupled = { ...TRIGGERED, service: { ...TRIGGERED.service, capacity: parseRunnable('service: {capacity: {workers: 4}}\n').service.capacity } } as Scenario;
    expect(listedSeries(coupled)).toEqual(SERIES_NAMES.filter((n) => n !== 'throttled'));
    const header = (runs: readonly ScenarioRun[]) => renderSeriesCsv(runs, INFO).split('\n')[0] as string;
    expect(header([plain])).not.toMatch(/deliveries|dead_lettered/);
    expect(header([plain, triggered])).toMatch(/,store_unavailable,deliveries,dead_lettered,step_ms,/);
    expect(TIME_COUNTS).toEqual(expect.arrayContaining([...TRIGGER_SERIES]));
  });

  it('are on the report page: its headline and the duplicates-by-source bars (and the lab\'s)', () => {
    const rows = headline(triggered.metrics).map(([label]) => label);
    expect(rows.slice(0, 2)).toEqual(['duplicates per 1000 actions', 'duplicates from redeliveries per 1000 actions']);
    expect(rows.slice(rows.indexOf('lost actions per 1000') + 1, rows.indexOf('lost actions per 1000') + 4)).toEqual(TRIGGER_PATHS.slice(1).map((p) => METRICS[p].title));
    expect(headline(plain.metrics).map(([label]) => label)).not.toContain('duplicates from redeliveries per 1000 actions');
    const bars = (m: ScenarioRun['metrics']) => (breakdownSpec(m).data as { values: { source: string }[] }).values.map((r) => r.source);
    expect(bars(triggered.metrics)).toEqual(['transport retries', 'model re-plans', 'crash replays', 'redelivery dup/1000']);
    expect(bars(plain.metrics)).toEqual(['transport retries', 'model re-plans', 'crash replays']);
    expect(breakdownSvg(triggered.metrics)).toContain('crash replays 0 (≤ 1.5); redelivery dup/1000 2,000">');
    expect(breakdownSvg(plain.metrics)).not.toContain('redeliveries');
  });

  it('are read by expect:, refused without a trigger (the words scenario/expect.ts gives), and no --precision-metric', () => {
    const e = (metric: string, text: string): Expectation => ({ metric: metric as MetricPath, op: text.startsWith('>=') ? '>=' : '<=', threshold: Number(text.replace(/[<>=\s]/g, '')), text, confidence: 'none', origin: { source: 's.yaml' } });
    expect(check(e('dead_lettered_per_1000', '<= 1000'), triggered.metrics).pass).toBe(true);
    expect(check(e('deliveries_per_action', '<= 2'), triggered.metrics).pass).toBe(false);
    expect(check(e('duplicates_per_1000.redelivery', '>= 2000'), triggered.metrics).pass).toBe(true);
    expect(triggerOnlyExpectation('trigger', PLAIN)?.problem).toMatch(/is reported only by scenarios with a trigger/);
    expect(triggerOnlyExpectation('trigger', TRIGGERED)).toBeNull();
    expect(triggerOnlyExpectation(undefined, PLAIN)).toBeNull();
    for (const p of TRIGGER_PATHS) expect(PRECISION_METRICS).not.toHaveProperty([p]);
  });

  it('are charted by a sweep where some point can have a trigger, refused where none can', () => {
    const where = { origin: { source: '--metric' }, keyPath: '' };
    expect(() => checkSweepMetric('dead_lettered_per_1000', where, PLAIN, [])).toThrow(/dead_lettered_per_1000 is reported only by scenarios with a trigger/);
    expect(() => checkSweepMetric('dead_lettered_per_1000', where, TRIGGERED, [])).not.toThrow();
    expect(() => checkSweepMetric('duplicates_per_1000.redelivery', where, PLAIN, ['trigger.ack_timeout'])).not.toThrow();
  });

  it('warns of an alert on a trigger\'s series in a scenario without one (it never fires)', () => {
    const alerts = [{ name: 'dlq', metric: 'dead_lettered' }, { name: 'dups', metric: 'duplicates' }];
    expect(alertsWithoutTrigger({ ...PLAIN, alerts } as Scenario)).toEqual([expect.objectContaining({
      index: 0, keyPath: 'alerts[0].metric', problem: expect.stringMatching(/^has no effect: the series dead_lettered is counted only by scenarios with a trigger .* the alert dlq never fires$/) as string,
    })]);
    expect(alertsWithoutTrigger({ ...TRIGGERED, alerts } as Scenario)).toEqual([]);
  });

  it('count the series a schedule spreads: deliveries 1 s apart, dead-lettered at the last deadline', () => {
    const one = simulate({ ...PLAIN, actions: 1, trigger: { ...WEBHOOK, schedule: [1000, 2000] } } as Scenario, '1', 500);
    const s = one.series as SeriesCounts;
    const at = (name: 'deliveries' | 'dead_lettered') => Array.from({ length: s.buckets }, (_, b) => s.counts[b * SERIES_NAMES.length + SERIES_NAMES.indexOf(name)] as number)
      .flatMap((n, b) => Array<number>(n).fill(b * s.step));
    // Delivery 0 at 0, its deadline 1 s, delivery 1 at 2 s (deadline 3 s), delivery 2 at 5 s (deadline 6 s): dead-lettered then.
    expect(at('deliveries')).toEqual([0, 2000, 5000]);
    expect(at('dead_lettered')).toEqual([6000]);
  });
});

describe('a trigger written in a scenario file, through the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-trigger-readings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const HOOK = `${YAML}trigger: {kind: webhook, ack_timeout: 1s, redeliveries: 2, schedule: [0s]}\n`;

  it('checks expect: on its readings', async () => {
    const expect3 = 'expect:\n  deliveries_per_action: "== 3"\n  duplicates_per_1000.redelivery: ">= 2000"\n  dead_lettered_per_1000: {threshold: "<= 1000", confidence: ci95}\n';
    const r = await captured(['check', file('hook-check.yaml', `${HOOK}${expect3}`), '--json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { model: number; scenarios: { expectations: { metric: string; pass: boolean }[] }[] };
    expect(doc.model).toBe(4);
    expect(doc.scenarios[0]?.expectations.map((e) => [e.metric, e.pass])).toEqual([['deliveries_per_action', true], ['duplicates_per_1000.redelivery', true], ['dead_lettered_per_1000', true]]);
  });

  it('sweeps trigger.ack_timeout against the handler\'s 2 s: the readings\' columns, redelivery gone once the deadline outlasts the step', async () => {
    const r = await captured(['sweep', file('hook-sweep.yaml', HOOK), '--vary', 'trigger.ack_timeout=1s,3s', '--format', 'csv']);
    expect(r.status, r.stderr).toBe(0);
    const [head, ...rows] = r.stdout.trim().split('\n').map((l) => l.split(','));
    const col = (name: string) => rows.map((row) => row[(head as string[]).indexOf(name)]);
    expect(col('param_trigger.ack_timeout_ms')).toEqual(['1000', '3000']);
    expect(col('deliveries_per_action')).toEqual(['3', '1']);
    expect(col('duplicates_per_1000.redelivery')).toEqual(['2000', '0']);
    expect(col('dead_lettered_per_1000')).toEqual(['1000', '0']);
    const refused = captured(['sweep', file('plain-sweep.yaml', YAML), '--vary', 'client.retries=0,1', '--metric', 'dead_lettered_per_1000']);
    await expect(refused).rejects.toThrow(/dead_lettered_per_1000 is reported only by scenarios with a trigger/);
  });

  it('merges its shards byte for byte into the unsharded run, series and all', async () => {
    const hook = file('hook.yaml', HOOK.replace('actions: 2000', 'actions: 40000'));
    const args = ['run', hook, '--series', '1m'];
    const parts = [1, 2, 3].map((i) => join(dir, `part${i}.json`));
    for (const [i, out] of parts.entries()) expect((await captured([...args, '--shard', `${i + 1}/3`, '--out', out])).status).toBe(0);
    const merged = await captured(['merge', ...parts, '--json']);
    const whole = await captured([...args, '--json']);
    expect(merged.stdout).toBe(whole.stdout);
    expect(whole.stdout).toContain('"dead_lettered": ');
    // A part of a run with a trigger holds the delivery counters, and must: cut to an earlier build's length, it is refused.
    const part = JSON.parse(readFileSync(parts[2] as string, 'utf8')) as { runs: { state: { sum: number[] } }[] };
    const sum = part.runs[0]?.state.sum ?? [];
    expect(sum).toHaveLength(NUM_COUNTERS);
    const older = sum.slice(0, C.duplicates_redelivery);
    const checker = new PartChecker('part3.json');
    expect(counterSums(checker, older, 'runs[0].state.sum', false)).toEqual([...older, 0, 0, 0, 0]);
    expect(() => counterSums(checker, older, 'runs[0].state.sum', false, true)).toThrow(`runs[0].state.sum: expected ${NUM_COUNTERS} entries, found ${C.duplicates_redelivery}`);
  });
});

describe('a trigger\'s readings asked of a scenario without a trigger', () => {
  it('expect: on one is refused at its line, with the fix', () => {
    expect(() => parseScenario('expect:\n  dead_lettered_per_1000: "== 0"\n', 'x.yaml')).toThrow(/x\.yaml:2:\d+, key expect\.dead_lettered_per_1000: .*trigger/);
  });

  it('an alert on deliveries or dead_lettered is warned of at its metric\'s line (it never fires)', () => {
    const yaml = 'alerts:\n  - {name: redelivering, metric: deliveries, above: 1, for: 1m}\n';
    const warned = parseScenario(yaml, 'x.yaml').warnings.filter((w) => w.keyPath?.startsWith('alerts') || /deliveries/.test(w.problem));
    expect(warned).toHaveLength(1);
    expect(warned[0]!.origin?.line).toBe(2);
    expect(parseScenario(`${yaml}trigger: {preset: slack}\n`, 'x.yaml').warnings.filter((w) => /deliveries/.test(w.problem) && w.origin?.line === 2)).toHaveLength(0);
  });
});

describe('a series of a triggered run', () => {
  it('is refused before the run when the redeliveries\' schedule outlasts its buckets, with a step that fits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-trigger-series-'));
    const file = join(dir, 'late.yaml');
    writeFileSync(file, 'trigger: {ack_timeout: 1s, schedule: [2d], redeliveries: 3}\n');
    // The last delivery may start 3 × (1 s + 2 d) after an arrival: about 518,000 buckets of 1 s.
    await expect(captured(['run', file, '--series', '1s'])).rejects.toThrow(/could need up to [\d,]+ buckets .*redeliveries can go on.*Give --series a step of at least 6s/);
    rmSync(dir, { recursive: true, force: true });
  });
});
