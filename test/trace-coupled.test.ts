/**
 * The action timeline of a coupled scenario (docs/model.md, "Capacity"): the coupled engine
 * traced leaves its simulation as it is, its traced attempts, executions, sheds, expiries,
 * budget denials and breaker rejections are those it counts, each wait is the one it measured,
 * and the drawing shows them (the wait as the bar's lighter start) with their legend and stories.
 */
import { KeyGrid } from '../src/engine/peak.js';
import { describe, expect, it } from 'vitest';
import { detachedOutput, type ChunkOutput } from '../src/engine/chunk-output.js';
import { CoupledSimulator } from '../src/engine/coupled/coupled.js';
import { drive } from '../src/engine/coupled/drive.js';
import { chunkCount, planChunks, runPlans, type ChunkPlan } from '../src/engine/plan.js';
import { traceActions, traceChunk, type TracedAction } from '../src/engine/trace.js';
import { traceCoupled } from '../src/engine/trace-coupled.js';
import { gridStepFor } from '../src/engine/grid.js';
import { C } from '../src/model/counters.js';
import type { Scenario } from '../src/model/types.js';
import { chunkRng, streamRng } from '../src/random/rng.js';
import { sampleRows } from '../src/report/timeline-rows.js';
import { OUTCOME_COLOURS, timelineSvg } from '../src/report/timeline-svg.js';
import { parseRunnable } from './helpers.js';

/**
 * Four workers for about 14 × 0.3 s = 4.2 busy workers: a queue that fills, sheds and lets
 * requests expire; blind retries with a retry budget that runs dry, per-call keys and twins.
 */
const QUEUED = `
actions: 4000
load: { rate_per_s: 14 }
idempotency: { scope: call }
service: { latency: { median: 250ms, sigma: 0.6 }, capacity: { workers: 4, queue: 30, drop_expired: true, retry_after: 500ms } }
client: { timeout: 1s, retries: 3, retry_budget: { tokens: 60 } }
workload: { twin_probability: 0.05 }
`;

/** The same without drop_expired: a worker runs every request it reaches, its client waiting or not. */
const KEPT = QUEUED.replace('drop_expired: true', 'drop_expired: false');

/** No capacity: a breaker in front of a service failing 30% of its calls, so it opens and closes again. */
const BROKEN = `
actions: 3000
load: { rate_per_s: 20 }
service: { error_rate: 0.3 }
client: { retries: 2, breaker: { failure_rate: 0.3, window: 5s, min_calls: 10, open_for: 2s } }
`;

/** A seed whose sample of rows shows each thing capacity does (about half the seeds' samples do; the run's counts have them all: see 'counts what the run counts'). */
const SEED = '3';

function traced(yaml: string, chunk = 0) {
  const scenario = parseRunnable(yaml);
  const plan = planChunks(SEED, scenario.actions, scenario.load.rate_per_s)[chunk] as ChunkPlan;
  return { scenario, plan, ...traceCoupled(scenario, gridStepFor(scenario), SEED, plan) };
}

/** The same simulation without a tracer: the run's plans up to the one after `plan`, then drained. */
function untraced(scenario: Scenario, plan: ChunkPlan): ChunkOutput[] {
  const out: ChunkOutput[] = [];
  const sim = new CoupledSimulator({
    scenario, rng: streamRng(SEED, 'coupled'), grid: new KeyGrid(gridStepFor(scenario)), seriesStep: null, loadEnd: Infinity, emit: (o) => out.push(detachedOutput(o)),
  });
  drive(sim, SEED, runPlans(scenario, SEED, 0, Math.min(plan.index + 2, chunkCount(scenario.actions))));
  return out;
}

const total = (actions: readonly TracedAction[], f: (a: TracedAction) => number) => actions.reduce((s, a) => s + f(a), 0);
const attempts = (actions: readonly TracedAction[]) => actions.flatMap((a) => a.attempts);
const counted = (outputs: readonly ChunkOutput[], counter: number) => outputs.reduce((s, o) => s + (o.sum[counter] as number), 0);

describe('traceCoupled', () => {
  const queued = traced(QUEUED);
  const broken = traced(BROKEN);

  it('leaves the simulation untouched: its blocks equal the untraced engine\'s', () => {
    for (const { scenario, plan, outputs } of [queued, broken]) {
      const plain = untraced(scenario, plan);
      expect(outputs.map((o) => [...o.sum])).toEqual(plain.map((o) => [...o.sum]));
      expect(outputs.map((o) => [...o.sumSq])).toEqual(plain.map((o) => [...o.sumSq]));
      expect(outputs.map((o) => o.capacity)).toEqual(plain.map((o) => o.capacity));
    }
  });

  it('has one traced action per action of the chunk (a one-chunk run: all of them), twins marked', () => {
    const { actions } = queued;
    expect(actions.filter((a) => !a.twin).map((a) => a.group).sort((x, y) => x - y)).toEqual(Array.from({ length: 4000 }, (_, k) => k));
    const twins = actions.filter((a) => a.twin);
    expect(twins.length).toBeGreaterThan(0);
    for (const twin of twins) expect(actions.filter((a) => a.group === twin.group).map((a) => a.twin)).toEqual([false, true]);
  });

  it('counts what the run counts: attempts, executions, duplicates, sheds, expiries, handlers started and budget denials', () => {
    const { actions, outputs } = queued;
    const all = attempts(actions);
    expect(all.length).toBe(counted(outputs, C.attempts));
    expect(total(actions, (a) => a.executions.length)).toBe(counted(outputs, C.executions));
    expect(total(actions, (a) => a.executions.filter((e) => e.duplicate).length)).toBe(counted(outputs, C.duplicates));
    expect(all.filter((t) => t.answeredBy === 'queue' && t.status === '503').length).toBe(counted(outputs, C.shed));
    expect(all.filter((t) => t.outcome === 'expired').length).toBe(counted(outputs, C.expired));
    expect(all.filter((t) => t.waitMs !== undefined && t.outcome !== 'expired').length).toBe(outputs.reduce((s, o) => s + (o.capacity?.started ?? 0), 0));
    expect(total(actions, (a) => a.calls.filter((c) => c.stopped === 'budget').length)).toBe(counted(outputs, C.budget_denied));
    // Each kind occurs, so the counts above are not 0 = 0.
    for (const counter of [C.shed, C.expired, C.budget_denied, C.duplicates]) expect(counted(outputs, counter)).toBeGreaterThan(0);
    expect(all.some((t) => t.outcome === 'shed')).toBe(true);
  });

  it('counts the breaker\'s rejections as calls it stopped (attempts not sent)', () => {
    const { actions, outputs } = broken;
    expect(counted(outputs, C.breaker_rejected)).toBeGreaterThan(0);
    expect(total(actions, (a) => a.calls.filter((c) => c.stopped === 'breaker').length)).toBe(counted(outputs, C.breaker_rejected));
    expect(attempts(actions).length).toBe(counted(outputs, C.attempts));
    // Without service.capacity no request waits.
    expect(attempts(actions).every((t) => t.waitMs === undefined || t.waitMs === 0)).toBe(true);
  });

  it('gives each attempt its wait: a reply the client got comes after the wait and the handler, its execution at that moment', () => {
    const timeout = queued.scenario.client.timeout;
    for (const a of queued.actions) {
      for (const t of a.attempts) {
        // Times are differences of run times up to hours: equal up to rounding (1e-6 ms).
        if (t.outcome === 'ok' && t.answeredBy === 'handler') expect(t.ended - t.sent).toBeCloseTo(t.waitMs! + t.handlerMs!, 6);
        if (t.outcome === 'expired') expect(t.waitMs).toBeGreaterThanOrEqual(timeout);
        if (t.answeredBy === 'handler' || t.answeredBy === 'store') expect(t.waitMs).toBeGreaterThanOrEqual(0);
        expect(t.ended - t.sent).toBeLessThanOrEqual(timeout + 1e-6);
      }
      for (const e of a.executions) {
        expect(a.attempts.some((t) => t.answeredBy === 'handler' && t.call === e.call && Math.abs(t.sent + t.waitMs! + t.handlerMs! - e.at) < 1e-6)).toBe(true);
      }
    }
    // drop_expired: no handler starts after its client gave up; without it, some do (work nobody waits for).
    const late = (actions: readonly TracedAction[]) => attempts(actions).filter((t) => t.answeredBy === 'handler' && t.sent + t.waitMs! >= t.ended).length;
    expect(late(queued.actions)).toBe(0);
    expect(late(traced(KEPT).actions)).toBeGreaterThan(0);
  });

  it('traces a later chunk among the run\'s: its groups numbered within it, arriving within its span', () => {
    const scenario = parseRunnable(`${QUEUED.replace('actions: 4000', 'actions: 40000')}`);
    const plan = planChunks(SEED, scenario.actions, scenario.load.rate_per_s)[1] as ChunkPlan;
    const { actions } = traceCoupled(scenario, gridStepFor(scenario), SEED, plan);
    const primaries = actions.filter((a) => !a.twin);
    expect(primaries.length).toBe(plan.actions);
    expect(new Set(primaries.map((a) => a.group)).size).toBe(plan.actions);
    // A group's arrival is its run time less the chunk's offset: the subtraction may round it an ulp of the run time past the span.
    const ulp = Number.EPSILON * (plan.offset + plan.span);
    for (const a of primaries) {
      expect(a.groupArrival).toBeGreaterThanOrEqual(0);
      expect(a.groupArrival).toBeLessThanOrEqual(plan.span + ulp);
    }
  });

  it('is what traceActions gives a coupled scenario; a scenario without capacity keys gets the chunk engine\'s trace', () => {
    const viaActions = traceActions(queued.scenario, gridStepFor(queued.scenario), SEED, queued.plan);
    expect(viaActions).toEqual(queued.actions);
    const plain = parseRunnable('actions: 3000\nidempotency: { scope: call }\n');
    const plan = planChunks(SEED, plain.actions, plain.load.rate_per_s)[0] as ChunkPlan;
    const step = gridStepFor(plain);
    expect(traceActions(plain, step, SEED, plan)).toEqual(traceChunk(plain, step, chunkRng(SEED, 0), plan).actions);
  });
});

describe('the timeline of a coupled run', () => {
  const rows = (yaml: string) => {
    const { scenario, actions } = traced(yaml);
    return { scenario, sample: sampleRows(actions, 0, scenario.client.timeout) };
  };
  const queued = rows(QUEUED);
  const svg = timelineSvg(queued.sample.rows, queued.scenario.client.timeout);
  const rowsSvg = [...svg.matchAll(/<g class="row[^"]*" data-row="(\d+)"[^>]*>([\s\S]*?)<\/g>/g)].map((m) => m[2] as string);
  const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

  it('draws per row its attempts by outcome, a lighter wait for each that waited, and a cross for each stopped call', () => {
    expect(rowsSvg.length).toBe(queued.sample.rows.length);
    queued.sample.rows.forEach((row, k) => {
      const g = rowsSvg[k] as string;
      const a = row.action;
      for (const outcome of Object.keys(OUTCOME_COLOURS)) {
        expect(count(g, new RegExp(`<rect class="attempt ${outcome}"`, 'g'))).toBe(a.attempts.filter((t) => t.outcome === outcome).length);
      }
      expect(count(g, /<rect class="wait"/g)).toBe(a.attempts.filter((t) => (t.waitMs ?? 0) > 0).length);
      expect(count(g, /class="stopped budget"/g)).toBe(a.calls.filter((c) => c.stopped === 'budget').length);
    });
    expect(svg).toContain('class="attempt shed"');
    expect(svg).toContain('class="attempt expired"');
    expect(svg).toContain('<rect class="wait"');
  });

  it('lists capacity in the legend, on a fourth line', () => {
    for (const words of ['waited for a worker (the lighter start)', 'shed: 503, the queue was full', 'expired: timed out queued, dropped unrun', 'breaker open: attempt not sent', 'retry budget empty: no retry']) {
      expect(svg).toContain(`>${words}</text>`);
    }
    expect(count(svg, /<g class="item"/g)).toBe(16);
  });

  it('tags and tells what capacity did: queued, shed, expired, a budget that ran dry, a breaker that was open', () => {
    const tags = queued.sample.rows.flatMap((r) => r.tags.map((t) => t.replace(/ ×\d+$/, '')));
    for (const tag of ['queued', 'shed', 'expired', 'budget empty']) expect(tags).toContain(tag);
    const stories = queued.sample.rows.map((r) => r.story).join('\n');
    expect(stories).toMatch(/it waited [\d.]+ (ms|s) for a worker, then the handler ran/);
    expect(stories).toMatch(/the queue was full: shed with a 503, nothing executed at /);
    expect(stories).toMatch(/dropped it unrun \(drop_expired\)/);
    expect(stories).toContain('The retry budget had too few tokens left: no retry.');
    expect(rows(KEPT).sample.rows.map((r) => r.story).join('\n')).toMatch(/it waited [\d.]+ (ms|s) for a worker, past the timeout; the client gave up waiting at [^;]+; then the handler ran [^:]+ anyway( and crashed)?: work nobody waited for/);
    const broken = rows(BROKEN);
    expect(broken.sample.rows.some((r) => r.tags.some((t) => t.startsWith('breaker open')))).toBe(true);
    expect(broken.sample.rows.map((r) => r.story).join('\n')).toMatch(/The circuit breaker was open: the (next )?attempt was not sent\./);
  });
});

describe('what a coupled trace keeps', () => {
  it('bounds the attempts and calls of the actions it traces, not the run it simulates around them', () => {
    // 8 chunks with 60% of replies lost: the run up to the last chunk makes 288,934 attempts, more than MAX_TRACED_WORK
    // (250,000), while the last chunk's 16,384 actions keep 36,099 attempts and their calls: traced, as `report --at` traces a late chunk.
    const s = parseRunnable('actions: 131072\nservice: {capacity: {workers: 60}}\nnetwork: {reply_loss: 0.6}\nagent: {replan_probability: 0}\n');
    const plans = [...runPlans(s, '1')];
    const { actions, outputs } = traceCoupled(s, gridStepFor(s), '1', plans.at(-1) as ChunkPlan);
    expect(outputs.reduce((n, o) => n + (o.sum[C.attempts] as number), 0)).toBe(288_934);
    expect(actions).toHaveLength(16_384);
    expect(total(actions, (a) => a.attempts.length)).toBe(36_099);
    // The same chunk through traceActions (the report's): traced, not left out.
    expect(traceActions(s, gridStepFor(s), '1', plans.at(-1) as ChunkPlan)).toHaveLength(16_384);
  });

  it('refuses past what it may keep: one action of 4 million attempts (its run, under the run\'s bound, goes on)', () => {
    const s = parseRunnable('actions: 1\nnetwork: {reply_loss: 1}\nservice: {latency: {dist: constant, value: 1ms}, capacity: {workers: 1}}\n'
      + 'client: {timeout: 2ms, retries: 1000, backoff: {base: 0ms, max: 0ms}}\nagent: {replan_probability: 1, max_replans: 1000, replan_delay: {min: 0s, max: 0s}}\n'
      + 'runtime: {crash_probability: 1, max_replays: 3, resume_delay: {min: 0s, max: 0s}}\n');
    const [plan] = [...runPlans(s, '1')];
    expect(() => traceCoupled(s, gridStepFor(s), '1', plan as ChunkPlan)).toThrow(/more than 250,000 attempts and calls kept for the actions of the coupled run it traces/);
    expect(traceActions(s, gridStepFor(s), '1', plan as ChunkPlan)).toBeNull();
  });
});
