/**
 * Exact output of each reporter, from hand-written results (hyperfine's export/tests.rs): the
 * run table and JSON, the sweep table, heat map, CSV and JSON, and check's table and JUnit.
 * The binary's outputs are pinned by test/golden.e2e.test.ts; these pin the reporters alone.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { describeReading, duration, num, withCi } from '../src/report/format.js';
import { renderJunit } from '../src/report/junit.js';
import { RUN_FORMATS, RUN_REPORTERS } from '../src/report/run-reporters.js';
import { SWEEP_FORMATS, SWEEP_REPORTERS } from '../src/report/sweep-reporters.js';
import type { SweepReport } from '../src/report/sweep.js';
import type { CheckedScenario, ScenarioRun } from '../src/report/types.js';
import { renderVerdicts } from '../src/report/verdicts.js';
import { renderRuns } from '../src/cli/shared/formats.js';
import type { Estimate, Metrics } from '../src/results/metrics.js';
import { echoed } from '../src/model/clock.js';
import { DEFAULT_SCENARIO, type Scenario } from '../src/model/types.js';

const plain = new Chalk({ level: 0 });

/** An estimate of `value` ± `half` (exact in binary, so every bound prints as written). */
const est = (value: number, half: number): Estimate => ({ value, ci95: [value - half, value + half] });

function metrics(scale: number): Metrics {
  return {
    actions: 4096 * scale,
    primary_actions: 4000 * scale,
    actions_per_second: 51.2,
    duplicates_per_1000: { ...est(12.5 * scale, 1.25), transport: est(8, 0.5), replan: est(4.5, 0.25), replay: est(0, 0) },
    duplicates_per_day: est(55_296 * scale, 4096),
    lost_per_1000: est(0.25, 0.125),
    merged_per_1000: est(0, 0),
    unknown_outcomes_per_1000: est(31.25, 2.5),
    conflicts_409_per_1000: est(2, 0.5),
    mismatches_422_per_1000: est(0, 0),
    dedup_hits_per_1000: est(150, 6),
    attempts_per_action: est(1.125, 0.0078125),
    executions_per_action: est(1.0125, 0.00390625),
    call_latency_ms: { p50: 312.5, p95: 1800 * scale, p99: 95_000 },
    action_latency_ms: { p50: 400, p95: null, p99: null },
    keys_per_action: est(1.5, 0),
    peak_live_keys: 1234,
    keys: 1_866_240.4,
    key_store_mb: 373.248,
    handler_over_timeout_fraction: 0.021875,
    attempts_unknown_fraction: 0.0421875,
    alert_baselines_per_s: { dedup_hits: est(7.5, 0.25), conflicts_409: est(0.125, 0.03125), mismatches_422: est(0, 0), unknown_outcomes: est(1.5625, 0.125) },
  };
}

/** Reporters copy the scenario through: a small stand-in does (the JSON shows it as given). */
const scenario: Scenario = DEFAULT_SCENARIO;
/** As JSON prints it: without the keys of "Time", which it does not use. */
const printed = echoed(scenario);

const RUNS: ScenarioRun[] = [
  { name: 'alpha', file: 'scenarios/alpha.yaml', seed: '1', scenario, warnings: ['s.yaml:3:3, key runtime.resume_delay: has no effect: runtime.crash_probability is 0, so no run is resumed. Remove it.'], metrics: metrics(1) },
  { name: 'beta', file: null, seed: '7', scenario, warnings: [], metrics: metrics(2),
    precision: { metric: 'duplicates_per_1000', half_width: 0.5, max_actions: 8000, reached: false } },
];
const INFO = { version: '9.9.9', replay: 'idem-sim run scenarios/alpha.yaml' };

describe('formatting helpers', () => {
  it('writes three significant digits, CIs to the half-width, durations in their unit', () => {
    expect([num(0), num(1234.5), num(0.0123456), num(-0.0004), num(null), num(Infinity)]).toEqual(['0', '1,235', '0.0123', '-0.0004', '–', '–']);
    expect([withCi(12.345, 0.25), withCi(1234, 0), withCi(0.00012, 0.0000001)]).toEqual(['12.35 ± 0.25', '1,234', '0.000120 ± 0.000000']);
    expect([duration(250), duration(1500), duration(90_000), duration(7_200_000), duration(172_800_000), duration(null)])
      .toEqual(['250 ms', '1.5 s', '1.5 min', '2 h', '2 d', '–']);
    expect([describeReading({ value: null }), describeReading({ value: 1800 }, 'call_latency_ms.p95'), describeReading({ value: 2, ci95: [1.5, 2.5] }, 'lost_per_1000')])
      .toEqual(['no value (no samples)', '1.8 s', '2.00 ± 0.50']);
  });

  it('writes an agent\'s lopsided interval as check\'s verdicts and the agent table do, its ends given rather than a ± it lacks', () => {
    // A cost whose interval widens only upward (a tool with no duplicate seen): "209 ± 166" read as 43 to 375.
    expect(describeReading({ value: 209, ci95: [198.4, 375.4] }, 'agent.cost_per_day.USD')).toBe('209 (198 to 375)');
    // A symmetric one keeps its ±, as every other reading.
    expect(describeReading({ value: 209, ci95: [190, 228] }, 'agent.cost_per_day.USD')).toBe('209 ± 19');
    expect(describeReading({ value: 209, ci95: [198.4, 375.4] }, 'lost_per_1000')).toBe('209 ± 166');
  });
});

describe('run reporters', () => {
  it('are asked for by --format NAME, the default first', () => {
    expect(RUN_FORMATS).toEqual(['table', 'json', 'csv']);
    expect(SWEEP_FORMATS).toEqual(['table', 'csv', 'json', 'html']);
    expect(Object.keys(SWEEP_REPORTERS)).toEqual([...SWEEP_FORMATS, 'svg']);
  });

  it('table', () => {
    expect(RUN_REPORTERS.table.render(RUNS, INFO, plain)).toBe(RUN_TABLE);
  });

  it('json', () => {
    const doc = {
      tool: 'idem-sim', version: '9.9.9', model: 2, time_unit: 'ms', replay: INFO.replay,
      results: [
        { name: 'alpha', file: 'scenarios/alpha.yaml', seed: '1', scenario: printed, warnings: RUNS[0]?.warnings, metrics: metrics(1) },
        { name: 'beta', file: null, seed: '7', scenario: printed, warnings: [], precision: RUNS[1]?.precision, metrics: metrics(2) },
      ],
    };
    expect(RUN_REPORTERS.json.render(RUNS, INFO, plain)).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('json drops float noise at 12 significant digits', () => {
    const noisy: ScenarioRun = { ...RUNS[0] as ScenarioRun, metrics: { ...metrics(1), key_store_mb: 0.1 + 0.2, keys: 16334.999999999998 } };
    const doc = JSON.parse(RUN_REPORTERS.json.render([noisy], INFO, plain)) as { results: { metrics: Metrics }[] };
    expect(doc.results[0]?.metrics.key_store_mb).toBe(0.3);
    expect(doc.results[0]?.metrics.keys).toBe(16335);
  });

  it('the replay line names the options that ask for the format', () => {
    const args = ['idem-sim', 'run', 'a b.yaml', '--seed', '1'];
    expect(renderRuns(RUNS, args, 'json', '9.9.9', plain)).toContain(`"replay": "idem-sim run 'a b.yaml' --seed 1 --json",`);
    expect(renderRuns(RUNS, args, 'table', '9.9.9', plain).split('\n').at(-2)).toBe(`replay: idem-sim run 'a b.yaml' --seed 1`);
  });
});

const point = (params: SweepReport['points'][number]['params'], scale: number) => ({ params, metrics: metrics(scale) });
const SWEEP: SweepReport = {
  scenario: 'scenarios/alpha.yaml', paths: ['client.timeout'], seed: '1', version: '9.9.9', replay: 'idem-sim sweep scenarios/alpha.yaml --vary client.timeout=500ms,1s,2min --seed 1',
  points: [point({ 'client.timeout': 500 }, 1), point({ 'client.timeout': 1000 }, 2), point({ 'client.timeout': 120_000 }, 4)],
};
const GRID: SweepReport = {
  scenario: null, paths: ['client.timeout', 'idempotency.scope'], seed: '3', version: '9.9.9', replay: 'idem-sim sweep x.yaml --seed 3',
  points: [point({ 'client.timeout': 500, 'idempotency.scope': 'call' }, 1), point({ 'client.timeout': 500, 'idempotency.scope': 'intent' }, 2),
    point({ 'client.timeout': 1000, 'idempotency.scope': 'call' }, 3), point({ 'client.timeout': 1000, 'idempotency.scope': null }, 4)],
};

describe('sweep reporters', () => {
  it('table: a row per point, the summary columns and the chosen metric after them', async () => {
    expect(await SWEEP_REPORTERS.table.render(SWEEP, 'dedup_hits_per_1000', plain)).toBe(SWEEP_TABLE);
  });

  it('table of two keys: a heat map of the metric', async () => {
    expect(await SWEEP_REPORTERS.table.render(GRID, 'duplicates_per_1000', plain)).toBe(SWEEP_HEAT_MAP);
  });

  it('csv: param_ columns, each metric with its bounds, seed and version', async () => {
    expect(await SWEEP_REPORTERS.csv.render(SWEEP, 'duplicates_per_1000', plain)).toBe(SWEEP_CSV);
  });

  it('csv: a duration key\'s column says ms and holds ms numbers (none is empty); other keys keep their path', async () => {
    const r: SweepReport = {
      ...GRID, paths: ['idempotency.lease', 'idempotency.scope', 'service.latency.median'],
      points: [point({ 'idempotency.lease': 'none', 'idempotency.scope': 'call', 'service.latency.median': 1500 }, 1),
        point({ 'idempotency.lease': 30_000, 'idempotency.scope': null, 'service.latency.median': 250 }, 1)],
    };
    const lines = (await SWEEP_REPORTERS.csv.render(r, 'duplicates_per_1000', plain)).split('\n');
    expect(lines[0]?.startsWith('param_idempotency.lease_ms,param_idempotency.scope,param_service.latency.median_ms,duplicates_per_1000,')).toBe(true);
    expect(lines.slice(1, 3).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([',call,1500', '30000,,250']);
  });

  it('json', async () => {
    const doc = { tool: 'idem-sim', version: '9.9.9', model: 2, time_unit: 'ms', replay: SWEEP.replay, scenario: SWEEP.scenario, seed: '1', vary: SWEEP.paths, points: SWEEP.points };
    expect(await SWEEP_REPORTERS.json.render(SWEEP, 'duplicates_per_1000', plain)).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });
});

const origin = { source: 'scenarios/alpha.yaml', line: 12 };
const CHECKED: CheckedScenario[] = [{
  name: 'alpha', file: 'scenarios/alpha.yaml', seed: '1', actions: 4000, warnings: [], coupled: false,
  verdicts: [
    { expectation: { metric: 'duplicates_per_1000', op: '<=', threshold: 20, text: '<= 20', confidence: 'none', origin }, measured: { value: 12.5, ci95: [11.25, 13.75] }, pass: true },
    { expectation: { metric: 'lost_per_1000', op: '==', threshold: 0, text: '== 0', confidence: 'ci95', origin }, measured: { value: 0, ci95: [0, 0] }, interval: [0, 0.75], pass: false },
    { expectation: { metric: 'call_latency_ms.p95', op: '<', threshold: 1000, text: '< 1s', confidence: 'none', origin: { source: 'scenarios/alpha.yaml' } }, measured: { value: 1800 }, pass: false },
  ],
}];

const CHECK_ERROR = { name: 'beta', file: 'scenarios/beta.yaml', message: 'scenarios/beta.yaml:3:9, key client.retries: expected a whole number, got "many". Write a count such as 3.' };

describe('check reporters', () => {
  it('table', () => {
    expect(renderVerdicts({ checked: CHECKED, errors: [], skipped: [] }, plain, 'seed 1; idem-sim 9.9.9; replay: idem-sim check scenarios/alpha.yaml --seed 1')).toBe(CHECK_TABLE);
  });

  it('junit', () => {
    expect(renderJunit({ checked: CHECKED, errors: [CHECK_ERROR], skipped: [] }, '9.9.9')).toBe(CHECK_JUNIT);
  });
});

const RUN_TABLE = `┌─────────────────────────────────────────────────┬─────────────────┬─────────────────┐
│                                                 │           alpha │            beta │
│ Duplicates                                      │                 │                 │
│ duplicates per 1000 actions                     │      12.5 ± 1.3 │      25.0 ± 1.3 │
│   from transport retries                        │     8.00 ± 0.50 │     8.00 ± 0.50 │
│   from model re-plans                           │     4.50 ± 0.25 │     4.50 ± 0.25 │
│   from crash replays                            │               0 │               0 │
│ duplicates per day at load.rate_per_s           │  55,296 ± 4,096 │ 110,592 ± 4,096 │
│ Lost actions                                    │                 │                 │
│ lost per 1000                                   │     0.25 ± 0.13 │     0.25 ± 0.13 │
│   of which twins merged per 1000                │               0 │               0 │
│ Outcomes per 1000 actions                       │                 │                 │
│ unknown outcomes returned to the model          │      31.3 ± 2.5 │      31.3 ± 2.5 │
│ 409 in progress                                 │     2.00 ± 0.50 │     2.00 ± 0.50 │
│ 422 fingerprint mismatch                        │               0 │               0 │
│ dedup hits (stored result replayed)             │     150.0 ± 6.0 │     150.0 ± 6.0 │
│ Load                                            │                 │                 │
│ attempts per action                             │ 1.1250 ± 0.0078 │ 1.1250 ± 0.0078 │
│ executions per action                           │ 1.0125 ± 0.0039 │ 1.0125 ± 0.0039 │
│ handler runs slower than the timeout            │           2.19% │           2.19% │
│ attempts ending unknown                         │           4.22% │           4.22% │
│ Latency                                         │                 │                 │
│ call p50                                        │          313 ms │          313 ms │
│ call p95                                        │           1.8 s │           3.6 s │
│ call p99                                        │        1.58 min │        1.58 min │
│ action p95 (replays included)                   │               – │               – │
│ Key store                                       │                 │                 │
│ keys per action                                 │             1.5 │             1.5 │
│ peak live keys (simulated)                      │           1,234 │           1,234 │
│ steady-state keys at rate × retention           │       1,866,240 │       1,866,240 │
│ steady-state key store (MB)                     │             373 │             373 │
│ Alert baselines (per second at load.rate_per_s) │                 │                 │
│ dedup hits                                      │     7.50 ± 0.25 │     7.50 ± 0.25 │
│ 409 in progress                                 │   0.125 ± 0.031 │   0.125 ± 0.031 │
│ 422 fingerprint mismatch                        │               0 │               0 │
│ unknown outcomes returned to the model          │     1.56 ± 0.13 │     1.56 ± 0.13 │
└─────────────────────────────────────────────────┴─────────────────┴─────────────────┘
beta: stopped at --max-actions 8,000 before duplicates_per_1000 reached ± 0.5
actions simulated: 4,096 (4,000 primary) / 8,192 (8,000 primary); ± is the 95% confidence interval, 0 (≤ x) none seen and at most x at 95%; seed 1, 7; idem-sim 9.9.9
replay: idem-sim run scenarios/alpha.yaml
`;
const SWEEP_TABLE = `┌────────────────┬────────────┬─────────────┬──────────────┬─────────────┬─────────────────┬──────────┬──────────────┬─────────────────────┐
│ client.timeout │   dup/1000 │   lost/1000 │ unknown/1000 │    409/1000 │ attempts/action │ call p95 │ key store MB │ dedup_hits_per_1000 │
│ 500 ms         │ 12.5 ± 1.3 │ 0.25 ± 0.13 │   31.3 ± 2.5 │ 2.00 ± 0.50 │ 1.1250 ± 0.0078 │    1.8 s │          373 │         150.0 ± 6.0 │
│ 1 s            │ 25.0 ± 1.3 │ 0.25 ± 0.13 │   31.3 ± 2.5 │ 2.00 ± 0.50 │ 1.1250 ± 0.0078 │    3.6 s │          373 │         150.0 ± 6.0 │
│ 2 min          │ 50.0 ± 1.3 │ 0.25 ± 0.13 │   31.3 ± 2.5 │ 2.00 ± 0.50 │ 1.1250 ± 0.0078 │    7.2 s │          373 │         150.0 ± 6.0 │
└────────────────┴────────────┴─────────────┴──────────────┴─────────────┴─────────────────┴──────────┴──────────────┴─────────────────────┘
3 points, each from seed 1 (common random numbers); idem-sim 9.9.9
replay: idem-sim sweep scenarios/alpha.yaml --vary client.timeout=500ms,1s,2min --seed 1
`;
const SWEEP_HEAT_MAP = `duplicates_per_1000
┌────────────────────────────────────┬────────────┬────────────┬────────────┐
│ client.timeout \\ idempotency.scope │       call │     intent │       none │
│ 500 ms                             │ 12.5 ± 1.3 │ 25.0 ± 1.3 │            │
│ 1 s                                │ 37.5 ± 1.3 │            │ 50.0 ± 1.3 │
└────────────────────────────────────┴────────────┴────────────┴────────────┘
4 points, each from seed 3 (common random numbers); idem-sim 9.9.9
replay: idem-sim sweep x.yaml --seed 3
`;
const SWEEP_CSV = `${[
  [
    'param_client.timeout_ms', 'duplicates_per_1000', 'duplicates_per_1000_ci95_low', 'duplicates_per_1000_ci95_high',
    'duplicates_per_1000.transport', 'duplicates_per_1000.transport_ci95_low',
    'duplicates_per_1000.transport_ci95_high', 'duplicates_per_1000.replan', 'duplicates_per_1000.replan_ci95_low',
    'duplicates_per_1000.replan_ci95_high', 'duplicates_per_1000.replay', 'duplicates_per_1000.replay_ci95_low',
    'duplicates_per_1000.replay_ci95_high', 'duplicates_per_day', 'duplicates_per_day_ci95_low',
    'duplicates_per_day_ci95_high', 'lost_per_1000', 'lost_per_1000_ci95_low', 'lost_per_1000_ci95_high',
    'merged_per_1000', 'merged_per_1000_ci95_low', 'merged_per_1000_ci95_high', 'unknown_outcomes_per_1000',
    'unknown_outcomes_per_1000_ci95_low', 'unknown_outcomes_per_1000_ci95_high', 'conflicts_409_per_1000',
    'conflicts_409_per_1000_ci95_low', 'conflicts_409_per_1000_ci95_high', 'mismatches_422_per_1000',
    'mismatches_422_per_1000_ci95_low', 'mismatches_422_per_1000_ci95_high', 'dedup_hits_per_1000',
    'dedup_hits_per_1000_ci95_low', 'dedup_hits_per_1000_ci95_high', 'attempts_per_action',
    'attempts_per_action_ci95_low', 'attempts_per_action_ci95_high', 'executions_per_action',
    'executions_per_action_ci95_low', 'executions_per_action_ci95_high', 'handler_over_timeout_fraction',
    'attempts_unknown_fraction', 'call_latency_ms.p50', 'call_latency_ms.p95', 'call_latency_ms.p99',
    'action_latency_ms.p50', 'action_latency_ms.p95', 'action_latency_ms.p99', 'keys_per_action',
    'keys_per_action_ci95_low', 'keys_per_action_ci95_high', 'peak_live_keys', 'keys', 'key_store_mb',
    'alert_baselines_per_s.dedup_hits', 'alert_baselines_per_s.dedup_hits_ci95_low',
    'alert_baselines_per_s.dedup_hits_ci95_high', 'alert_baselines_per_s.conflicts_409',
    'alert_baselines_per_s.conflicts_409_ci95_low', 'alert_baselines_per_s.conflicts_409_ci95_high',
    'alert_baselines_per_s.mismatches_422', 'alert_baselines_per_s.mismatches_422_ci95_low',
    'alert_baselines_per_s.mismatches_422_ci95_high', 'alert_baselines_per_s.unknown_outcomes',
    'alert_baselines_per_s.unknown_outcomes_ci95_low', 'alert_baselines_per_s.unknown_outcomes_ci95_high',
    'actions', 'primary_actions', 'seed', 'idem_sim_version',
  ].join(','),
  [
    '500', '12.5', '11.25', '13.75', '8', '7.5', '8.5', '4.5', '4.25', '4.75', '0', '0', '0', '55296', '51200',
    '59392', '0.25', '0.125', '0.375', '0', '0', '0', '31.25', '28.75', '33.75', '2', '1.5', '2.5', '0', '0', '0',
    '150', '144', '156', '1.125', '1.1171875', '1.1328125', '1.0125', '1.00859375', '1.01640625', '0.021875',
    '0.0421875', '312.5', '1800', '95000', '400', '', '', '1.5', '1.5', '1.5', '1234', '1866240.4', '373.248',
    '7.5', '7.25', '7.75', '0.125', '0.09375', '0.15625', '0', '0', '0', '1.5625', '1.4375', '1.6875', '4096',
    '4000', '1', '9.9.9',
  ].join(','),
  [
    '1000', '25', '23.75', '26.25', '8', '7.5', '8.5', '4.5', '4.25', '4.75', '0', '0', '0', '110592', '106496',
    '114688', '0.25', '0.125', '0.375', '0', '0', '0', '31.25', '28.75', '33.75', '2', '1.5', '2.5', '0', '0', '0',
    '150', '144', '156', '1.125', '1.1171875', '1.1328125', '1.0125', '1.00859375', '1.01640625', '0.021875',
    '0.0421875', '312.5', '3600', '95000', '400', '', '', '1.5', '1.5', '1.5', '1234', '1866240.4', '373.248',
    '7.5', '7.25', '7.75', '0.125', '0.09375', '0.15625', '0', '0', '0', '1.5625', '1.4375', '1.6875', '8192',
    '8000', '1', '9.9.9',
  ].join(','),
  [
    '120000', '50', '48.75', '51.25', '8', '7.5', '8.5', '4.5', '4.25', '4.75', '0', '0', '0', '221184', '217088',
    '225280', '0.25', '0.125', '0.375', '0', '0', '0', '31.25', '28.75', '33.75', '2', '1.5', '2.5', '0', '0', '0',
    '150', '144', '156', '1.125', '1.1171875', '1.1328125', '1.0125', '1.00859375', '1.01640625', '0.021875',
    '0.0421875', '312.5', '7200', '95000', '400', '', '', '1.5', '1.5', '1.5', '1234', '1866240.4', '373.248',
    '7.5', '7.25', '7.75', '0.125', '0.09375', '0.15625', '0', '0', '0', '1.5625', '1.4375', '1.6875', '16384',
    '16000', '1', '9.9.9',
  ].join(','),
].join('\n')}\n`;
const CHECK_TABLE = `┌──────────┬─────────────────────┬─────────────────┬────────────────┬────────┐
│ scenario │ metric              │ expected        │ measured       │ result │
│ alpha    │ duplicates_per_1000 │ <= 20           │     12.5 ± 1.3 │ pass   │
│ alpha    │ lost_per_1000       │ == 0 (whole CI) │ 0 (95% ≤ 0.75) │ FAIL   │
│ alpha    │ call_latency_ms.p95 │ < 1s            │          1.8 s │ FAIL   │
└──────────┴─────────────────────┴─────────────────┴────────────────┴────────┘
2 of 3 expectations fail
seed 1; idem-sim 9.9.9; replay: idem-sim check scenarios/alpha.yaml --seed 1
`;
const CHECK_JUNIT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="idem-sim check" tests="4" failures="2" errors="1">
  <testsuite name="scenarios/alpha.yaml" tests="3" failures="2" errors="0">
    <properties>
      <property name="seed" value="1"/>
      <property name="actions" value="4000"/>
      <property name="idem-sim" value="9.9.9"/>
    </properties>
    <testcase classname="alpha" name="duplicates_per_1000 &lt;= 20">
      <properties>
        <property name="duplicates_per_1000" value="12.5"/>
        <property name="duplicates_per_1000.ci95_low" value="11.25"/>
        <property name="duplicates_per_1000.ci95_high" value="13.75"/>
      </properties>
      <system-out>measured 12.5 ± 1.3, expected &lt;= 20: pass</system-out>
    </testcase>
    <testcase classname="alpha" name="lost_per_1000 == 0 (whole 95% interval)">
      <properties>
        <property name="lost_per_1000" value="0"/>
        <property name="lost_per_1000.ci95_low" value="0"/>
        <property name="lost_per_1000.ci95_high" value="0.75"/>
      </properties>
      <failure message="measured 0, 95% interval 0 to 0.75, expected == 0">measured 0, 95% interval 0 to 0.75, expected == 0 (scenarios/alpha.yaml:12)</failure>
      <system-out>measured 0, 95% interval 0 to 0.75, expected == 0 over the whole interval: FAIL</system-out>
    </testcase>
    <testcase classname="alpha" name="call_latency_ms.p95 &lt; 1s">
      <properties>
        <property name="call_latency_ms.p95" value="1800"/>
      </properties>
      <failure message="measured 1.8 s, expected &lt; 1s">measured 1.8 s, expected &lt; 1s (scenarios/alpha.yaml)</failure>
      <system-out>measured 1.8 s, expected &lt; 1s: FAIL</system-out>
    </testcase>
  </testsuite>
  <testsuite name="scenarios/beta.yaml" tests="1" failures="0" errors="1">
    <properties>
      <property name="idem-sim" value="9.9.9"/>
    </properties>
    <testcase classname="beta" name="scenario file">
      <error type="invalid scenario" message="scenarios/beta.yaml:3:9, key client.retries: expected a whole number, got &quot;many&quot;. Write a count such as 3.">scenarios/beta.yaml:3:9, key client.retries: expected a whole number, got &quot;many&quot;. Write a count such as 3.</error>
    </testcase>
  </testsuite>
</testsuites>
`;
