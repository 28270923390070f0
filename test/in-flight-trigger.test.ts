/**
 * A coupled run past its limits of work in flight (engine/coupled/in-flight.ts) with a trigger:
 * each delivery's run adds attempts that compete for the workers, so the refusal's fix names the
 * trigger's keys beside client.retries. The run's driver (exec/) adds the note, since the error
 * is made where the scenario is not at hand; here the drive is made to fail at once.
 */
import { describe, expect, it, vi } from 'vitest';
import { inFlightOverflow, IN_FLIGHT_TRIGGERED } from '../src/engine/coupled/in-flight.js';

vi.mock('../src/engine/coupled/drive.js', () => ({
  drive: () => { throw inFlightOverflow(4096, 'requests at the server', 180_000); },
  driving: function* () { throw inFlightOverflow(4096, 'requests at the server', 180_000); },
}));

const { simulateCoupled } = await import('../src/exec/coupled.js');
const { runCoupled } = await import('../src/exec/coupled-run.js');
const { inputFailure } = await import('../src/exec/input-failure.js');
const { parseRunnable } = await import('./helpers.js');

const COUPLED = 'actions: 1000\nservice: {capacity: {workers: 2}}\n';
const TRIGGER = 'trigger: {kind: queue, ack_timeout: 1s, redeliveries: 5}\n';
const HEAD = 'the coupled run holds too much work in flight: more than 4,096 requests at the server at once at minute 3 of the run';

/** The error a run of `yaml` stops with, through the driver of `how`. */
async function failure(yaml: string, how: 'simulate' | 'run'): Promise<Error> {
  const scenario = parseRunnable(yaml);
  try {
    if (how === 'simulate') simulateCoupled(scenario, '1', null);
    else await runCoupled({ scenario, seed: '1' });
  } catch (e) {
    return e as Error;
  }
  throw new Error('the run did not fail');
}

describe('the in-flight refusal of a coupled run with a trigger', () => {
  it('says the scenario has a trigger, through either driver, and names the trigger\'s keys in its fix', async () => {
    for (const how of ['simulate', 'run'] as const) {
      const e = await failure(COUPLED + TRIGGER, how);
      expect(e.message, how).toBe(`${HEAD}${IN_FLIGHT_TRIGGERED}`);
      const text = inputFailure(e);
      expect(text, how).toMatch(/, and whose retries and redeliveries add to it: each delivery whose step outlasts its deadline is delivered again/);
      expect(text, how).toMatch(/lower client\.retries, give the trigger a longer trigger\.ack_timeout or trigger\.extend_up_to \(fewer steps outlast their deadline\), fewer trigger\.redeliveries or a later trigger\.schedule, or simulate fewer actions/);
    }
  });

  it('without a trigger, says what it said before', async () => {
    for (const how of ['simulate', 'run'] as const) {
      const e = await failure(COUPLED, how);
      expect(e.message, how).toBe(HEAD);
      expect(inputFailure(e), how).toBe(`${HEAD}. Work piles up faster than the workers take it (a storm whose queue never drains, and whose retries add to it): bound service.capacity.queue (requests past it are shed), add a guard (drop_expired, a retry budget, a breaker), lower client.retries, or simulate fewer actions (a smaller actions or a shorter load.duration); see docs/security-and-limits.md.`);
    }
  });
});
