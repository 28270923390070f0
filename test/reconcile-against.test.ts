/**
 * Reconciled duplicates against the model (reconcile/against.ts). The observed rows are a run's
 * own effects (run --effects-out's records) from one seed, the model run from another: the same
 * scenario must be found consistent, another one not, in the right direction. The test is exact
 * Poisson at p < 0.01; duplicates come in clusters (an action's several retries), so the spread
 * is wider than Poisson's and a consistent pair fails more often than 1%: the seeds are fixed,
 * and the other scenario is chosen far off (several times fewer), where the test has no doubt.
 */
import { Chalk } from 'chalk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captured } from './command-line.js';
import { renderReconcileJson } from '../src/report/reconcile-json.js';
import { renderReconcileTable } from '../src/report/reconcile-table.js';
import { runEffects } from '../src/exec/effects.js';
import { withPrimaries } from '../src/model/clock.js';
import { againstModel, recordRows } from '../src/reconcile/against.js';
import { reconcileRows } from '../src/reconcile/reconcile.js';
import type { Scenario } from '../src/model/types.js';
import { parseRunnable, ROOT } from './helpers.js';

const HOUR = 3_600_000;

async function observedOf(scenario: Scenario, seed: string) {
  const bound = withPrimaries(scenario, seed);
  const records = [...runEffects(bound, seed, 'refund')].flat().sort((a, b) => a.at - b.at);
  return (await reconcileRows(recordRows(records, 'production'), { windowMs: HOUR })).overall;
}

describe('against the model', () => {
  const blind = parseRunnable('actions: 20000\nidempotency: {scope: none}\n');

  it('the same scenario from another seed: consistent, the ratio near 1', async () => {
    const observed = await observedOf(blind, 'observed');
    expect(observed.duplicates).toBeGreaterThan(500); // about 44 per 1000 actions
    const r = await againstModel(observed, blind, 'model', 'blind.yaml', HOUR, null);
    expect(r.verdict).toBe('consistent');
    expect(r.ratio!.low).toBeLessThan(1);
    expect(r.ratio!.high).toBeGreaterThan(1);
    expect(r.simulatedActions).toBe(10 * observed.businessKeys);
    expect(r.twinShare).toBe(0);
  });

  it('a scenario that predicts several times fewer (a timeout above the tail, fewer lost replies): more than predicted, by that much', async () => {
    const observed = await observedOf(blind, 'observed');
    const fewer = parseRunnable('actions: 20000\nidempotency: {scope: none}\nclient: {timeout: 3s}\nnetwork: {reply_loss: 0.005}\n');
    const r = await againstModel(observed, fewer, 'model', 'fewer.yaml', HOUR, null);
    expect(r.verdict).toBe('more');
    expect(r.pValue).toBeLessThan(1e-6);
    expect(r.ratio!.low).toBeGreaterThan(4);
  });

  it('names the share of the predicted duplicates that are twins (asked for twice)', async () => {
    const twins = parseRunnable('actions: 20000\nworkload: {twin_probability: 0.1}\nidempotency: {scope: intent}\n');
    const observed = await observedOf(twins, 'observed');
    const r = await againstModel(observed, twins, 'model', 'twins.yaml', HOUR, null);
    // Intent keys leave almost no repeat: nearly every reconciled duplicate is a twin the customer asked for.
    expect(r.twinShare!).toBeGreaterThan(0.9);
    expect(r.verdict).toBe('consistent');
  });
});

describe('the comparison in the report', () => {
  it('follows the table and sits in JSON as against_model', async () => {
    const blind = parseRunnable('actions: 5000\nidempotency: {scope: none}\n');
    const bound = withPrimaries(blind, 'observed');
    const records = [...runEffects(bound, 'observed', 'refund')].flat().sort((a, b) => a.at - b.at);
    const r = await reconcileRows(recordRows(records, 'production'), { windowMs: HOUR });
    const against = await againstModel(r.overall, blind, 'model', 'blind.yaml', HOUR, null);
    const withIt = { ...r, against };
    const table = renderReconcileTable(withIt, 'test', new Chalk({ level: 0 }));
    expect(table).toMatch(/Against the model blind\.yaml: consistent with the model \(p = [\d.]+\)/);
    expect(table).toContain('duplicates expected for these business keys');
    const json = JSON.parse(renderReconcileJson(withIt, 'test')) as { against_model: { verdict: string; observed: number; observed_ci95: number[] } };
    expect(json.against_model.verdict).toBe('consistent');
    expect(json.against_model.observed).toBe(r.overall.duplicates);
    expect(json.against_model.observed_ci95).toHaveLength(2);
    expect(renderReconcileTable(r, 'test', new Chalk({ level: 0 }))).not.toContain('Against the model');
  });
});

describe('reconcile --scenario', () => {
  it('holds a run\'s effects against its own scenario (consistent) and against its solution (more, where it predicts none)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-against-'));
    const effects = join(dir, 'm1.csv');
    const mission = join(ROOT, 'scenarios/mission-1-blind-retries.yaml');
    expect((await captured(['run', mission, '--actions', '20000', '--seed', '5', '--effects-out', effects])).status).toBe(0);
    const same = await captured(['reconcile', effects, '--scenario', mission]);
    expect(same.stdout).toMatch(/Against the model mission-1-blind-retries: consistent with the model/);
    const solved = await captured(['reconcile', effects, '--scenario', join(ROOT, 'scenarios/solutions/mission-1-blind-retries.yaml'), '--format', 'json']);
    const a = (JSON.parse(solved.stdout) as { against_model: { verdict: string; expected: number; observed: number } }).against_model;
    expect(a).toMatchObject({ verdict: 'more', expected: 0 });
    expect(a.observed).toBeGreaterThan(500);
    await expect(captured(['reconcile', effects, '--scenario', join(dir, 'missing.yaml')])).rejects.toThrow(/missing\.yaml/);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('against a scenario with a trigger', () => {
  it('says when its redeliveries come, and in which gap bin their duplicates land', async () => {
    const slack = parseRunnable('actions: 5000\nservice: {latency: {median: 3200ms, sigma: 0.5}}\nclient: {timeout: 10s}\nidempotency: {scope: call}\ntrigger: {preset: slack}\n');
    const observed = await observedOf(slack, 'observed');
    const r = await againstModel(observed, slack, 'model', 'slack.yaml', HOUR, null);
    // Slack: a 3 s deadline, then at once, after 1 minute and after 5: 3 s, 1 min 6 s and 6 min 9 s after the first delivery.
    expect(r.redeliveryAt).toEqual([3_000, 66_000, 369_000]);
    expect(r.verdict).toBe('consistent');
    const table = renderReconcileTable({ ...(await reconcileRows(recordRows([], 'none'), { windowMs: HOUR })), against: r }, 'test', new Chalk({ level: 0 }));
    expect(table).toMatch(/its trigger redelivers at \(gaps from the first delivery\) │ 3 s \(< 30 s\), 1\.1 min \(30 s – 2 min\), 6\.15 min \(2 – 20 min\)/);
  });
});
