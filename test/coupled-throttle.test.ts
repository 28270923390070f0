/**
 * gRPC's retry throttling (docs/model.md, "Capacity", version 4): the counter's arithmetic in
 * thousandths, the contract's reference point and closed forms, its order with the budget, and
 * its reading where it is set only.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CONFLICT_409, ERR_5XX, MISMATCH_422, NO_REPLY, OK, SHED_503 } from '../src/engine/attempt.js';
import { RetryThrottle } from '../src/engine/coupled/throttle.js';
import { simulate } from '../src/exec/simulate.js';
import { C } from '../src/model/counters.js';
import { coupledBlocks } from './coupled-helpers.js';
import { captured } from './command-line.js';
import { parseRunnable, scratch } from './helpers.js';

const sum = (blocks: ReturnType<typeof coupledBlocks>, k: number) => blocks.reduce((a, o) => a + (o.sum[k] as number), 0);

describe('the throttle\'s counter', () => {
  test('failures take 1, successes add the ratio, a 422 nothing; a retry only above half the most', () => {
    const t = new RetryThrottle({ max_tokens: 10, token_ratio: 0.1 });
    const learn = (status: number) => t.learned(0, 0, 0, status);
    for (const [status, left] of [[NO_REPLY, 9], [ERR_5XX, 8], [CONFLICT_409, 7], [SHED_503, 6]] as const) {
      learn(status);
      expect(t.tokens).toBe(left);
      expect(t.allowsRetry(0, status)).toBe(true); // 2 · 6000 > 10000
    }
    learn(NO_REPLY);
    expect(t.tokens).toBe(5);
    expect(t.allowsRetry(0, NO_REPLY)).toBe(false); // 5 is not above 10 / 2
    learn(MISMATCH_422);
    expect(t.tokens).toBe(5);
    learn(OK);
    expect(t.tokens).toBe(5.1); // 5100 thousandths: above half again
    expect(t.allowsRetry(0, NO_REPLY)).toBe(true);
    for (let k = 0; k < 10; k++) learn(NO_REPLY);
    expect(t.tokens).toBe(0); // never below 0
    for (let k = 0; k < 200; k++) learn(OK);
    expect(t.tokens).toBe(10); // never above the most
  });

  test('the ratio is kept to three decimals, as gRPC keeps it', () => {
    const t = new RetryThrottle({ max_tokens: 3, token_ratio: 0.0104 });
    t.learned(0, 0, 0, NO_REPLY);
    t.learned(0, 0, 0, OK);
    expect(t.tokens).toBe(2.01);
  });
});

describe('a throttled run', () => {
  const FAILING = (extra: string) => `actions: 1000
load: {rate_per_s: 10}
client: {timeout: 100ms, retries: 3${extra}}
agent: {replan_probability: 0}
`;

  test('the contract\'s reference point: every attempt timing out, exactly 4 retries go out and every action has one throttled', () => {
    const blocks = coupledBlocks(`network: {request_loss: 1}\n${FAILING(', retry_throttle: {}')}`, '3', true);
    // The counter reads 9, 8, 7, 6 after the first four failures (each allowing a retry), then 5:
    // from then on every failure finds it at or below half and throttles that action's retry.
    expect(sum(blocks, C.attempts)).toBe(1000 + 4);
    expect(sum(blocks, C.throttled)).toBe(1000);
  });

  test('every attempt failing with a 5xx: the same closed form', () => {
    const blocks = coupledBlocks(`service: {error_rate: 1}\nnetwork: {reply_loss: 0}\n${FAILING(', retry_throttle: {max_tokens: 10, token_ratio: 0.1}')}`, '5', true);
    expect(sum(blocks, C.attempts)).toBe(1004);
    expect(sum(blocks, C.throttled)).toBe(1000);
  });

  test('a run where every attempt succeeds never throttles', () => {
    const blocks = coupledBlocks(`actions: 1000
load: {rate_per_s: 10}
service: {latency: {dist: constant, value: 50ms}}
network: {reply_loss: 0}
client: {timeout: 1s, retries: 3, retry_throttle: {max_tokens: 1, token_ratio: 0.001}}
`, '3', true);
    expect(sum(blocks, C.throttled)).toBe(0);
    expect(sum(blocks, C.attempts)).toBe(1000);
  });

  test('with a budget too, the throttle decides first: a throttled retry takes no token and is no denial', () => {
    const blocks = coupledBlocks(`network: {request_loss: 1}\n${FAILING(', retry_throttle: {}, retry_budget: aws-standard')}`, '3', true);
    expect(sum(blocks, C.attempts)).toBe(1004); // the budget (500 tokens, 10 a timeout) allowed the 4 the throttle let through
    expect(sum(blocks, C.throttled)).toBe(1000);
    expect(sum(blocks, C.budget_denied)).toBe(0);
  });

  test('throttled_per_1000 is reported where client.retry_throttle is set, and only there', () => {
    const throttled = parseRunnable(`network: {request_loss: 1}\n${FAILING(', retry_throttle: {}')}`);
    const m = simulate(throttled, '3').state.finish(throttled);
    expect(m.throttled_per_1000?.value).toBe(1000);
    expect(m.attempts_per_action.value).toBeCloseTo(1.004, 12);
    const budgeted = parseRunnable(FAILING(', retry_budget: aws-standard'));
    expect('throttled_per_1000' in simulate(budgeted, '3').state.finish(budgeted)).toBe(false);
  });
});

describe('the throttle in the command\'s outputs', () => {
  const FILE = `actions: 1000
load: {rate_per_s: 10}
network: {request_loss: 1}
client: {timeout: 100ms, retries: 3, retry_throttle: {}}
agent: {replan_probability: 0}
expect:
  throttled_per_1000: "> 999"
`;

  test('table, JSON, CSV, the series and check all carry it', async () => {
    const file = join(scratch(), 'throttled.yaml');
    writeFileSync(file, FILE);
    const table = await captured(['run', file, '--seed', '3']);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/retries throttled per 1000 +│ +1,000/);
    const json = JSON.parse((await captured(['run', file, '--seed', '3', '--format', 'json'])).stdout) as { results: { metrics: { throttled_per_1000: { value: number } } }[] };
    expect(json.results[0]?.metrics.throttled_per_1000.value).toBe(1000);
    const [head, row] = (await captured(['run', file, '--seed', '3', '--format', 'csv'])).stdout.trim().split('\n');
    const at = head?.split(',').indexOf('throttled_per_1000') ?? -1;
    expect(at).toBeGreaterThan(0);
    expect(row?.split(',')[at]).toBe('1000');
    const series = (await captured(['run', file, '--seed', '3', '--series', '1m', '--format', 'csv'])).stdout.trim().split('\n');
    const col = series[0]?.split(',').indexOf('throttled') ?? -1;
    expect(col).toBeGreaterThan(0);
    expect(series.slice(1).reduce((a, r) => a + Number(r.split(',')[col]), 0)).toBe(1000);
    expect((await captured(['check', file, '--seed', '3'])).status).toBe(0);
    writeFileSync(file, FILE.replace('"> 999"', '"< 1"'));
    expect((await captured(['check', file, '--seed', '3'])).status).toBe(1);
  });

  test('an expectation on it without the throttle, and a throttle with no retries, are said', async () => {
    const file = join(scratch(), 'unthrottled.yaml');
    writeFileSync(file, FILE.replace(', retry_throttle: {}', ', retry_budget: aws-standard'));
    const refused = await captured(['check', file]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/expect\.throttled_per_1000: is reported only by scenarios with client\.retry_throttle set/);
    writeFileSync(file, 'actions: 1000\nclient: {retry_budget: aws-standard}\n');
    // Refused as input (main.ts gives such an error exit 2).
    await expect(captured(['sweep', file, '--vary', 'client.retries=2,3', '--metric', 'throttled_per_1000'])).rejects.toThrow(/throttled_per_1000 is reported only by scenarios with client\.retry_throttle set/);
    await expect(captured(['run', 'scenarios/mission-1-blind-retries.yaml', '--precision', '0.001', '--precision-metric', 'throttled_per_1000'])).rejects.toThrow(/throttled_per_1000/);
    writeFileSync(file, 'actions: 1000\nclient: {retries: 0, retry_throttle: {}}\n');
    expect((await captured(['run', file])).stderr).toMatch(/client\.retry_throttle: has no effect: client\.retries is 0/);
  });
});
