/** Capacity's readings where a user meets them: expect: refusals, --precision's choices, the report's words for a window. */
import { describe, expect, test } from 'vitest';
import { contractVersion } from '../src/model/capacity.js';
import { incidentChanges } from '../src/report/time-section.js';
import { PRECISION_METRICS } from '../src/results/precision.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario } from '../src/scenario/parse.js';

describe('capacity readings at the edges', () => {
  test('expect: utilisation needs service.capacity: a budget alone is refused as input, naming the key and the fix', () => {
    const yaml = 'client: {retry_budget: aws-standard}\nexpect:\n  utilisation: "< 0.9"\n';
    let error: unknown;
    try { parseScenario(yaml, 'u.yaml'); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).keyPath).toBe('expect.utilisation');
    expect((error as InputError).message).toMatch(/u\.yaml:3.*no service\.capacity.*Set service\.capacity/s);
    expect(() => parseScenario('service: {capacity: {workers: 4}}\nexpect:\n  utilisation: "< 0.9"\n', 'v.yaml')).not.toThrow();
  });

  test('--precision offers no capacity reading (it refuses every coupled scenario)', () => {
    expect(Object.keys(PRECISION_METRICS)).toContain('duplicates_per_1000');
    for (const m of ['shed_per_1000', 'expired_per_1000', 'budget_denied_per_1000', 'breaker_rejected_per_1000']) expect(Object.keys(PRECISION_METRICS)).not.toContain(m);
  });

  test('the report names a window\'s workers, a pause in words', () => {
    const { scenario } = parseScenario(`load: {duration: 20m}
service: {capacity: {workers: 8}}
incidents:
  - {name: pause, from: 1m, to: 2m, service: {capacity: {workers: 0}}}
  - {name: drop, from: 5m, to: 6m, service: {capacity: {workers: 3}}}
`, 'w.yaml');
    expect(scenario.incidents.map(incidentChanges)).toEqual(['every worker paused (0 workers)', '3 workers']);
  });

  test('JSON says the contract version whose rules a run followed', () => {
    expect(contractVersion(true)).toBe(4);
    expect(contractVersion(false)).toBe(2);
  });
});

describe('a range over whole numbers', () => {
  test('whose :N points fall between them is refused, saying what :N means and a count that fits', async () => {
    const { readAxes } = await import('../src/sweeps/plan.js');
    expect(() => readAxes('s.yaml', [], ['service.capacity.workers=10..40:10'], () => 1000)).toThrow(
      /service\.capacity\.workers takes whole numbers, but 10\.\.40:10 makes 10 points 3\.33 apart \(:N is how many points, ends included\)\. Give a count that lands on whole numbers, such as 10\.\.40:11/);
    expect(readAxes('s.yaml', [], ['service.capacity.workers=10..40:4'], () => 1000)[0]?.values).toEqual(['10', '20', '30', '40']);
    expect(readAxes('s.yaml', [], ['client.breaker.failure_rate=0.1..0.5:3'], () => 1000)[0]?.values).toHaveLength(3);
  });
});

describe('sweep labels of the capacity keys', () => {
  test('a preset by its name, an unbounded queue as unbounded', async () => {
    const { pointLabel } = await import('../src/sweeps/labels.js');
    const { scenario } = parseScenario('service: {capacity: {workers: 4}}\nclient: {retry_budget: aws-standard}\n', 'l.yaml');
    expect(pointLabel(scenario, ['client', 'retry_budget'])).toBe('aws-standard');
    expect(pointLabel(scenario, ['service', 'capacity', 'queue'])).toBe('unbounded');
    const custom = parseScenario('client: {retry_budget: {tokens: 9}}\n', 'm.yaml').scenario;
    expect(pointLabel(custom, ['client', 'retry_budget'])).toBe('{"tokens":9,"retry_cost":5,"timeout_cost":10,"success_refund":1}');
  });
});
