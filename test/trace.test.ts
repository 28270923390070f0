/**
 * The action timeline's data: the traced calls, attempts and executions of a chunk are the
 * events the engine simulated, counted the same way the run counts them.
 */
import { describe, expect, it } from 'vitest';
import { C } from '../src/model/counters.js';
import { ChunkSimulator } from '../src/engine/engine.js';
import { planChunks } from '../src/engine/plan.js';
import { chunkRng } from '../src/random/rng.js';
import { gridStepFor } from '../src/engine/grid.js';
import { traceChunk, type TracedAction } from '../src/engine/trace.js';
import { parseRunnable } from './helpers.js';
import { sampleRows, spreadOrder } from '../src/report/timeline-rows.js';
import { OUTCOME_COLOURS, timeAxis, timelineSvg } from '../src/report/timeline-svg.js';
import { sampleNote } from '../src/report/report-page.js';

/** Lab defaults with a per-call key, a slow service and re-plans: duplicates, 409s and store hits all occur. */
const YAML = `
actions: 4000
seed: trace-test
idempotency: { scope: call, retention: 1h }
service: { latency: { dist: lognormal, median: 600ms, sigma: 0.8 } }
workload: { twin_probability: 0.05 }
`;

function traced(yaml = YAML) {
  const scenario = parseRunnable(yaml, 'trace.yaml');
  const step = gridStepFor(scenario);
  const plan = planChunks('trace-test', scenario.actions, scenario.load.rate_per_s)[0]!;
  const plain = new ChunkSimulator(scenario, step).run(chunkRng('trace-test', 0), plan);
  const copy = { sum: [...plain.sum], sumSq: [...plain.sumSq], actions: plain.actions, grid: plain.grid.toData() };
  return { scenario, copy, ...traceChunk(scenario, step, chunkRng('trace-test', 0), plan) };
}

const total = (actions: TracedAction[], f: (a: TracedAction) => number) => actions.reduce((s, a) => s + f(a), 0);

describe('traceChunk', () => {
  const { copy, output, actions } = traced();

  it('leaves the simulation untouched: the chunk output equals the untraced engine', () => {
    expect([...output.sum]).toEqual(copy.sum);
    expect([...output.sumSq]).toEqual(copy.sumSq);
    expect(output.grid.toData()).toEqual(copy.grid);
    expect(actions.length).toBe(copy.actions);
  });

  it('has one traced action per simulated action, twins marked', () => {
    expect(actions.filter((a) => !a.twin).length).toBe(4000);
    expect(actions.filter((a) => a.twin).length).toBeGreaterThan(0);
  });

  it('counts what the run counts: attempts, executions, duplicates, 409s, 422s and store hits', () => {
    expect(total(actions, (a) => a.attempts.length)).toBe(output.sum[C.attempts]);
    expect(total(actions, (a) => a.executions.length)).toBe(output.sum[C.executions]);
    expect(total(actions, (a) => a.executions.filter((e) => e.duplicate).length)).toBe(output.sum[C.duplicates]);
    const fromStore = (status: string) => total(actions, (a) => a.attempts.filter((t) => t.answeredBy === 'store' && t.status === status).length);
    expect(fromStore('409')).toBe(output.sum[C.conflicts_409]);
    expect(fromStore('422')).toBe(output.sum[C.mismatches_422]);
    expect(fromStore('ok') + fromStore('5xx')).toBe(output.sum[C.dedup_hits]);
    expect(fromStore('ok')).toBeGreaterThan(0);
    expect(total(actions, (a) => (a.executions.length === 0 ? 1 : 0))).toBe(output.sum[C.lost]);
  });

  it('contains a duplicate, a 409 and a store hit to draw', () => {
    expect(actions.some((a) => a.executions.some((e) => e.duplicate))).toBe(true);
    expect(actions.some((a) => a.attempts.some((t) => t.outcome === 'conflict_409'))).toBe(true);
    expect(actions.some((a) => a.attempts.some((t) => t.answeredBy === 'store' && t.outcome === 'ok'))).toBe(true);
  });

  it('draws each attempt as a bar from its send to the reply or the timeout', () => {
    const timeout = 1000; // lab default client.timeout
    for (const a of actions) {
      for (const t of a.attempts) {
        // Times are relative to the group's arrival, so equal up to rounding (1e-6 ms).
        const length = t.ended - t.sent;
        // The client stops waiting at its timeout when no reply comes, lost or never sent.
        if (t.outcome === 'timeout' || t.outcome === 'reply_lost') expect(length).toBeCloseTo(timeout, 6);
        else if (t.answeredBy === 'handler') expect(length).toBeCloseTo(t.handlerMs!, 6);
        expect(length).toBeLessThanOrEqual(timeout + 1e-6);
        expect(t.sent).toBeGreaterThanOrEqual(a.calls[t.call]!.start);
      }
      // An execution happens when a handler that ran finished: at the send time plus its run time.
      for (const e of a.executions) {
        expect(a.attempts.some((t) => t.answeredBy === 'handler' && t.call === e.call && Math.abs(t.sent + t.handlerMs! - e.at) < 1e-6)).toBe(true);
      }
    }
  });
});

describe('the timeline drawing', () => {
  const { scenario, actions } = traced();
  const sample = sampleRows(actions, 0, scenario.client.timeout);
  const svg = timelineSvg(sample.rows, scenario.client.timeout);
  const rowsSvg = [...svg.matchAll(/<g class="row[^"]*" data-row="(\d+)"[^>]*>([\s\S]*?)<\/g>/g)].map((m) => m[2] as string);
  const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

  it('has one row per sampled action, eventful ones labelled with what happened', () => {
    expect(rowsSvg.length).toBe(sample.rows.length);
    expect(sample.shownEventful).toBeLessThanOrEqual(48);
    expect(sample.rows.filter((r) => r.tags.length > 0).length).toBe(sample.shownEventful);
    expect(sample.rows.filter((r) => r.tags.length === 0).length).toBe(16);
  });

  it('draws for each action exactly its attempts, executions, duplicates and answers from the key store', () => {
    sample.rows.forEach((row, k) => {
      const g = rowsSvg[k] as string;
      const a = row.action;
      expect(count(g, /<rect class="attempt /g)).toBe(a.attempts.length);
      for (const outcome of Object.keys(OUTCOME_COLOURS)) {
        expect(count(g, new RegExp(`<rect class="attempt ${outcome}"`, 'g'))).toBe(a.attempts.filter((t) => t.outcome === outcome).length);
      }
      expect(count(g, /<circle class="execution/g)).toBe(a.executions.length);
      expect(count(g, /<circle class="execution duplicate"/g)).toBe(a.executions.filter((e) => e.duplicate).length);
      expect(count(g, /<circle class="ring"/g)).toBe(a.attempts.filter((t) => t.answeredBy === 'store' && (t.status === 'ok' || t.status === '5xx')).length);
      expect(count(g, /class="replan"/g)).toBe(a.calls.filter((c) => c.kind === 'replan').length);
    });
  });

  it('shows a duplicate, a 409 and an answer from the key store, with their stories', () => {
    const svgAll = rowsSvg.join('');
    expect(svgAll).toContain('class="execution duplicate"');
    expect(svgAll).toContain('class="attempt conflict_409"');
    expect(svgAll).toContain('class="ring"');
    const dup = sample.rows.find((r) => r.tags.some((t) => t.startsWith('duplicate')))!;
    expect(dup.story).toContain('a DUPLICATE');
    const conflict = sample.rows.find((r) => r.tags.some((t) => t.startsWith('409')))!;
    expect(conflict.story).toMatch(/409 at /);
    expect(svg).toContain('<g class="legend">');
  });

  it('uses a linear axis for retries and a log-like one when rows span many timeouts', () => {
    const linear = timeAxis(3000, 1000, 800);
    expect(linear.x(1500)).toBeCloseTo(400, 9);
    expect(linear.ticks).toEqual([0, 500, 1000, 1500, 2000, 2500, 3000]);
    const log = timeAxis(1_200_000, 1000, 800);
    expect(log.x(0)).toBe(0);
    expect(log.x(1_200_000)).toBeCloseTo(800, 9);
    expect(log.x(1000)).toBeGreaterThan(800 / 5); // the timeout is not squashed against zero
    expect(log.title).toContain('log scale');
  });

  it('spreads each kind of event over the chunk: spreadOrder is a permutation whose prefixes cover the range', () => {
    for (const n of [0, 1, 2, 3, 7, 100, 1000]) {
      const order = spreadOrder(n);
      expect([...order].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, k) => k));
    }
    const firstFour = spreadOrder(1000).slice(0, 4).sort((x, y) => x - y);
    expect(firstFour).toEqual([0, 250, 500, 750]);
  });
});

describe("the sample's note", () => {
  const { scenario, actions } = traced();
  it('says over-represented only when eventful rows outnumber their share of the chunk, and says when all are shown', () => {
    const few = sampleRows(actions, 0, scenario.client.timeout, { eventfulRows: 10, quietRows: 16 });
    expect(sampleNote(few)).toContain('<strong>over-represented</strong>');
    const all = sampleRows(actions, 0, scenario.client.timeout, { eventfulRows: 2000, quietRows: 0 });
    expect(all.shownEventful).toBe(all.eventful);
    expect(sampleNote(all)).toContain('all of them are shown');
    const diluted = sampleRows(actions, 0, scenario.client.timeout, { eventfulRows: 1, quietRows: 2000 });
    expect(sampleNote(diluted)).not.toContain('over-represented');
    const quiet = sampleRows(actions.filter((a) => a.attempts.length === 1 && a.executions.length === 1 && !a.twin && a.attempts[0]!.outcome === 'ok'), 0, scenario.client.timeout);
    expect(sampleNote(quiet)).toContain('None had anything happen');
  });
});
