/**
 * The coupled engine's bound on work and its slices (engine/coupled/state.ts, drive.ts): a run whose
 * retries, re-plans and replays multiply is refused past the chunk engine's bound for each chunk fed
 * to it, counted over the run, where it ran for minutes and no signal stopped it; and a run simulated
 * a slice of events at a time (so that a signal is heard between slices) gives the same numbers as
 * one simulated in one go.
 */
import { describe, expect, it } from 'vitest';
import { prepareCoupled } from '../src/exec/coupled.js';
import { drive } from '../src/engine/coupled/drive.js';
import { chunkRng } from '../src/random/rng.js';
import { RUNAWAY_WORK } from '../src/engine/runaway.js';
import { parseRunnable } from './helpers.js';

// One action that fails every attempt on one worker: 1,001 attempts a call, 1,001 calls a step, 1,001 steps (10^9 attempts).
const RUNAWAY = `actions: 1
service: {error_rate: 1, latency: {dist: constant, value: 1ms}, capacity: {workers: 1}}
client: {retries: 1000, backoff: {base: 0ms, max: 0ms}}
agent: {replan_probability: 1, max_replans: 1000, replan_delay: {min: 0s, max: 0s}}
runtime: {crash_probability: 1, max_replays: 1000, resume_delay: {min: 0s, max: 0s}}
`;

describe('the coupled engine\'s bound on work', () => {
  it('refuses a run past its bound for the chunks fed so far (here 1, the drain included), naming what multiplies', () => {
    const { sim, plans } = prepareCoupled(parseRunnable(RUNAWAY), '1', null);
    sim.maxWork = 5_000; // the run's bound is MAX_CHUNK_WORK (20,000,000: 6.6 s here); the same rule, smaller
    expect(() => drive(sim, '1', plans())).toThrow(new RegExp(`^${RUNAWAY_WORK} 5,000 attempts and deliveries for each 16,384 actions fed to the coupled run`));
  });

  it('is the run\'s, summed over the chunks fed: an uneven run passes where one chunk\'s share would not, and is refused just past the sum', () => {
    // Two chunks (32,768 actions at 50/s); from 340 s every attempt fails (4 an action, retries 3), so the second chunk's
    // actions make about 63,700 sends and the first's 17,200: 80,933 in all, every group through the general steps (counted).
    const yaml = 'actions: 32768\nservice: {capacity: {workers: 200}}\nclient: {retries: 3}\nagent: {replan_probability: 0}\n'
      + 'incidents:\n  - {name: errors, from: 340s, to: 700s, service: {error_rate: 1}}\n';
    const attempts = (maxWork: number): number => {
      const { sim, plans, state, scenario } = prepareCoupled(parseRunnable(yaml), '1', null, false);
      sim.maxWork = maxWork;
      drive(sim, '1', plans());
      const m = state.finish(scenario);
      return Math.round(m.attempts_per_action.value * m.actions);
    };
    // 45,000 a chunk: the second chunk's 63,700 alone pass it, the sum (80,933) is within 2 × 45,000.
    expect(attempts(45_000)).toBe(80_933);
    // 40,000 a chunk: the sum passes 2 × 40,000.
    expect(() => attempts(40_000)).toThrow(new RegExp(`^${RUNAWAY_WORK} 40,000 attempts and deliveries for each 16,384 actions fed`));
  });
});

describe('a coupled run in slices of events', () => {
  it('gives the same numbers whatever the slice (a storm with a queue, retries and a trigger\'s redeliveries)', () => {
    const yaml = 'actions: 3000\nload: {rate_per_s: 60}\nservice: {capacity: {workers: 12, queue: 200}}\nclient: {retries: 3}\n'
      + 'trigger: {kind: queue, ack_timeout: 2s, redeliveries: 2}\nidempotency: {scope: intent}\n';
    const whole = prepareCoupled(parseRunnable(yaml), '3', 60_000);
    drive(whole.sim, '3', whole.plans());
    const sliced = prepareCoupled(parseRunnable(yaml), '3', 60_000);
    let slices = 0;
    for (const plan of sliced.plans()) {
      sliced.sim.feed(plan, chunkRng('3', plan.index));
      while (!sliced.sim.simulate(false, 7)) slices++;
    }
    while (!sliced.sim.simulate(true, 7)) slices++;
    sliced.sim.flush();
    expect(slices).toBeGreaterThan(100);
    const numbers = (s: typeof whole) => JSON.stringify(s.state.finish(s.scenario));
    expect(numbers(sliced)).toBe(numbers(whole));
  });
});
