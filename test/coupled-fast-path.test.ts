/**
 * The coupled engine's fast path (coupled.ts, `simpleArrival`) counts a simple group whole at its
 * arrival; the general steps would count it at its end. The draws are the same in the same order,
 * so a run's sums, metrics and series must be the same bytes either way.
 */
import { describe, expect, test } from 'vitest';
import { coupledRun } from './coupled-helpers.js';

const CASES: Record<string, string> = {
  'lab defaults at 80% (a storm comes)': 'actions: 60000\nservice: {capacity: {workers: 23}}',
  'ten times larger, scope intent': 'actions: 60000\nload: {rate_per_s: 500}\nservice: {capacity: {workers: 230}}\nidempotency: {scope: intent}',
  'twins, errors, lost requests, a bounded queue, scope attempt, check-then-act': `actions: 40000
load: {rate_per_s: 80}
workload: {twin_probability: 0.1}
service: {error_rate: 0.02, crash_probability: 0.01, capacity: {workers: 30, queue: 20, order: lifo, retry_after: 1s}}
network: {request_loss: 0.01}
idempotency: {scope: attempt, claim: check_then_act}`,
  'scope business, lease, drop_expired': `actions: 40000
workload: {twin_probability: 0.2}
service: {capacity: {workers: 20, drop_expired: true}}
idempotency: {scope: business, lease: 2s}`,
};

describe('the coupled fast path gives the same run as the general steps', () => {
  test.each(Object.entries(CASES))('%s', (_, yaml) => {
    const fast = coupledRun(yaml, '4', true);
    const general = coupledRun(yaml, '4', false);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(general));
  });
});
