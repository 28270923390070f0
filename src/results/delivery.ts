/**
 * The readings of a run whose step a trigger delivers (docs/model.md, "Inbound delivery", version
 * 4): deliveries per action, the actions redelivered and dead-lettered per 1000, the duplicates
 * of source `redelivery`, and the series `deliveries` and `dead_lettered`. A run without a
 * trigger reports none of them, so its outputs keep the bytes they had before version 4.
 */
import { triggerOf } from '../model/trigger.js';
import { TRIGGER_SERIES } from '../model/series.js';
import type { CounterMetricPath } from './metric-registry.js';
import type { Estimate, Metrics } from './metrics.js';

export { TRIGGER_SERIES } from '../model/series.js';

/** Whether a scenario has a trigger: only its runs report the readings of "Inbound delivery". */
export function hasTrigger(s: object): boolean {
  return triggerOf(s) !== null;
}

/** Whether metrics are a triggered run's (they carry its readings; results/metrics.ts). */
export function triggeredMetrics(m: Pick<Metrics, 'deliveries_per_action'>): boolean {
  return m.deliveries_per_action !== undefined;
}

/** A triggered run's readings of its deliveries, each a counter's mean (metric-registry.ts, `only: 'trigger'`). */
export function deliveryFigures(est: (path: CounterMetricPath) => Estimate): Required<Pick<Metrics, 'deliveries_per_action' | 'redelivered_per_1000' | 'dead_lettered_per_1000'>> {
  return { deliveries_per_action: est('deliveries_per_action'), redelivered_per_1000: est('redelivered_per_1000'), dead_lettered_per_1000: est('dead_lettered_per_1000') };
}

/** How a message gives a scenario a trigger, in a fix's words. */
const GIVE_TRIGGER = 'Give the scenario a trigger (such as trigger: {kind: webhook, ack_timeout: 3s}, or a provider\'s trigger.preset)';

/**
 * The refusal of an `expect:` on a trigger's reading (`only: 'trigger'`) in a scenario without a
 * trigger, as `expect:` refuses a coupled run's reading elsewhere: its problem and fix, or null
 * where the expectation can be met (`only`: the metric's, metric-registry.ts; scenario/expect.ts,
 * checkAlertNames, throws it at the expectation's line).
 */
export function triggerOnlyExpectation(only: string | undefined, s: object): { problem: string; fix: string } | null {
  if (only !== 'trigger' || hasTrigger(s)) return null;
  return { problem: `is reported only by scenarios with a trigger (docs/model.md, "Inbound delivery"), and this one has none`, fix: `${GIVE_TRIGGER}, or remove this expectation.` };
}

/**
 * Alerts on a trigger's series (`deliveries`, `dead_lettered`) in a scenario without a trigger:
 * valid, but the series stays at 0 and the alert never fires, so each is a warning at its
 * `alerts[i].metric` (scenario/warnings.ts says it on stderr and lists it in JSON), as a setting
 * with no effect is; a sweep that varies trigger keys may give some points one.
 */
export function alertsWithoutTrigger(s: { alerts: readonly { name: string; metric: string }[] }): { index: number; keyPath: string; problem: string; fix: string }[] {
  if (hasTrigger(s)) return [];
  return s.alerts.flatMap((a, index) => ((TRIGGER_SERIES as readonly string[]).includes(a.metric) ? [{
    index, keyPath: `alerts[${index}].metric`,
    problem: `has no effect: the series ${a.metric} is counted only by scenarios with a trigger (docs/model.md, "Inbound delivery"), and this one has none, so the alert ${a.name} never fires`,
    fix: `${GIVE_TRIGGER}, or alert on another series.`,
  }] : []));
}
