/**
 * The run table in a terminal (issue 14, item 12a): how wide it may be (COLUMNS, a terminal,
 * no limit), a wide one cut into tables of a few scenario columns each; and its footer's line
 * for a latency fitted to percentiles (item 6).
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { columnGroups } from '../src/report/column-groups.js';
import { fittedLatencies, renderTable } from '../src/report/table.js';
import type { ScenarioRun } from '../src/report/types.js';
import { reportWidth } from '../src/io/terminal.js';
import type { Estimate, Metrics } from '../src/results/metrics.js';
import type { WrittenLatency, WrittenScenario } from '../src/model/types.js';

const plain = new Chalk({ level: 0 });
const est = (value: number, half = 0): Estimate => ({ value, ci95: [value - half, value + half] });

/** Metrics with every field; `x` makes the columns differ. */
function metrics(x: number): Metrics {
  return {
    actions: 4000, primary_actions: 4000, actions_per_second: 50,
    duplicates_per_1000: { ...est(41.25 * x, 2.5), transport: est(41.25 * x, 2.5), replan: est(0), replay: est(0) },
    duplicates_per_day: est(178_200 * x, 10_800), lost_per_1000: est(0), merged_per_1000: est(0),
    unknown_outcomes_per_1000: est(0), conflicts_409_per_1000: est(0), mismatches_422_per_1000: est(0), dedup_hits_per_1000: est(0),
    attempts_per_action: est(1.04, 0.005), executions_per_action: est(1.04, 0.005),
    call_latency_ms: { p50: 300, p95: 900, p99: 1500 }, action_latency_ms: { p50: 300, p95: 900, p99: 1500 },
    keys_per_action: est(0), peak_live_keys: 0, keys: 0, key_store_mb: 0,
    handler_over_timeout_fraction: 0.0216, attempts_unknown_fraction: 0.0396,
    alert_baselines_per_s: { dedup_hits: est(0), conflicts_409: est(0), mismatches_422: est(0), unknown_outcomes: est(0) },
  };
}

const scenarioWith = (latency: WrittenLatency) => ({ service: { latency } }) as unknown as WrittenScenario;
const LAB = scenarioWith({ dist: 'lognormal', median: 300, sigma: 0.6 });
const run = (name: string, x: number, scenario = LAB): ScenarioRun => ({ name, file: `${name}.yaml`, seed: '1', scenario, metrics: metrics(x), warnings: [] });
const INFO = { version: '9.9.9', replay: 'idem-sim run a.yaml' };

/** The tables of a report (its footer left out), split at the blank lines between them. */
const tablesOf = (report: string): string[] => report.slice(0, report.lastIndexOf('┘') + 1).split('\n\n');
const widest = (text: string): number => Math.max(...text.split('\n').map((l) => l.length));

describe('how wide a report may be', () => {
  it('COLUMNS wins wherever the report goes; else a terminal\'s width; else no limit', () => {
    const tty = { isTTY: true, columns: 120 };
    expect(reportWidth(tty, {})).toBe(120);
    expect(reportWidth(tty, { COLUMNS: '80' })).toBe(80);
    expect(reportWidth({}, { COLUMNS: ' 100 ' })).toBe(100); // a pipe or a file, narrowed on purpose
    expect(reportWidth({}, {})).toBeUndefined(); // a pipe or a file: the whole table
    expect(reportWidth({ isTTY: false, columns: 50 }, {})).toBeUndefined();
    expect(reportWidth(tty, { COLUMNS: '0' })).toBeUndefined(); // no limit, asked for
    for (const junk of ['', 'wide', '-5', '80px', '1e3']) expect(reportWidth(tty, { COLUMNS: junk }), junk).toBe(120);
    expect(reportWidth({ isTTY: true }, {})).toBeUndefined(); // a terminal that says no width
  });
});

describe('where a wide table is cut', () => {
  // Three columns of 20 beside a label column of 30: a table of k columns is 2 + 30 + 21 k wide.
  it('as few tables as fit, and of those the most even', () => {
    expect(columnGroups(30, [20, 20, 20, 20], 200)).toEqual([[0, 4]]);
    expect(columnGroups(30, [20, 20, 20, 20], 95)).toEqual([[0, 2], [2, 4]]); // three fit (95), but 3 + 1 is lopsided
    expect(columnGroups(30, [20, 20, 20, 20, 20], 95)).toEqual([[0, 3], [3, 5]]);
    expect(columnGroups(30, [20, 20, 20], 60)).toEqual([[0, 1], [1, 2], [2, 3]]);
    expect(columnGroups(30, [], 60)).toEqual([]);
  });

  it('a column wider than the limit is a table of its own, and the others still fit', () => {
    expect(columnGroups(10, [100, 15, 15, 15], 50)).toEqual([[0, 1], [1, 3], [3, 4]]);
    expect(columnGroups(10, [100, 30, 30], 50)).toEqual([[0, 1], [1, 2], [2, 3]]);
  });
});

describe('the run table at a width', () => {
  const runs = ['alpha', 'beta', 'gamma', 'delta'].map((name, i) => run(`scenario-${name}`, i + 1));
  const whole = renderTable(runs, INFO, plain);

  it('with no limit, or one it fits, is one table', () => {
    expect(tablesOf(whole)).toHaveLength(1);
    expect(renderTable(runs, INFO, plain, widest(tablesOf(whole)[0] as string))).toBe(whole);
  });

  it('too wide, is cut into tables of the row labels and a group of columns, the footer once', () => {
    const width = widest(tablesOf(whole)[0] as string) - 1;
    const report = renderTable(runs, INFO, plain, width);
    const tables = tablesOf(report);
    expect(tables).toHaveLength(2);
    // Each table is the table of its scenarios alone: the same rows, labels and cells.
    expect(tables[0]).toBe(tablesOf(renderTable(runs.slice(0, 2), INFO, plain))[0]);
    expect(tables[1]).toBe(tablesOf(renderTable(runs.slice(2), INFO, plain))[0]);
    for (const t of tables) expect(widest(t)).toBeLessThanOrEqual(width);
    expect(report.endsWith(whole.slice(whole.lastIndexOf('┘') + 1))).toBe(true);
    expect(report.match(/^replay: /gm)).toHaveLength(1);
  });

  it('a terminal narrower than one column gives one table a scenario, never a cut cell', () => {
    const tables = tablesOf(renderTable(runs, INFO, plain, 40));
    expect(tables).toHaveLength(4);
    expect(tables.map((t) => t.split('\n')[1]?.trim().split('│').at(-2)?.trim())).toEqual(runs.map((r) => r.name));
  });

  it('one scenario is never cut', () => {
    expect(renderTable(runs.slice(0, 1), INFO, plain, 20)).toBe(renderTable(runs.slice(0, 1), INFO, plain));
  });

  it('colour codes do not count towards the width', () => {
    const colour = new Chalk({ level: 1 });
    const width = widest(tablesOf(whole)[0] as string);
    expect(tablesOf(renderTable(runs, INFO, colour, width))).toHaveLength(1);
  });
});

describe('the footer says what a latency was fitted to', () => {
  // The resolved specs as scenario/parse.ts makes them from {p50: 450ms, p99: 3s} and friends.
  const FITTED: WrittenLatency = { dist: 'lognormal', median: 450, sigma: 0.8154976215047914, fitted_to: { p50: 450, p99: 3000 } };
  const MIXTURE: WrittenLatency = {
    dist: 'mixture',
    components: [
      { dist: 'lognormal', median: 260.0227670843346, sigma: 1.0497548627447477, fitted_to: { p90: 1000, p99: 3000 }, weight: 9 },
      { dist: 'constant', value: 5000, weight: 1 },
      { dist: 'lognormal', median: 450, sigma: 0.7585276164491025, fitted_to: { mean: 600, p50: 450 }, weight: 1 },
    ],
  };

  it('one line a fitted lognormal, with what it was fitted to and what the fit gave', () => {
    expect(fittedLatencies(FITTED)).toEqual(['lognormal fitted to p50 450ms, p99 3s: median 450ms, sigma 0.815']);
    expect(fittedLatencies({ dist: 'lognormal', median: 300, sigma: 0.6 })).toEqual([]);
    expect(fittedLatencies({ dist: 'constant', value: 5 })).toEqual([]);
  });

  it('in the run table, by scenario, and inside a mixture by component', () => {
    const report = renderTable([run('refunds', 1, scenarioWith(FITTED)), run('lab', 1), run('tail', 1, scenarioWith(MIXTURE))], INFO, plain);
    expect(report.split('\n').slice(-6)).toEqual([
      'latency of refunds: lognormal fitted to p50 450ms, p99 3s: median 450ms, sigma 0.815',
      'latency of tail, components[0]: lognormal fitted to p90 1s, p99 3s: median 260ms, sigma 1.05',
      'latency of tail, components[2]: lognormal fitted to mean 600ms, p50 450ms: median 450ms, sigma 0.759',
      'actions simulated: 4,000; ± is the 95% confidence interval, 0 (≤ x) none seen and at most x at 95%; seed 1; idem-sim 9.9.9',
      'replay: idem-sim run a.yaml',
      '',
    ]);
  });
});
