/**
 * Reconciled duplicates held against the model (docs/reconcile.md, "Against the model"): the
 * scenario is run for the same traffic (the observed business keys' mean rate, ten times as many
 * actions, at least MIN_ACTIONS), its executions reconciled exactly as the observed rows were
 * (the same window and retention), and the observed duplicate count tested against the count the
 * model predicts for the observed business keys: an exact Poisson test, with the observed
 * count's exact interval. The model's twins (distinct requests a customer made for the same
 * business action) land in the reconciliation as duplicates; their share is named apart.
 */
import { EFFECTS_EPOCH, runEffects, MAX_COUPLED_EFFECT_ACTIONS, type EffectRecord } from '../exec/effects.js';
import { isCoupled } from '../model/capacity.js';
import { withPrimaries } from '../model/clock.js';
import type { Scenario } from '../model/types.js';
import { redeliveryTimes } from '../model/trigger.js';
import { poissonInterval, poissonTest } from './poisson.js';
import type { RawRows, RawValue } from './raw.js';
import { reconcileRows } from './reconcile.js';
import type { Readings, Reconciliation } from './readings.js';

/** The fewest and most actions the model is run for (chunk engine; a coupled run's trace is held whole: MAX_COUPLED_EFFECT_ACTIONS). */
export const MIN_ACTIONS = 20_000;
export const MAX_MODEL_ACTIONS = 1_000_000;
/** Below this p-value the observed count is not consistent with the model. */
export const SIGNIFICANCE = 0.01;

export interface AgainstModel {
  /** The scenario's name, and the actions simulated at the rate used (business keys a second). */
  readonly scenario: string;
  readonly simulatedActions: number;
  readonly ratePerS: number;
  /** The model's reconciled duplicates per business key and per 1000 effects. */
  readonly predictedPerKey: number;
  readonly predictedPer1000: number | null;
  /** The count the model predicts for the observed business keys, and the observed count with its exact 95% interval. */
  readonly expected: number;
  readonly observed: number;
  readonly observedLow: number;
  readonly observedHigh: number;
  /** The exact two-sided Poisson test's p-value, and what it says at SIGNIFICANCE. */
  readonly pValue: number;
  readonly verdict: 'consistent' | 'more' | 'fewer';
  /** Observed over expected, with the interval of the observed count over the expected; null when the model predicts none. */
  readonly ratio: { readonly value: number; readonly low: number; readonly high: number } | null;
  /** Of the model's reconciled duplicates, those that are twins' own first executions (asked for twice, not repeated). */
  readonly twinShare: number | null;
  /** With the scenario's trigger: when its first redeliveries come after an action's first delivery (ms), the gaps a redelivery's duplicate shows. */
  readonly redeliveryAt: readonly number[];
}

/** Simulated effects as a source's rows (sorted by time), as an export of them would read. */
export function recordRows(records: readonly EffectRecord[], name: string): RawRows {
  return {
    where: `the model's run of ${name}`,
    columns: () => Promise.resolve(['business_key', 'at', 'idempotency_key', 'tool']),
    async *rows(): AsyncGenerator<readonly RawValue[]> {
      for (const r of records) yield [r.businessKey, new Date(EFFECTS_EPOCH + Math.floor(r.at)), r.key, 'all'];
    },
    close: () => Promise.resolve(),
  };
}

/**
 * How many of `records` (sorted by time) are reconciled duplicates only because a second action
 * shares the business key (a twin): in each key's window, the first effect of each action after
 * the window's first action.
 */
function twinDuplicates(records: readonly EffectRecord[], windowMs: number): number {
  const windows = new Map<string, { start: number; actions: Set<string> }>();
  let twins = 0;
  for (const r of records) {
    const w = windows.get(r.businessKey);
    if (w === undefined || r.at - w.start > windowMs) { windows.set(r.businessKey, { start: r.at, actions: new Set([r.action]) }); continue; }
    if (!w.actions.has(r.action)) { w.actions.add(r.action); twins++; }
  }
  return twins;
}

/** The scenario as run for the observed traffic: `keys` business keys over `spanMs`. */
function forTraffic(scenario: Scenario, keys: number, spanMs: number): Scenario {
  const most = isCoupled(scenario) ? MAX_COUPLED_EFFECT_ACTIONS : MAX_MODEL_ACTIONS;
  const actions = Math.min(most, Math.max(MIN_ACTIONS, 10 * keys));
  const ratePerS = spanMs > 0 && keys > 1 ? (keys - 1) / (spanMs / 1000) : scenario.load.rate_per_s;
  return { ...scenario, actions, load: { ...scenario.load, rate_per_s: ratePerS, profile: [], duration: null } };
}

/** `observed` (a reconciliation's readings) against `scenario` run from `seed`, reconciled with the same window and retention. */
export async function againstModel(observed: Readings, scenario: Scenario, seed: string, name: string, windowMs: number, retentionMs: number | null): Promise<AgainstModel> {
  const span = observed.firstMs !== null && observed.lastMs !== null ? observed.lastMs - observed.firstMs : 0;
  const run = withPrimaries(forTraffic(scenario, observed.businessKeys, span), seed);
  const records = [...runEffects(run, seed, name)].flat().sort((a, b) => a.at - b.at);
  const model = (await reconcileRows(recordRows(records, name), { windowMs, ...(retentionMs === null ? {} : { retentionMs }) })).overall;
  const perKey = model.businessKeys > 0 ? model.duplicates / model.businessKeys : 0;
  const expected = perKey * observed.businessKeys;
  const interval = poissonInterval(observed.duplicates);
  const pValue = poissonTest(observed.duplicates, expected);
  const verdict = pValue >= SIGNIFICANCE ? 'consistent' : observed.duplicates > expected ? 'more' : 'fewer';
  return {
    scenario: name, simulatedActions: run.actions, ratePerS: run.load.rate_per_s,
    predictedPerKey: perKey, predictedPer1000: model.per1000?.value ?? null,
    expected, observed: observed.duplicates, observedLow: interval.low, observedHigh: interval.high, pValue, verdict,
    ratio: expected > 0 ? { value: observed.duplicates / expected, low: interval.low / expected, high: interval.high / expected } : null,
    twinShare: model.duplicates > 0 ? twinDuplicates(records, windowMs) / model.duplicates : null,
    redeliveryAt: scenario.trigger === null ? [] : redeliveryTimes(scenario.trigger),
  };
}

/**
 * `reconcile --scenario FILE`: the reconciliation with the comparison, held against the tool of
 * the scenario's name where the rows have one (as `run --effects-out` names a scenario's effects),
 * else against all the rows.
 */
export async function withAgainst(r: Reconciliation, scenario: Scenario, name: string, seed: string): Promise<Reconciliation> {
  const readings = r.tools.length > 1 ? (r.tools.find((t) => t.name === name) ?? r.overall) : r.overall;
  return { ...r, against: await againstModel(readings, scenario, seed, name, r.windowMs, r.retentionMs) };
}
