/**
 * Whether a scenario is coupled (docs/model.md, "Capacity"): with a worker pool, a retry budget
 * or a circuit breaker, every action shares the service or the client with every other, so the
 * run is one discrete-event simulation (engine/coupled/) and reports the capacity readings.
 */
import type { WrittenScenario } from './types.js';

/** The keys that couple a run's actions, as they are written in a scenario, and each one's value (null: none). */
const COUPLING: Readonly<Record<'service.capacity' | 'client.retry_budget' | 'client.breaker', (s: WrittenScenario) => object | null>> = {
  'service.capacity': (s) => s.service.capacity,
  'client.retry_budget': (s) => s.client.retry_budget,
  'client.breaker': (s) => s.client.breaker,
};
export type CouplingKey = keyof typeof COUPLING;
export const COUPLING_KEYS = Object.keys(COUPLING) as readonly CouplingKey[];

/** The coupling keys `s` sets, in COUPLING_KEYS' order. */
export function couplingKeysSet(s: WrittenScenario): CouplingKey[] {
  return COUPLING_KEYS.filter((key) => COUPLING[key](s) !== null);
}

/** (A window's `service.capacity.workers` needs `service.capacity`: scenario/capacity-checks.ts refuses it alone.) */
export function isCoupled(s: WrittenScenario): boolean {
  return couplingKeysSet(s).length > 0;
}

/**
 * The contract version a run's numbers follow, the `model` field of JSON: 4 for a coupled run
 * (its rules are version 3's "Capacity" and it reports version 4's "Saturation" readings), 2 for
 * any other, whose rules versions 3 and 4 left as they were (and whose outputs keep their bytes).
 */
export function contractVersion(coupled: boolean): 2 | 4 {
  return coupled ? 4 : 2;
}
