/**
 * Reconciling a run's own effects (run --effects-out's records) finds exactly the duplicates the
 * run counted: every execution of an action beyond its first, plus the twins, which share the
 * business key (a customer's second request, which the reconciliation cannot tell apart from a
 * repeat). The window (1 h) outlasts every repeat these scenarios make (crash replays resume 2 to
 * 20 minutes later), and where the gaps separate the sources, so do the bins; the keys say which
 * mistake let the duplicates through.
 */
import { describe, expect, it } from 'vitest';
import { runEffects, type EffectRecord } from '../src/exec/effects.js';
import { withPrimaries } from '../src/model/clock.js';
import type { Scenario } from '../src/model/types.js';
import { recordRows } from '../src/reconcile/against.js';
import { reconcileRows } from '../src/reconcile/reconcile.js';
import type { Readings } from '../src/reconcile/readings.js';
import { parseRunnable } from './helpers.js';

const HOUR = 3_600_000;

async function reconciled(yaml: string, retentionMs?: number): Promise<{ records: EffectRecord[]; readings: Readings }> {
  const scenario: Scenario = withPrimaries(parseRunnable(yaml), '3');
  const records = [...runEffects(scenario, '3', 'refund')].flat().sort((a, b) => a.at - b.at);
  const r = await reconcileRows(recordRows(records, 'run'), { windowMs: HOUR, ...(retentionMs === undefined ? {} : { retentionMs }) });
  return { records, readings: r.overall };
}

/** The model's duplicates, and the twins' first executions (a second action of a business key). */
function truth(records: readonly EffectRecord[]): { duplicates: number; twins: number; bySource: Record<string, number> } {
  const bySource: Record<string, number> = {};
  for (const r of records) if (r.duplicate) bySource[r.source] = (bySource[r.source] ?? 0) + 1;
  const twins = records.filter((r) => !r.duplicate && r.action.endsWith('.twin')).length;
  return { duplicates: records.filter((r) => r.duplicate).length, twins, bySource };
}

describe('reconciling a run\'s effects finds the duplicates it counted', () => {
  it('scope none (blind retries): every duplicate has no key, and comes within 30 s', async () => {
    const { records, readings } = await reconciled('actions: 20000\nidempotency: {scope: none}\nagent: {replan_probability: 0}\n');
    const t = truth(records);
    expect(t.duplicates).toBeGreaterThan(300);
    expect(readings.duplicates).toBe(t.duplicates);
    expect(readings.diagnosis.no_key).toBe(t.duplicates);
    expect(readings.gaps[0]).toBe(t.bySource['transport']); // transport retries, all under 30 s
  });

  it('scope call (a slow downstream): the re-plans\' duplicates carry another key', async () => {
    const { records, readings } = await reconciled('actions: 20000\nservice: {latency: {median: 1200ms, sigma: 0.6}}\nclient: {timeout: 600ms}\nidempotency: {scope: call}\n');
    const t = truth(records);
    expect(t.bySource['replan']).toBeGreaterThan(0.99 * t.duplicates); // nearly all; the model counts a few as its transport retries' (3 of 7,654 here)
    expect(readings.duplicates).toBe(t.duplicates);
    expect(readings.diagnosis.key_per_call_or_attempt).toBe(t.duplicates);
  });

  it('scope intent: none, and none found', async () => {
    const { records, readings } = await reconciled('actions: 20000\nidempotency: {scope: intent}\n');
    expect(truth(records).duplicates).toBe(0);
    expect(readings.duplicates).toBe(0);
  });

  it('twins: found as duplicates of their business key, beside the model\'s own', async () => {
    const { records, readings } = await reconciled('actions: 20000\nworkload: {twin_probability: 0.1}\nidempotency: {scope: intent}\n');
    const t = truth(records);
    expect(t.twins).toBeGreaterThan(1500);
    expect(readings.duplicates).toBe(t.duplicates + t.twins);
  });

  it('crash replays after a short retention: the same key, after expiry, 2 to 20 minutes on', async () => {
    const retention = 5 * 60_000;
    const { records, readings } = await reconciled('actions: 20000\nruntime: {crash_probability: 0.1}\nidempotency: {scope: intent, retention: 5m}\n', retention);
    const t = truth(records);
    expect(t.bySource['replay']).toBeGreaterThan(500);
    expect(readings.duplicates).toBe(t.duplicates);
    // A replay within the retention finds its stored result: every duplicate is a replay after it expired.
    expect(readings.diagnosis.same_key_after_expiry).toBe(t.bySource['replay']);
    // Resumed 2 to 20 minutes after the step's end, which is rarely later than the first execution by much.
    expect(readings.gaps[2]! + readings.gaps[3]!).toBe(t.bySource['replay']);
    expect(readings.gaps[2]).toBeGreaterThan(0.99 * t.bySource['replay']!);
  });

  it('a redelivered webhook with a key per call: another key, within Slack\'s schedule', async () => {
    const { records, readings } = await reconciled('actions: 20000\nservice: {latency: {median: 3200ms, sigma: 0.5}}\nclient: {timeout: 10s}\nidempotency: {scope: call}\ntrigger: {preset: slack}\n');
    const t = truth(records);
    expect(t.bySource['redelivery']).toBeGreaterThan(10_000);
    expect(readings.duplicates).toBe(t.duplicates);
  });
});
