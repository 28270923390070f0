/** check, missions, presets and size: the in-process parts (through the real binary: check.e2e.test.ts). */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, parseThreshold } from '../src/scenario/expect.js';
import { parseScenario } from '../src/scenario/parse.js';
import { ROOT, sim } from './helpers.js';

describe('expectations', () => {
  it('thresholds: operators, numbers and durations', () => {
    expect(parseThreshold('<= 0.5')).toEqual({ op: '<=', threshold: 0.5 });
    expect(parseThreshold('==0')).toEqual({ op: '==', threshold: 0 });
    expect(parseThreshold('< 3s')).toEqual({ op: '<', threshold: 3000 });
    expect(parseThreshold('> 1e-3')).toEqual({ op: '>', threshold: 0.001 });
  });

  it('confidence: ci95 passes only if the whole interval does', () => {
    const parsed = parseScenario('expect:\n  duplicates_per_1000: "< 46"\n  attempts_per_action: {threshold: "< 46", confidence: ci95}\n', 'x.yaml');
    const m = sim('', 4000);
    const [plain] = parsed.expectations;
    expect(plain?.origin).toMatchObject({ source: 'x.yaml', line: 2 });
    // At 4,000 actions the estimate (about 42 per 1000) is below 46; its 95% interval (± 6.7) is not.
    expect(check(plain!, m).pass).toBe(true);
    expect(check({ ...plain!, confidence: 'ci95' }, m).pass).toBe(false);
  });

  it('confidence: ci95 on a reading with no interval (a percentile, an alert\'s) is warned of at its line; on an estimate it is not', () => {
    const parsed = parseScenario([
      'load: {duration: 1h}', 'alerts: [{name: slow, metric: timeouts, above: 1}]', 'expect:', '  confidence: ci95',
      '  duplicates_per_1000: "< 46"', '  call_latency_ms.p95: "< 5s"', '  alerts.slow.false_alarms: "== 0"', '',
    ].join('\n'), 'x.yaml');
    expect(parsed.warnings.map((w) => [w.keyPath, w.origin?.line])).toEqual([['expect.call_latency_ms.p95', 6], ['expect.alerts.slow.false_alarms', 7]]);
    expect(parsed.warnings[0]?.problem).toMatch(/^confidence ci95 \(the expect block's\) has no effect: this reading has no 95% interval/);
    expect(parseScenario('expect:\n  call_latency_ms.p95: "< 5s"\n', 'x.yaml').warnings).toEqual([]);
    // Each is an expectation's warning (check alone says them), and the block's names the long form that ends it.
    expect(parsed.warnings.map((w) => w.kind)).toEqual(['expectation', 'expectation']);
    expect(parsed.warnings[0]?.fix).toBe('To say so in the file, write it as {threshold: "< 5s", confidence: none}; the block\'s confidence then leaves it alone.');
    const silenced = parseScenario('expect:\n  confidence: ci95\n  call_latency_ms.p95: {threshold: "< 5s", confidence: none}\n', 'x.yaml');
    expect(silenced.warnings).toEqual([]);
  });

  it('"==" under ci95 on an estimate is warned of, "== 0" as never passing: a count of none has an interval above 0', () => {
    const parsed = parseScenario('expect:\n  confidence: ci95\n  lost_per_1000: "== 0"\n  attempts_per_action: "== 1"\n  duplicates_per_1000: "<= 1"\n', 'x.yaml');
    expect(parsed.warnings.map((w) => [w.keyPath, w.origin?.line, w.kind])).toEqual([['expect.lost_per_1000', 3, 'expectation'], ['expect.attempts_per_action', 4, 'expectation']]);
    expect(parsed.warnings[0]?.problem).toMatch(/never for 0, since a count of none has the interval 0 to 3\/n/);
    expect(parsed.warnings[1]?.problem).not.toMatch(/never/);
    // What the warning says: no run of a scenario that loses nothing passes it (lost is 0 in the lab: no crash).
    const m = sim('', 4000);
    const lost = parsed.expectations[0]!;
    expect(m.lost_per_1000.value).toBe(0);
    expect(check(lost, m).pass).toBe(false);
    expect(check({ ...lost, confidence: 'none' }, m).pass).toBe(true);
  });
});

describe('missions', () => {
  const missions = readdirSync(join(ROOT, 'scenarios')).filter((f) => f.startsWith('mission-'));
  it('there are five, each with a solution of the same name', () => {
    expect(missions).toHaveLength(5);
    expect(readdirSync(join(ROOT, 'scenarios/solutions')).sort()).toEqual(missions.sort());
  });
});

describe('presets', () => {
  const resolve = (yaml: string) => parseScenario(yaml, 'x').scenario;
  it.each([
    ['stripe', { retention: 86_400_000, on_error: 'store', fingerprint: 'full', claim: 'atomic' }],
    ['ietf-draft', { fingerprint: 'full', retention: 86_400_000, lease: 60_000 }],
    ['brandur-pg', { transactional: true, lease: 90_000, retention: 259_200_000 }],
    ['powertools', { retention: 3_600_000, on_error: 'release' }],
    ['node-idempotency', { retention: 86_400_000, lease: null, on_error: 'store', conflict_retry_after: 1000 }],
  ])('%s', (name, values) => {
    expect(resolve(`preset: ${name}`).idempotency).toMatchObject(values);
  });

  it.each([
    ['stripe-sdk', { retries: 3, backoff: { base: 500, multiplier: 2, max: 5000, jitter: 'equal' } }],
    ['temporal', { backoff: { base: 1000, multiplier: 2, max: 100_000, jitter: 'none' } }],
    ['langgraph', { retries: 2, backoff: { base: 500, multiplier: 2, max: 128_000, jitter: 'equal' } }],
  ])('client.preset %s', (name, values) => {
    expect(resolve(`client: {preset: ${name}}`).client).toMatchObject(values);
  });

  it('keys written in the scenario win over the preset', () => {
    const s = resolve('preset: stripe\nidempotency: {retention: 1h, scope: intent}\nclient: {preset: temporal, backoff: {max: 10s}}');
    expect(s.idempotency).toMatchObject({ retention: 3_600_000, scope: 'intent', on_error: 'store' });
    expect(s.client.backoff).toMatchObject({ base: 1000, max: 10_000 });
  });
});

describe('alert baselines', () => {
  it('per second at the scenario rate: the per-1000 rates times actions per second', () => {
    const m = sim('service: {latency: {median: 1200ms}}\nclient: {timeout: 600ms}\nidempotency: {scope: call}', 4000);
    expect(m.alert_baselines_per_s.conflicts_409.value).toBeCloseTo((m.conflicts_409_per_1000.value / 1000) * 50, 9);
    expect(m.alert_baselines_per_s.dedup_hits.value).toBeCloseTo((m.dedup_hits_per_1000.value / 1000) * 50, 9);
  });
});
