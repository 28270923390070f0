/**
 * The scenario as the engine's hot loop wants it (`Params`): numbers, small integer codes and
 * precomputed tables, made once per simulator. The decisions' arithmetic is policy.ts's.
 */
import { assertNever, type Claim, type Fingerprint, type OnError, type OnStoreDown, type Scope } from '../model/enums.js';
import { compileLatency, type LatencyCut, type LatencySampler } from '../model/latency.js';
import { backoffDelay, jittered, KEY_IDENTITY, runningLife, type KeyIdentity } from '../model/policy.js';
import type { Scenario } from '../model/types.js';
import { ackWindow, triggerOf, type Trigger } from '../model/trigger.js';
import { failChances, lastDecisionOf, reachOf } from './draws.js';
import { kept } from './kept.js';
import { nextDown, nextUp } from '../model/latency/next-up.js';

/** Key identities as the hot loop's small integers, one per identity (`keyOf` has a case for each). */
/** S_RUN: scope intent where each delivery's run mints its own run id (trigger.run_id: per_delivery; the key is the run's). */
export const S_NONE = 0, S_ATTEMPT = 1, S_CALL = 2, S_INTENT = 3, S_BUSINESS = 4, S_TEXT = 5, S_RUN = 6;
export type ScopeCode = typeof S_NONE | typeof S_ATTEMPT | typeof S_CALL | typeof S_INTENT | typeof S_BUSINESS | typeof S_TEXT | typeof S_RUN;
/** The code of each key identity (policy.ts's KEY_IDENTITY; null: no key). */
function identityCode(identity: KeyIdentity | null): ScopeCode {
  switch (identity) {
    case null: return S_NONE;
    case 'attempt': return S_ATTEMPT;
    case 'call': return S_CALL;
    case 'action': return S_INTENT;
    case 'group': return S_BUSINESS;
    case 'text': return S_TEXT;
    default: return assertNever(identity);
  }
}
/** Whether a stored fingerprint is compared at all, and whether it covers the free text (else only the business identity, the same for a whole group). */
const FINGERPRINT_RULE: Record<Fingerprint, { checked: boolean; text: boolean }> = {
  full: { checked: true, text: true }, business: { checked: true, text: false }, none: { checked: false, text: false },
};
/** Whether a claim takes the key atomically before the handler runs (else the key is written only when it ends). */
const ATOMIC_CLAIM: Record<Claim, boolean> = { atomic: true, check_then_act: false };
/** Whether an attempt that finds the key store down executes without its key (else it gets a 503). */
const FAILS_OPEN: Record<OnStoreDown, boolean> = { fail_closed: false, fail_open: true };
/** Whether a 5xx is stored under its key (else the key is released). */
const STORES_ERRORS: Record<OnError, boolean> = { release: false, store: true };

/** Scenario numbers in the form the hot loop wants them (times in ms). */
export interface Params {
  twinP: number; twinMin: number; twinMax: number;
  requestLoss: number; replyLoss: number;
  latency: LatencySampler;
  /** The latency split at the timeout (in the latency's own ms: timeout / latencyScale), from which the engine draws it. */
  cut: LatencyCut;
  /** A simple group's decisions (draws.ts): the chance that the first k pass, and the last one a script settles. */
  reach: Float64Array; lastDecision: number;
  errorRate: number; crashCut: number; crashAfter: number; fastReply: number;
  timeout: number; retries: number; deadline: number;
  /** `backoff[j]`: the delay before retry j (1-based) before jitter; index 0 unused. */
  backoff: Float64Array; retryAfter: number;
  /**
   * The jitter as policy.ts's `jittered` makes a wait from a delay d and a draw u, affine in u:
   * jitterLow·d + jitterScale·d·u, the same double for each jitter (none: d, and no draw where jitterScale is 0).
   */
  jitterLow: number; jitterScale: number;
  /** The least wait after a shed 503 (service.capacity.retry_after; 0: none). */
  shedRetryAfter: number;
  replanP: number; maxReplans: number; replanMin: number; replanMax: number;
  drift: number; verify: boolean;
  crashP: number; resumeMin: number; resumeMax: number; maxReplays: number;
  scope: ScopeCode;
  atomic: boolean; fpChecked: boolean; fpText: boolean; retention: number; runningLife: number;
  transactional: boolean; storeErrors: boolean;
  /** Incidents (incidents.ts): every latency drawn is multiplied by this (1 outside them); the key store does not answer; what the server then does. */
  latencyScale: number; storeDown: boolean; failOpen: boolean;
  /** Inbound delivery (model/trigger.ts), or null: each action delivered once. */
  trigger: TriggerParams | null;
}

/** A trigger as the engine reads it (times in ms). */
export interface TriggerParams {
  /** From a delivery to its deadline: max(ack_timeout, extend_up_to). */
  window: number;
  redeliveries: number;
  /** The wait after deadline k before delivery k + 1 is `schedule[min(k, length - 1)]`. */
  schedule: Float64Array;
  /** ack: after_step (else on_receipt). */
  afterStep: boolean;
  ackLoss: number; consumerCrash: number;
  /** dedupe: by_message. */
  dedupe: boolean;
}

function triggerParams(t: Trigger | null): TriggerParams | null {
  if (t === null) return null;
  return {
    window: ackWindow(t), redeliveries: t.redeliveries, schedule: Float64Array.from(t.schedule),
    afterStep: t.ack === 'after_step', ackLoss: t.ack_loss, consumerCrash: t.consumer_crash, dedupe: t.dedupe === 'by_message',
  };
}

/** The scope's code where a trigger mints a run id per delivery: intent keys are then the run's. */
function deliveredScope(scope: Scope, t: Trigger | null): ScopeCode {
  const code = scopeCode(scope);
  return code === S_INTENT && t !== null && t.run_id === 'per_delivery' ? S_RUN : code;
}

/** The scope's code for the hot loop. */
export function scopeCode(scope: Scope): ScopeCode {
  return identityCode(KEY_IDENTITY[scope]);
}

/** What an incident window adds to the scenario's own parameters (incidents.ts); outside windows, nothing. */
export interface WindowChanges { latencyScale: number; storeDown: boolean }
const NO_WINDOW: WindowChanges = { latencyScale: 1, storeDown: false };

/** The hot loop's parameters; inside an incident window (`w`) its changes too. */
export function compile(s: Scenario, w: WindowChanges = NO_WINDOW): Params {
  return new CompiledParams(s, w);
}

/**
 * Every `Params` is made by this one constructor, so the engine's loads from `this.p` see one
 * object shape whether or not a window is in force (an object spread made another and slowed
 * every access). A constructor, not an object literal: V8 builds a literal's boilerplate the
 * second time the literal runs, which widens its fields' representations and threw out every
 * optimised method that reads `this.p` at the start of a process's second run (the bench's first
 * timed run, a sweep's second point; `node --trace-deopt`: "code dependencies").
 */
interface CompiledParams extends Params {}
class CompiledParams {
  constructor(s: Scenario, w: WindowChanges) {
    const b = s.client.backoff;
    const i = s.idempotency;
    this.twinP = s.workload.twin_probability; this.twinMin = s.workload.twin_delay.min; this.twinMax = s.workload.twin_delay.max;
    this.requestLoss = s.network.request_loss; this.replyLoss = s.network.reply_loss;
    this.latency = compileLatency(s.service.latency);
    this.cut = cutOf(s.service.latency, this.latency, latencyCut(s.client.timeout, w.latencyScale));
    this.errorRate = s.service.error_rate;
    this.crashCut = s.service.error_rate + s.service.crash_probability;
    this.crashAfter = s.service.crash_after_effect;
    this.fastReply = s.service.fast_reply;
    this.timeout = s.client.timeout; this.retries = s.client.retries; this.deadline = s.client.deadline ?? Infinity;
    this.backoff = new Float64Array(s.client.retries + 1);
    for (let j = 1; j <= s.client.retries; j++) this.backoff[j] = backoffDelay(b, j);
    this.jitterLow = jittered(1, b.jitter, 0);
    this.jitterScale = jittered(1, b.jitter, 1) - this.jitterLow;
    this.retryAfter = i.conflict_retry_after ?? 0;
    this.shedRetryAfter = s.service.capacity?.retry_after ?? 0;
    this.replanP = s.agent.replan_probability; this.maxReplans = s.agent.max_replans;
    this.replanMin = s.agent.replan_delay.min; this.replanMax = s.agent.replan_delay.max;
    this.drift = s.agent.arg_drift_probability; this.verify = s.agent.verify_before_replan;
    this.crashP = s.runtime.crash_probability; this.resumeMin = s.runtime.resume_delay.min;
    this.resumeMax = s.runtime.resume_delay.max; this.maxReplays = s.runtime.max_replays;
    this.scope = deliveredScope(i.scope, triggerOf(s)); this.atomic = ATOMIC_CLAIM[i.claim];
    this.fpChecked = FINGERPRINT_RULE[i.fingerprint].checked; this.fpText = FINGERPRINT_RULE[i.fingerprint].text;
    this.retention = i.retention;
    this.runningLife = runningLife(i.lease, i.retention);
    this.transactional = i.transactional; this.storeErrors = STORES_ERRORS[i.on_error];
    this.latencyScale = w.latencyScale; this.storeDown = w.storeDown; this.failOpen = FAILS_OPEN[i.on_store_down];
    this.trigger = triggerParams(triggerOf(s));
    // A simple group's decisions, from the rest (draws.ts).
    const fail = failChances(this, this.cut.pAbove);
    this.reach = reachOf(fail, this.cut.pBelow);
    this.lastDecision = lastDecisionOf(fail);
  }
}

/**
 * Cuts made in this thread (kept.ts), by their latency and point: a run after the first with the
 * same draws from the cells the first built (some 3 ms of building a lognormal's table, 30 ms in a
 * fresh process). A cell's content is a function of the cut alone, whenever it is built
 * (model/latency/table.ts), so sharing a cut changes no draw.
 */
const CUTS = new Map<string, LatencyCut>();

function cutOf(spec: Scenario['service']['latency'], latency: LatencySampler, at: number): LatencyCut {
  return kept(CUTS, `${at} ${JSON.stringify(spec)}`, () => latency.cut(at));
}

/**
 * Where a latency is split for a timeout of `timeout` ms under a multiplier `scale`: the largest
 * double a with a·scale <= timeout, so that the engine's own test (the drawn latency times the
 * multiplier, against the timeout) puts every value on the side its cut says. timeout / scale
 * rounds, and a value on that boundary (a constant latency, an observed one) fell on one side at a
 * group's first attempt and on the other at its retries.
 */
export function latencyCut(timeout: number, scale: number): number {
  let a = timeout / scale;
  if (!Number.isFinite(a)) return a;
  while (a * scale > timeout) a = nextDown(a);
  while (nextUp(a) * scale <= timeout) a = nextUp(a);
  return a;
}
