/**
 * What the probe is asked, checked before it connects to anything: the stream's size, what a
 * scenario asks that the probe cannot do, and the warnings on its timing (a speedup the store or
 * the timers cannot follow, transactional handlers queueing for a connection).
 */
import { usesTime } from '../model/clock.js';
import type { Scenario } from '../model/types.js';
import { duration, num } from '../report/format.js';
import { InputError } from '../scenario/errors.js';
import { descriptorOf, TRANSACTIONAL_STORES, type StoreKind } from '../stores/registry.js';
import type { StartInfo } from './probe.js';

/** The probe is for small streams: the model's same-stream prediction runs about 10,000 actions a second. */
export const MAX_PROBE_ACTIONS = 100_000;
/** Below this many real milliseconds per client timeout, timer and store jitter swamp the scenario's timing. */
const MIN_REAL_TIMEOUT_MS = 20;

/** The stream's primary actions (--actions as `text`), refused above MAX_PROBE_ACTIONS. */
export function checkProbeActions(actions: number, text: string | undefined): number {
  if (actions > MAX_PROBE_ACTIONS) {
    throw new InputError({ source: `--actions ${text}` }, '', `the probe replays at most ${num(MAX_PROBE_ACTIONS)} actions`,
      'Probe a few hundred actions (the default is 200); use idem-sim run for large numbers.');
  }
  return actions;
}

/** What the probe cannot do, said before it connects to anything. */
export function checkProbeable(s: Scenario, file: string | null, kind: StoreKind): void {
  const source = file ?? '(built-in lab defaults)';
  if (s.idempotency.scope === 'none') {
    throw new InputError({ source }, 'idempotency.scope', 'is none: requests carry no key, so there is nothing for a key store to do',
      'Probe a scenario with a key, or add --set idempotency.scope=intent (or call, business, text, attempt).');
  }
  if (usesTime(s)) {
    const key = s.incidents.length > 0 ? 'incidents' : s.alerts.length > 0 ? 'alerts' : s.load.profile.length > 0 ? 'load.profile' : s.load.duration !== null ? 'load.duration' : 'idempotency.on_store_down';
    throw new InputError({ source }, key, 'is a key of time (docs/model.md, "Time"), and the probe replays a steady stream of requests against the store, without incidents, profiles or alerts',
      'Probe the scenario without its time keys (a copy without them, or --set with their defaults), and use idem-sim run for the incidents.');
  }
  if (s.trigger !== null) {
    throw new InputError({ source }, 'trigger', 'is set (docs/model.md, "Inbound delivery"), and the probe replays each action\'s requests once: it does not deliver the trigger again',
      'Probe the scenario without its trigger (add --set trigger=none), and use idem-sim run for its redeliveries.');
  }
  const store = descriptorOf(kind);
  if (!store.transactional && s.idempotency.transactional) {
    throw new InputError({ source }, 'idempotency.transactional', `is true, and ${store.label} cannot commit the side effect with the key`,
      `Probe it on ${TRANSACTIONAL_STORES}, or add --set idempotency.transactional=false.`);
  }
}

/** The warning when --speedup (`text`) leaves the client timeout close to timer and store jitter, if it does. */
export function speedupWarning(scenario: Scenario, speedup: number | undefined, text: string | undefined): string | undefined {
  if (speedup === undefined || scenario.client.timeout / speedup >= MIN_REAL_TIMEOUT_MS) return undefined;
  return `at --speedup ${text} the client timeout of ${duration(scenario.client.timeout)} lasts ${num(scenario.client.timeout / speedup)} ms of real time, close to timer and store jitter; expect the probe to drift from the model`;
}

/** The warning when transactional handlers, about `needed` at once, will queue for fewer `connections` (the model has no such queue). */
export function connectionWarning(scenario: Scenario, connections: number, needed: number): string | undefined {
  if (connections >= needed || !scenario.idempotency.transactional || scenario.idempotency.claim !== 'atomic') return undefined;
  return `transactional holds a connection for each running handler; about ${needed} run at once here, so with ${connections} requests will queue for a connection (the model has no such queue)`;
}

/** Once the store's speed is measured: the warning when --speedup (`text`) asks more of it than the model assumes, if it does. */
export function startWarning(info: StartInfo, speedup: number | undefined, text: string | undefined): string | undefined {
  if (speedup !== undefined && speedup > info.loadSpeedup * 1.25) {
    return `at --speedup ${text} the probe asks ${num(info.offeredPerS)} requests/s of a store that handled ${num(info.capacityPerS)}/s at full speed: queueing will add latency the model does not have (--speedup ${num(Math.max(1, Math.floor(info.loadSpeedup * 10) / 10))} or less keeps it under 40%)`;
  }
  if (speedup !== undefined && speedup > info.latencySpeedup * 1.25) {
    return `at --speedup ${text} the store's own time per request weighs more than 2% of the client timeout, and slows handlers more than in production (--speedup ${num(Math.max(1, Math.floor(info.latencySpeedup * 10) / 10))} or less keeps it under)`;
  }
  return undefined;
}

/** What the probe will do, said on a terminal once it starts. */
export const startLine = (display: string, info: StartInfo): string =>
  `idem-sim: probing ${display}: ${num(info.actions)} actions, ${duration(info.scenarioMs)} of scenario time in about ${duration(info.wallMs)} (time ×${num(info.speedup)})\n`;
