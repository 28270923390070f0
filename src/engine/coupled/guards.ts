/**
 * The client guards of a coupled run (docs/model.md, "Capacity"; model/guards.ts names them and
 * what each counts). Each guard is one file that owns its state: it hears every attempt outcome
 * the client learns, and may stop a retry when the client decides to retry, or an attempt at
 * its send. The engine (state.ts, coupled.ts) loops over the guards in force and counts what
 * each stops in its counter and series; it names none of them. A new guard: its file, and its
 * line in MAKE (a compile error until it has one).
 */
import { GUARD_NAMES, GUARDS, type GuardName } from '../../model/guards.js';
import { C } from '../../model/counters.js';
import { SER } from '../../model/series.js';
import type { Scenario } from '../../model/types.js';
import { Breaker } from './breaker.js';
import { RetryBudget } from './budget.js';
import type { ClientGuard } from './guard.js';
import { RetryThrottle } from './throttle.js';

type Spec<K extends GuardName> = NonNullable<Scenario['client'][K]>;

const MAKE: { readonly [K in GuardName]: (spec: Spec<K>) => ClientGuard } = {
  retry_throttle: (spec) => new RetryThrottle(spec),
  retry_budget: (spec) => new RetryBudget(spec),
  breaker: (spec) => new Breaker(spec),
};

/** A guard in force, with the counter and series index of what it stops. */
export interface GuardInForce {
  readonly name: GuardName;
  readonly guard: ClientGuard;
  readonly acts: 'retry' | 'send';
  readonly counter: number;
  readonly series: number;
}

/** The guards `scenario` sets, in the order a retry passes them (model/guards.ts). */
export function guardsInForce(scenario: Scenario): GuardInForce[] {
  return GUARD_NAMES.flatMap((name) => {
    const spec = scenario.client[name];
    if (spec === null) return [];
    const def = GUARDS[name];
    const guard = (MAKE[name] as (s: typeof spec) => ClientGuard)(spec);
    return [{ name, guard, acts: def.acts, counter: C[def.counter], series: SER[def.series] }];
  });
}
