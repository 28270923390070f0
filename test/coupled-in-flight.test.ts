/**
 * A coupled run's work in flight is bounded (engine/coupled/in-flight.ts): actions, requests at
 * the server, the client's pending timeouts; and a backlog that outlasts the series' buckets is
 * counted to the run's end in twice the step, as often as it takes (engine/series-tally.ts).
 */
import { KeyGrid } from '../src/engine/peak.js';
import { describe, expect, test } from 'vitest';
import { detachedOutput } from '../src/engine/chunk-output.js';
import { CoupledSimulator } from '../src/engine/coupled/coupled.js';
import { drive } from '../src/engine/coupled/drive.js';
import { TimedQueue } from '../src/engine/coupled/heap.js';
import { IN_FLIGHT_LIMITS, IN_FLIGHT_OVERFLOW, type InFlightLimits } from '../src/engine/coupled/in-flight.js';
import { runPlans } from '../src/engine/plan.js';
import { SeriesSum, SeriesTally } from '../src/engine/series-tally.js';
import { simulateCoupled } from '../src/exec/coupled.js';
import { withPrimaries } from '../src/model/clock.js';
import { MAX_SERIES_BUCKETS } from '../src/model/limits.js';
import { NUM_SERIES, SER } from '../src/model/series.js';
import { streamRng } from '../src/random/rng.js';
import { parseRunnable } from './helpers.js';

/** What the tests read of a simulator's structures (private to the engine). */
interface Inside {
  groups: { capacity: number; live: number };
  requests: { peak: number; live: number; actor: Int32Array; send: Float64Array };
  queue: { size: number };
  timeouts: { size: number; room: number };
  heap: { size: number };
}

/** A coupled run of `yaml` under `limits`: the simulator (whatever it holds when it stops) and the error that stopped it, if any. */
function runUnder(yaml: string, limits: InFlightLimits, seed = '1'): { inside: Inside; error: Error | undefined } {
  const s = withPrimaries(parseRunnable(yaml), seed);
  const sim = new CoupledSimulator({ scenario: s, rng: streamRng(seed, 'coupled'), grid: new KeyGrid(1e9), seriesStep: null, loadEnd: Infinity, limits, emit: (o) => detachedOutput(o) });
  let error: Error | undefined;
  try {
    drive(sim, seed, runPlans(s, seed));
  } catch (e) {
    error = e as Error;
  }
  return { inside: sim as unknown as Inside, error };
}

/** The attacker's scenario: every attempt waits in an unbounded queue past its timeout, and each action retries 1,000 times. */
const RETRIES_FILL_QUEUE = `actions: 20000
load: {rate_per_s: 100}
service: {capacity: {workers: 2}}
client: {retries: 1000}
`;

describe('work in flight', () => {
  test('retries that fill an unbounded queue stop at the requests\' limit, and nothing grew past it', () => {
    const limits = { ...IN_FLIGHT_LIMITS, requests: 4096 };
    const { inside, error } = runUnder(RETRIES_FILL_QUEUE, limits);
    expect(error?.message).toMatch(new RegExp(`^${IN_FLIGHT_OVERFLOW} more than 4,096 requests at the server at once at minute \\d+ of the run$`));
    // Refused before it would take one more: the slots, their arrays and the queue stayed at the limit.
    expect(inside.requests.live).toBe(4096);
    expect(inside.requests.peak).toBe(4096);
    expect(inside.requests.actor.length).toBeLessThanOrEqual(4096);
    expect(inside.requests.send.length).toBeLessThanOrEqual(4096);
    expect(inside.queue.size).toBeLessThanOrEqual(4096);
    // The rest follows: a timeout or a send an actor, one event a running request or actor.
    const actors = 2 * inside.groups.capacity;
    expect(inside.timeouts.size).toBeLessThanOrEqual(actors);
    expect(inside.heap.size).toBeLessThanOrEqual(2 * actors + 2);
  });

  test('actions in flight stop at their limit, a lower one when each keeps a key store', () => {
    const plain = runUnder(RETRIES_FILL_QUEUE, { ...IN_FLIGHT_LIMITS, actions: 256 });
    expect(plain.error?.message).toMatch(/more than 256 actions in flight at once at minute 0 of the run$/);
    expect(plain.inside.groups.capacity).toBe(256);
    const keyed = runUnder(`${RETRIES_FILL_QUEUE}idempotency: {scope: attempt}\n`, { ...IN_FLIGHT_LIMITS, keyedActions: 64 });
    expect(keyed.error?.message).toMatch(/more than 64 actions in flight \(each with its key store\) at once/);
    expect(keyed.inside.groups.capacity).toBe(64);
  });

  test('the limits leave capacity-storm.yaml\'s storm alone', () => {
    // It holds some 47,000 actions and at most 294,220 requests in flight: far below both.
    const storm = `load: {rate_per_s: 50, duration: 30m}
service: {latency: {median: 300ms, sigma: 0.6}, capacity: {workers: 26}}
client: {timeout: 1s, retries: 3}
incidents:
  - {name: pause, from: 10m, to: 630s, service: {capacity: {workers: 0}}}
`;
    const { inside, error } = runUnder(storm, IN_FLIGHT_LIMITS);
    expect(error).toBeUndefined();
    expect(inside.requests.peak).toBeGreaterThan(200_000);
    expect(inside.requests.peak).toBeLessThan(IN_FLIGHT_LIMITS.requests / 4);
  });

  test('timeouts of attempts answered before them do not pile up', () => {
    // Every attempt waits a moment in the queue (one worker), which schedules its 1-hour timeout,
    // and is answered a 5xx within milliseconds; the client retries 1 ms later. Each timeout
    // that will never be heard stayed in the client's ring for its hour: 34,142 of them, in a
    // ring of 65,536, where at most one an actor can still be heard.
    const { inside, error } = runUnder(`actions: 2000
load: {rate_per_s: 10}
service: {latency: {dist: constant, value: 1ms}, error_rate: 1, capacity: {workers: 1}}
client: {timeout: 1h, retries: 1000, backoff: {base: 1ms, max: 1ms, jitter: none}}
`, IN_FLIGHT_LIMITS);
    expect(error).toBeUndefined();
    const actors = 2 * inside.groups.capacity;
    expect(inside.timeouts.room).toBeLessThanOrEqual(4 * Math.max(actors, 64));
  });

  test('a timed queue drops the events that will not be heard, and keeps the others in order', () => {
    const heard = new Set<number>();
    const q = new TimedQueue((a) => heard.has(a));
    // 1000 pushes through rings of 256 and more: every third heard; the ring wraps as it goes.
    const popped: number[] = [];
    for (let a = 0; a < 1000; a++) {
      if (a % 3 === 0) heard.add(a);
      q.push(a, a, a, 0);
      if (a % 5 === 4) { q.pop(); if (heard.has(q.topA)) popped.push(q.topA); }
    }
    while (q.size > 0) { q.pop(); if (heard.has(q.topA)) popped.push(q.topA); }
    expect(popped).toEqual([...heard].sort((x, y) => x - y));
    expect(q.room).toBeLessThanOrEqual(1024);
  });
});

describe('a series a queue\'s backlog outlasts', () => {
  /** The tally's counts of `m` by bucket, where there are any. */
  const counted = (t: SeriesTally, m = 0): Record<number, number> => {
    const rows = t.rows();
    const out: Record<number, number> = {};
    for (let r = 0; r < rows.length / NUM_SERIES; r++) if (rows[r * NUM_SERIES + m]) out[t.base + r] = rows[r * NUM_SERIES + m] as number;
    return out;
  };

  test('the tally doubles its step, summing the rows so far two by two, and goes on', () => {
    const t = new SeriesTally(1, true);
    t.begin(0);
    t.add(0, 99_999.5); // bucket 99,999: the last of 1 ms
    t.add(0, 3.2, 2);
    expect(t.step).toBe(1);
    t.add(0, 150_000.5); // past the buckets: 2 ms holds it, in bucket 75,000
    t.add(0, 120_000);
    expect(t.step).toBe(2);
    expect(counted(t)).toEqual({ 1: 2, 49_999: 1, 60_000: 1, 75_000: 1 });
    // As often as it takes: 450,000 ms is bucket 112,500 of 4 ms and 56,250 of 8 ms.
    t.add(0, 450_000);
    expect(t.step).toBe(8);
    expect(counted(t)).toEqual({ 0: 2, 12_499: 1, 15_000: 1, 18_750: 1, 56_250: 1 });
    expect(t.rows().length).toBe(56_251 * NUM_SERIES);
  });

  test('without it (the chunk engine) an event past the buckets stops the run at once', () => {
    const t = new SeriesTally(1);
    expect(() => t.add(0, 150_000)).toThrow(/the series ran past its buckets: an event at 150000 ms/);
  });

  test('a sum takes the longer step of the rows added to it, its own rows summed into it', () => {
    const sum = new SeriesSum(5);
    const row = (b: number, n: number) => { const r = new Float64Array(NUM_SERIES); r[SER.timeouts] = n; return { b, r }; };
    const a = row(3, 7);
    sum.add(a.b, a.r);
    const b = row(1, 4);
    sum.add(b.b, b.r, 20); // bucket 1 of 20 ms: [20, 40), which holds bucket 3 of 5 ms ([15, 20) does not: bucket 0)
    const got = sum.result();
    expect(got.step).toBe(20);
    expect([...got.counts].filter((x) => x !== 0)).toEqual([7, 4]);
    expect(got.counts[0 * NUM_SERIES + SER.timeouts]).toBe(7);
    expect(got.counts[1 * NUM_SERIES + SER.timeouts]).toBe(4);
    expect(() => sum.add(0, new Float64Array(NUM_SERIES), 30)).toThrow(/cannot be added/);
  });

  test('capacity-storm.yaml: the step checked before the run (34 ms) falls short of its backlog; the run gives what twice the step gives', () => {
    const s = parseRunnable(`load: {rate_per_s: 50, duration: 30m}
service: {latency: {median: 300ms, sigma: 0.6}, capacity: {workers: 26}}
client: {timeout: 1s, retries: 3}
incidents:
  - {name: pause, from: 10m, to: 630s, service: {capacity: {workers: 0}}}
`);
    const asked = simulateCoupled(s, '1', 34).state;
    const series = asked.series();
    // The last event at minute 98.x is bucket 174,000 or so of 34 ms, bucket 87,000 of 68 ms.
    expect(series?.step).toBe(68);
    expect(series?.buckets).toBeLessThanOrEqual(MAX_SERIES_BUCKETS);
    expect((series?.buckets ?? 0) * 68).toBeGreaterThan(98 * 60_000);
    const twice = simulateCoupled(s, '1', 68).state;
    expect(twice.series()).toEqual(series);
    expect(asked.finish(s)).toEqual(twice.finish(s));
  });
});
