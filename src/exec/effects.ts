/**
 * A run's executions as a production table holds them (docs/reconcile.md, "Effects"): one
 * record per side effect, with the action's business identity, when it happened, the key its
 * request carried and the tool, and apart from those the model's truth (which execution is a
 * duplicate, and of which source). Each chunk is simulated again with the action timeline's
 * tracer (engine/trace.ts), whose numbers are exactly the run's (test/trace.test.ts), so the
 * records are the run's own executions.
 */
import { runGrid } from '../engine/grid.js';
import { chunkCount, runPlans, type ChunkPlan } from '../engine/plan.js';
import { traceCoupled } from '../engine/trace-coupled.js';
import { isCoupled } from '../model/capacity.js';
import { traceChunk, type TracedAction } from '../engine/trace.js';
import type { Scenario } from '../model/types.js';

/** Most actions of a coupled run whose effects are written: its whole trace is held at once (about 1 KB an action). */
export const MAX_COUPLED_EFFECT_ACTIONS = 200_000;
import { chunkRng } from '../random/rng.js';

/** The run's time 0 in an effects file: 2026-01-01T00:00:00.000Z. */
export const EFFECTS_EPOCH = Date.UTC(2026, 0, 1);

/** What made a duplicate (docs/model.md): the kind of call that executed again, or a redelivery; '' for an action's first execution. */
export type EffectSource = '' | 'transport' | 'replan' | 'replay' | 'redelivery';

export interface EffectRecord {
  /** The action's business identity, shared by its twin: `order-<n>`, n the group's number in the run from 1. */
  businessKey: string;
  /** When the side effect happened, ms from the run's start. */
  at: number;
  /** The key its request carried, as the timeline names it, or null without one. */
  key: string | null;
  tool: string;
  /** The truth, kept apart: the action (`order-<n>` or `order-<n>.twin`), whether the model counts the execution a duplicate, and its source. */
  action: string;
  duplicate: boolean;
  source: EffectSource;
}

const SOURCE_OF_KIND: Readonly<Record<string, EffectSource>> = { original: 'transport', replan: 'replan', replay: 'replay' };

/** A traced key (`scope:<group in the chunk>...`) as the run names it: its group numbered from the run's first. */
const runKey = (key: string | null, first: number): string | null => key?.replace(/^([a-z]+):(\d+)/, (_, scope: string, g: string) => `${scope}:${first + Number(g)}`) ?? null;

/** The executions of one chunk's traced actions, the chunk's first group being the run's `first`th (from 0). */
function chunkEffects(actions: readonly TracedAction[], offset: number, first: number, tool: string): EffectRecord[] {
  // The earliest delivery whose run executed, per action: a later delivery's executions are redeliveries.
  const firstDelivery = new Map<string, number>();
  const actionOf = (a: TracedAction) => `order-${first + a.group + 1}${a.twin ? '.twin' : ''}`;
  for (const a of actions) {
    if (a.executions.length === 0) continue;
    const id = actionOf(a);
    firstDelivery.set(id, Math.min(firstDelivery.get(id) ?? Infinity, a.delivery ?? 0));
  }
  return actions.flatMap((a) => a.executions.map((e): EffectRecord => {
    const action = actionOf(a);
    const redelivered = (a.delivery ?? 0) > (firstDelivery.get(action) ?? 0);
    const kind = a.calls[e.call]?.kind ?? 'original';
    return {
      businessKey: `order-${first + a.group + 1}`, at: offset + a.groupArrival + e.at, key: runKey(e.key, first), tool, action,
      duplicate: e.duplicate, source: e.duplicate ? (redelivered ? 'redelivery' : SOURCE_OF_KIND[kind] ?? 'transport') : '',
    };
  }));
}

/**
 * Every execution of `scenario` (bound to its primaries: model/clock.ts `withPrimaries`) run from
 * `seed`, a chunk at a time in the run's order; a coupled run, one simulation of all its actions,
 * is traced whole (its actions held at once: MAX_COUPLED_EFFECT_ACTIONS).
 */
export function* runEffects(scenario: Scenario, seed: string, tool: string): Generator<EffectRecord[]> {
  const grid = runGrid(scenario, scenario.actions, false);
  if (isCoupled(scenario)) {
    const whole: ChunkPlan = { index: 0, actions: scenario.actions, offset: 0, span: 0, opOffset: 0, opSpan: 0 };
    const { actions } = traceCoupled(scenario, grid.step, seed, whole, chunkCount(scenario.actions));
    yield chunkEffects(actions, 0, 0, tool);
    return;
  }
  let first = 0;
  for (const plan of runPlans(scenario, seed)) {
    const { actions } = traceChunk(scenario, grid.step, chunkRng(seed, plan.index), plan);
    yield chunkEffects(actions, plan.offset, first, tool);
    first += plan.actions;
  }
}
