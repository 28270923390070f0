/**
 * Which settings the model does not read under the others: a key written in a scenario that has
 * no effect deserves a warning, not silence ("from crash replays 0" looked reassuring while
 * `runtime.resume_delay` did nothing). Each rule is the model's own reading (docs/model.md) of
 * when a group of keys is never consulted; `test/inert.test.ts` checks every rule against the
 * engine: changing an inert key changes no number of the run.
 */
import { KEY_IDENTITY } from './policy.js';
import type { WrittenScenario } from './shape.js';

/** A key path of the scenario, or a section whose every key is meant (`client.backoff`). */
type KeyPath = string;

interface Rule {
  /** Whether the rule holds for a scenario. */
  when(s: WrittenScenario): boolean;
  /** Why, in words a user reads after the key: "has no effect: <because>". */
  because: string;
  keys: readonly KeyPath[];
}

const noKey = (s: WrittenScenario): boolean => KEY_IDENTITY[s.idempotency.scope] === null;
const NO_KEY = 'idempotency.scope is none, so no key is claimed, stored or looked up';

/** The first words of every fix for a setting that needs a key: which scope to set. */
export const SET_SCOPE = 'Set idempotency.scope (intent is the guide\'s choice)';

/** Why a scenario writes no key at all (the reason its key settings have no effect), or null when it writes keys. */
export function noKeyReason(s: WrittenScenario): string | null {
  return noKey(s) ? NO_KEY : null;
}

const noReplan = (s: WrittenScenario): boolean => s.agent.replan_probability === 0 || s.agent.max_replans === 0;
type Window = WrittenScenario['incidents'][number];
/** Whether a probability is 0 for the scenario and in every incident window (a window may raise it: docs/model.md, "Time"). */
const zero = (s: WrittenScenario, own: number, inWindow: (w: Window) => number | null): boolean => own === 0 && s.incidents.every((w) => !inWindow(w));
const noRuntimeCrash = (s: WrittenScenario): boolean => zero(s, s.runtime.crash_probability, (w) => w.runtime.crash_probability);
/**
 * Whether a trigger may deliver an action again (docs/model.md, "Inbound delivery"): each
 * redelivery's run starts a new original call, whose free text drifts from the last one's.
 * Under on_receipt with no ack_loss every delivery is acknowledged in time, and none follows.
 */
const redelivers = (s: WrittenScenario): boolean => {
  const t = s.trigger;
  return t !== null && t.redeliveries > 0 && (t.ack === 'after_step' || t.ack_loss > 0);
};

/** Every rule, in the order its reason is preferred; `test/inert.test.ts` checks each against the engine. */
export const INERT_RULES: readonly Rule[] = [
  {
    when: noKey, because: NO_KEY,
    keys: ['idempotency.claim', 'idempotency.fingerprint', 'idempotency.retention', 'idempotency.lease', 'idempotency.transactional',
      'idempotency.on_error', 'idempotency.conflict_retry_after', 'idempotency.record_bytes', 'idempotency.on_store_down', 'service.fast_reply'],
  },
  {
    when: (s) => !s.incidents.some((w) => w.store.down), because: 'no incident takes the key store down (store.down: true), so the server never finds it down',
    keys: ['idempotency.on_store_down'],
  },
  {
    when: (s) => s.idempotency.claim === 'check_then_act', because: 'idempotency.claim is check_then_act, which never leaves a key running, so no 409 is answered',
    keys: ['idempotency.lease', 'idempotency.conflict_retry_after'],
  },
  { when: noRuntimeCrash, because: 'runtime.crash_probability is 0, so no run is resumed', keys: ['runtime.resume_delay', 'runtime.max_replays'] },
  {
    // The crash is the replay's decision, drawn only while a replay is left (docs/model-decisions.md), with a trigger too.
    when: (s) => s.runtime.max_replays === 0, because: 'runtime.max_replays is 0, so no step ends in a runtime crash (the crash is drawn only while a replay is left)',
    keys: ['runtime.crash_probability', 'runtime.resume_delay'],
  },
  { when: (s) => s.workload.twin_probability === 0, because: 'workload.twin_probability is 0, so no action has a twin', keys: ['workload.twin_delay'] },
  { when: (s) => s.agent.replan_probability === 0, because: 'agent.replan_probability is 0, so no call is re-planned', keys: ['agent.max_replans', 'agent.replan_delay', 'agent.verify_before_replan'] },
  { when: (s) => s.agent.max_replans === 0, because: 'agent.max_replans is 0, so no call is re-planned', keys: ['agent.replan_probability', 'agent.replan_delay', 'agent.verify_before_replan'] },
  {
    when: (s) => noReplan(s) && noRuntimeCrash(s) && !redelivers(s), because: 'no call is re-planned or replayed, and no action is delivered again, so no free text is rewritten',
    keys: ['agent.arg_drift_probability'],
  },
  {
    when: (s) => zero(s, s.service.crash_probability, (w) => w.service.crash_probability), because: 'service.crash_probability is 0, so no handler dies between effect and key',
    keys: ['service.crash_after_effect', 'idempotency.transactional'],
  },
  { when: (s) => zero(s, s.service.error_rate, (w) => w.service.error_rate), because: 'service.error_rate is 0, so no 5xx is answered', keys: ['idempotency.on_error'] },
  {
    when: (s) => s.client.retries === 0, because: 'client.retries is 0, so no call makes a second attempt',
    keys: ['client.backoff', 'client.deadline', 'idempotency.conflict_retry_after'],
  },
];

/** A written key the model does not read under the scenario's other settings. */
export interface InertSetting { path: KeyPath; because: string }

/**
 * The inert settings among `written` (the leaf key paths a file or `--set` wrote, such as
 * `runtime.resume_delay.min`), in the order written, each with the first rule that makes it
 * inert; a leaf of an inert section is named by the section.
 */
export function inertSettings(s: WrittenScenario, written: readonly KeyPath[]): InertSetting[] {
  const holding = INERT_RULES.filter((r) => r.when(s));
  const out: InertSetting[] = [];
  for (const path of written) {
    for (const rule of holding) {
      // A leaf inside an inert section is named by the section, once (`runtime.resume_delay`).
      const key = rule.keys.find((k) => path === k || path.startsWith(`${k}.`));
      if (key === undefined) continue;
      if (!out.some((o) => o.path === key)) out.push({ path: key, because: rule.because });
      break;
    }
  }
  return out;
}
