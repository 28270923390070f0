/**
 * Whether a scenario is coupled (docs/model.md, "Capacity"): with a worker pool or a client guard
 * (a retry budget, a circuit breaker, retry throttling: guards.ts), every action shares the service or the client with every other, so the
 * run is one discrete-event simulation (engine/coupled/) and reports the capacity readings.
 */
import { GUARD_NAMES, GUARDS, type GuardKey } from './guards.js';
import type { WrittenScenario } from './types.js';

/** The keys that couple a run's actions, as they are written in a scenario, and each one's value (null: none): the workers, and every client guard (guards.ts), in the order the contract added them. */
const COUPLING = {
  'service.capacity': (s: WrittenScenario): object | null => s.service.capacity,
  ...Object.fromEntries([...GUARD_NAMES].sort((a, b) => GUARDS[a].since - GUARDS[b].since).map((n) => [GUARDS[n].key, (s: WrittenScenario): object | null => s.client[n]])) as Record<GuardKey, (s: WrittenScenario) => object | null>,
};
export type CouplingKey = keyof typeof COUPLING;
export const COUPLING_KEYS = Object.keys(COUPLING) as readonly CouplingKey[];
/** The coupling keys as a message names them: `a, b or c`. */
export const COUPLING_WORDS = `${COUPLING_KEYS.slice(0, -1).join(', ')} or ${COUPLING_KEYS.at(-1)}`;

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
