/**
 * The action timeline of a triggered scenario: each delivery's run is a row of its action's
 * group (TracedAction.delivery), so a group's rows are no longer its primary and its twin. The
 * tag "has a twin" goes only where the group has a twin, and the counts of the header and the
 * note are actions (a primary and its twin), not runs.
 */
import { describe, expect, it } from 'vitest';
import type { Trigger } from '../src/model/trigger.js';
import type { Scenario } from '../src/model/types.js';
import { ChunkSimulator } from '../src/engine/engine.js';
import { gridStepFor } from '../src/engine/grid.js';
import { planChunks } from '../src/engine/plan.js';
import { traceChunk, type TracedAction } from '../src/engine/trace.js';
import { chunkRng } from '../src/random/rng.js';
import { sampleNote } from '../src/report/report-page.js';
import { actionCount, sampleRows } from '../src/report/timeline-rows.js';
import { timelineCaption } from '../src/report/timeline-sample.js';
import { sampleNote as labNote } from '../src/lab/engine.js';
import { parseRunnable } from './helpers.js';

const WEBHOOK: Trigger = {
  kind: 'webhook', ack_timeout: 1000, ack: 'after_step', redeliveries: 2, schedule: [0], ack_loss: 0, consumer_crash: 0,
  run_id: 'per_delivery', extend_up_to: null, dedupe: 'none',
};

/** A quiet run: one call, one attempt answered ok, one execution. */
function run(group: number, twin: boolean, delivery: number): TracedAction {
  return {
    group, twin, groupArrival: group * 100, arrival: 0, delivery,
    calls: [{ kind: 'original', start: 0, end: 50, result: 'success' }],
    attempts: [{ call: 0, number: 1, sent: 0, ended: 50, outcome: 'ok', answeredBy: 'handler', status: 'ok', handlerMs: 50, answeredAt: 50, key: null }],
    executions: [{ at: 25, call: 0, duplicate: false, key: null }],
  } as TracedAction;
}

describe('the timeline\'s rows of a triggered scenario', () => {
  it('tags "has a twin" where the group has a twin, not where its other rows are redeliveries\' runs', () => {
    const actions = [run(0, false, 0), run(0, false, 1), run(1, false, 0), run(1, true, 0)];
    const rows = sampleRows(actions, 0, 5000).rows;
    const tags = (label: string) => rows.find((r) => r.label === label)?.tags;
    expect(tags('#1')).toEqual([]);
    expect(tags('#1 delivery 2')).toEqual(['redelivery 1']);
    expect(tags('#2')).toEqual(['has a twin']);
    expect(tags('#2 twin')).toEqual(['twin']);
  });

  it('counts actions, not runs: a primary and its twin are two, whatever their deliveries', () => {
    const actions = [run(0, false, 0), run(0, false, 1), run(0, false, 2), run(1, false, 0), run(1, true, 0), run(1, true, 1), run(2, false, 0)];
    expect(actionCount(actions)).toBe(4);
    const sample = sampleRows(actions, 0, 5000);
    expect(sample.rows.length).toBe(7);
    expect(sample).toMatchObject({ simulated: 4, eventful: 3, shownEventful: 3, shownQuiet: 1, shown: 4 });
    expect(timelineCaption('idem-sim report x.yaml', '9.9.9', sample, undefined)).toBe('idem-sim report x.yaml  ·  idem-sim 9.9.9  ·  4 of 4 actions, a row for each of their 7 runs, eventful ones over-represented');
    expect(sampleNote(sample)).toMatch(/^4 of the 4 actions of the run's first chunk, a row for each of their 7 runs\. .* 75\.0% of the actions shown \(3\)/);
    expect(labNote(sample)).toMatch(/^4 of the 4 actions of the run's first chunk, a row for each of their 7 runs: 3 of the 3 \(75\.0%\)/);
  });

  it('in a traced chunk, the header\'s count is the chunk\'s actions (primaries and twins), not its runs', () => {
    const yaml = `actions: 2000
service: {latency: {dist: lognormal, median: 800ms, sigma: 0.6}}
client: {timeout: 5s, retries: 0}
network: {reply_loss: 0}
agent: {replan_probability: 0}
idempotency: {scope: none}
workload: {twin_probability: 0.1}
`;
    const scenario = { ...parseRunnable(yaml), trigger: WEBHOOK } as Scenario;
    const step = gridStepFor(scenario);
    const plan = planChunks('1', scenario.actions, scenario.load.rate_per_s)[0]!;
    const plain = new ChunkSimulator(scenario, step).run(chunkRng('1', 0), plan);
    const { actions } = traceChunk(scenario, step, chunkRng('1', 0), plan);
    expect(actions.length).toBeGreaterThan(plain.actions); // runs of redeliveries traced
    const sample = sampleRows(actions, plan.offset, scenario.client.timeout);
    expect(sample.simulated).toBe(plain.actions);
    expect(sample.eventful).toBeLessThanOrEqual(sample.simulated);
    const groups = new Map<number, TracedAction[]>();
    for (const r of sample.rows) groups.set(r.action.group, [...(groups.get(r.action.group) ?? []), r.action]);
    for (const r of sample.rows) {
      if (r.tags.includes('has a twin')) expect(groups.get(r.action.group)!.some((a) => a.twin)).toBe(true);
    }
  });
});
