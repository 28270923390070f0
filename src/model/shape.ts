/**
 * Every key of a scenario (docs/model.md), declared once: its kind, default and meaning. The
 * `Scenario` type, `DEFAULT_SCENARIO`, the JSON Schema (`scenario/schema.ts`) and the resolver
 * (`scenario/resolve.ts`: defaults, units) all come from `SCENARIO_SHAPE`; a new key is one line
 * here (and its use in the engine).
 */
import { CLAIMS, FINGERPRINTS, JITTERS, ON_ERRORS, ON_STORE_DOWNS, SCOPES } from './enums.js';
import { DEFAULT_DISTRIBUTION, LATENCY_FORMS, type LatencySpec, type WrittenLatency } from './latency.js';
import {
  MAX_ACTIONS, MAX_ALERTS, MAX_CAPACITY_COUNT, MAX_INCIDENTS, MAX_LATENCY_MULTIPLIER, MAX_MULTIPLIER, MAX_PROFILE_ENTRIES, MAX_RATE_PER_S, MAX_RECORD_BYTES,
  MAX_REPEATS, MAX_WORKERS, MIN_RATE_PER_S,
} from './limits.js';
import {
  choice, count, countOrUnbounded, duration, flag, list, NAME_FORM, NAME_PATTERN, optional, optionalDuration, override, positiveDuration, probability, range, rangeEnds, real, section, text,
  type Param, type Section, type ValueOf,
} from './params.js';
import { SERIES_NAMES } from './series.js';
import { GUARD_NAMES, LATER_GUARDS, type GuardName } from './guards.js';
import type { Trigger } from './trigger.js';
import { TRIGGER } from './trigger-keys.js';

/** The version of docs/model.md the numbers mean (the `model` field of every JSON output). */
export const CONTRACT_VERSION = 2;

const SECOND = 1_000, MINUTE = 60_000, HOUR = 3_600_000;

const RATE_TEXT = 'a number from 0.00001 (one action per 27.8 hours) to 10^9 (primary actions per second)';
const PROFILE_RATE_TEXT = 'a number from 0 (a lull: no arrival until the next change) to 10^9 (primary actions per second)';

// The keys an incident window may change are the scenario's own (docs/model.md, "Time").
const SERVICE_ERROR_RATE = probability(0, 'chance an execution fails with a 5xx before any side effect');
const SERVICE_CRASH = probability(0, 'chance the handler dies mid-request');
const REQUEST_LOSS = probability(0, 'chance a request never arrives');
const REPLY_LOSS = probability(0.02, 'chance a reply is lost');
const RUNTIME_CRASH = probability(0, 'chance the worker dies before the checkpoint when a step ends');

/** Which waiting request a worker that comes free takes (docs/model.md, "Capacity"). */
export const QUEUE_ORDERS = ['fifo', 'lifo'] as const;
export type QueueOrder = (typeof QUEUE_ORDERS)[number];

/** docs/model.md, "Capacity": a fixed number of workers with a queue in front of them. */
const CAPACITY = optional('workers and a queue: every request competes for a worker; none: unlimited capacity, latency never depends on load', {
  workers: count(undefined, 'handlers that run at once, at most 10^6', 1, MAX_WORKERS),
  queue: countOrUnbounded(null, 'requests that may wait for a worker, at most 10^9 (0: no waiting room); a request past it is shed with a 503', 0, MAX_CAPACITY_COUNT),
  order: choice(QUEUE_ORDERS, 'fifo', 'which waiting request a worker that comes free takes: the first arrived or the last'),
  drop_expired: flag(false, 'a worker drops, unhandled, a request whose client has already timed out'),
  retry_after: optionalDuration('a shed 503 makes the client wait at least this long before its next attempt'),
});

const COST = (def: number, meaning: string) => count(def, `${meaning}, at most 10^9`, 0, MAX_CAPACITY_COUNT);
/** docs/model.md, "Capacity": one token bucket for every call of the tool, as the AWS SDKs' standard retry mode. */
const RETRY_BUDGET = optional('a token bucket that a retry draws from; without enough tokens the retry is not sent', {
  tokens: count(500, 'tokens in the bucket, full at the start of the run, at most 10^9', 1, MAX_CAPACITY_COUNT),
  retry_cost: COST(5, 'tokens a retry after a 5xx, a 409 or a 503 takes'),
  timeout_cost: COST(10, 'tokens a retry after a timed-out attempt takes'),
  success_refund: COST(1, 'tokens a successful first attempt puts back (a successful retry puts back what it took)'),
}, {
  'aws-standard': {
    source: 'AWS SDKs, standard retry mode: a bucket of 500 tokens, 5 per retry, 10 per retry after a timeout, 1 back per success.',
    values: { tokens: 500, retry_cost: 5, timeout_cost: 10, success_refund: 1 },
  },
  'aws-standard-2026': {
    source: 'AWS SDKs, standard retry mode as updated in 2026 (AWS_NEW_RETRIES_2026; the default from November 2026): a bucket of 500 tokens, 14 per retry, a timeout no dearer, 1 back per success (their 5 per retry after a throttling error has no counterpart here: a shed 503 costs 14).',
    values: { tokens: 500, retry_cost: 14, timeout_cost: 14, success_refund: 1 },
  },
});

/**
 * docs/model.md, "Capacity" (version 4): gRPC's retry throttling (proposal A6), one counter for
 * every call of the tool. gRPC bounds max_tokens to (0, 1000] and keeps token_ratio to three
 * decimals; so does the engine (in thousandths).
 */
const RETRY_THROTTLE = optional('gRPC\'s retry throttling: failures take 1 from a counter, successes add token_ratio; a retry is sent only while it is above max_tokens / 2', {
  max_tokens: real(10, 0.001, 1000, 'a number from 0.001 to 1000: the counter\'s most, full at the start of the run'),
  token_ratio: real(0.1, 0.001, 1000, 'a number from 0.001 to 1000, kept to three decimals (rounded): what a success adds to the counter'),
});

/** docs/model.md, "Capacity": a circuit breaker in front of every attempt. */
const BREAKER = optional('a circuit breaker: past a failure rate it rejects attempts without sending them, then lets one probe through', {
  failure_rate: probability(0.5, 'share of failed outcomes in the window at which the breaker opens, above 0'),
  window: positiveDuration(10 * SECOND, 'the outcomes counted are those of the last window'),
  min_calls: count(20, 'outcomes the window must hold before the breaker may open, at most 10^9', 1, MAX_CAPACITY_COUNT),
  open_for: duration(30 * SECOND, 'how long the breaker stays open before it lets a probe through'),
});

/** One window of `incidents`: what changes for the attempts sent in [from, to) (runtime: for the steps ending in it). */
const INCIDENT = section('an incident window {name, from, to, ...the keys it changes}', {
  name: text(`${NAME_FORM}, unique among the incidents (alerts and expect: refer to it)`, NAME_PATTERN),
  from: duration(undefined, 'start of the window, from the start of the run'),
  to: duration(undefined, 'end of the window (not included), after from'),
  service: section('the tool server in the window', {
    latency_multiplier: override(real(undefined, 0, MAX_LATENCY_MULTIPLIER, 'a number from 0 to 10^6 (every latency drawn for an attempt sent in the window is multiplied by it)')),
    error_rate: override(SERVICE_ERROR_RATE),
    crash_probability: override(SERVICE_CRASH),
    capacity: section('the service\'s capacity in the window', {
      workers: override(count(undefined, 'handlers that may run at once in the window, at most 10^6 (0: a stop-the-world pause); running handlers finish; needs service.capacity', 0, MAX_WORKERS)),
    }),
  }),
  network: section('the network in the window', {
    request_loss: override(REQUEST_LOSS),
    reply_loss: override(REPLY_LOSS),
  }),
  store: section('the key store in the window', {
    down: override(flag(false, 'the key store does not answer (idempotency.on_store_down says what the server does); false in a later window brings it back')),
  }),
  runtime: section('the agent runtime for the steps ending in the window', {
    crash_probability: override(RUNTIME_CRASH),
  }),
});

/** One entry of `alerts`, evaluated on the run's series (docs/model.md, "Time"). */
const ALERT = section('an alert {name, metric, above, for, grace}', {
  name: text(`${NAME_FORM}, unique among the alerts (expect: refers to it)`, NAME_PATTERN),
  metric: choice(SERIES_NAMES, undefined, 'the series count the alert watches'),
  above: real(undefined, 0, 1e9, 'a number from 0 to 10^9 (the rate per second above which a bucket counts)'),
  for: duration(0, 'how long the rate must stay above before the alert fires (at least one bucket)'),
  grace: duration(30 * MINUTE, 'a firing that begins this long after an incident window still belongs to it'),
});

export const SCENARIO_SHAPE = section('a scenario', {
  actions: count(4000, 'primary actions to simulate, at most 10^13; twins come on top', 1, MAX_ACTIONS),
  load: section('arrival process', {
    rate_per_s: real(50, MIN_RATE_PER_S, MAX_RATE_PER_S, RATE_TEXT),
    profile: list('rate changes {at, rate_per_s}: from at on, primaries arrive at rate_per_s', MAX_PROFILE_ENTRIES, section('a rate change {at, rate_per_s}', {
      at: duration(undefined, 'when the rate changes, from the start of the run'),
      rate_per_s: real(undefined, 0, MAX_RATE_PER_S, PROFILE_RATE_TEXT),
    })),
    /** ms: simulate the primaries arriving in [0, duration) instead of `actions`; null = none. */
    duration: optionalDuration('simulate the primaries that arrive in this time instead of a fixed number of actions'),
  }),
  workload: section('twins: distinct requests with the same business identity', {
    twin_probability: probability(0, 'chance an action has a twin'),
    twin_delay: range({ min: 1 * SECOND, max: 60 * SECOND }, 'delay of a twin after its sibling'),
  }),
  service: section('the tool server', {
    latency: { kind: 'latency' },
    error_rate: SERVICE_ERROR_RATE,
    crash_probability: SERVICE_CRASH,
    crash_after_effect: probability(0.5, 'chance a crash comes after the side effect'),
    fast_reply: duration(5, 'time to answer 409, 422 or a stored result'),
    capacity: CAPACITY,
  }),
  network: section('the network between agent and tool', {
    request_loss: REQUEST_LOSS,
    reply_loss: REPLY_LOSS,
  }),
  client: section('the HTTP client or tool wrapper', {
    timeout: positiveDuration(1 * SECOND, 'client timeout per attempt'),
    retries: count(3, 'retries after the first attempt, at most 1000', 0, MAX_REPEATS),
    /** ms from the call's first attempt after which no attempt starts; null = none. */
    deadline: optionalDuration('no attempt starts this long after the call began'),
    backoff: section('the wait before retry j: min(max, base * multiplier^(j-1)) with jitter', {
      base: duration(100, 'first backoff'),
      multiplier: real(2, 1, MAX_MULTIPLIER, `a number from 1 to ${MAX_MULTIPLIER} (growth per retry)`),
      max: duration(5 * SECOND, 'cap on one backoff'),
      jitter: choice(JITTERS, 'full', 'full U(0,d), equal d/2+U(0,d/2), none d'),
    }),
    retry_budget: RETRY_BUDGET,
    breaker: BREAKER,
    retry_throttle: RETRY_THROTTLE,
  }),
  agent: section('the model deciding what to do after a failed call', {
    replan_probability: probability(0.6, 'chance the model re-issues a failed call'),
    max_replans: count(1, 're-plans per step at most, up to 1000', 0, MAX_REPEATS),
    replan_delay: range({ min: 2 * SECOND, max: 60 * SECOND }, 'delay before a re-plan'),
    arg_drift_probability: probability(0.5, 'chance a re-plan or replay rewrites its free text'),
    verify_before_replan: flag(false, 'read before re-planning and skip if the action ran'),
  }),
  runtime: section('the durable agent runtime', {
    crash_probability: RUNTIME_CRASH,
    resume_delay: range({ min: 2 * MINUTE, max: 20 * MINUTE }, 'delay before a crashed run resumes'),
    max_replays: count(1, 'replays per action at most, up to 1000', 0, MAX_REPEATS),
  }),
  trigger: TRIGGER,
  idempotency: section('the server-side key store', {
    scope: choice(SCOPES, 'none', 'what the key identifies'),
    claim: choice(CLAIMS, 'atomic', 'how a new key is claimed'),
    fingerprint: choice(FINGERPRINTS, 'business', 'what the payload fingerprint covers'),
    retention: duration(1 * HOUR, 'how long a completed key is remembered'),
    /** ms after the claim when a running record stops counting; null = none (retention). */
    lease: optionalDuration('after this long a running claim may be taken over'),
    transactional: flag(false, 'effect and key commit in one transaction'),
    on_error: choice(ON_ERRORS, 'release', 'what a 5xx does to the key'),
    /** minimum wait in ms a 409 imposes on the client's next attempt; null = none. */
    conflict_retry_after: optionalDuration('a 409 makes the client wait at least this long'),
    record_bytes: count(200, 'bytes one key record takes, at most 16 MiB = 16777216', 1, MAX_RECORD_BYTES),
    on_store_down: choice(ON_STORE_DOWNS, 'fail_closed', 'what the server does while the key store is down: fail_closed answers 503, fail_open executes without the key'),
  }),
  incidents: list('incident windows that change parameters for the attempts sent in them', MAX_INCIDENTS, INCIDENT),
  alerts: list('alerts on the run\'s series', MAX_ALERTS, ALERT),
});

/** A scenario with its latency distribution of type `L`. */
export type ScenarioOf<L> = ValueOf<typeof SCENARIO_SHAPE, L>;
/** The resolved scenario the engine runs: every key, durations in ms, `none` as null, data loaded. */
export type Scenario = ScenarioOf<LatencySpec>;
/** A scenario as a file gives it, resolved (defaults, ms) but with its data files not yet read. */
export type WrittenScenario = ScenarioOf<WrittenLatency>;
/** The declared `trigger` resolves to exactly the type the engines read (model/trigger.ts): each assignable to the other. */
export const TRIGGER_IS_TRIGGER: Same<Scenario['trigger'], Trigger | null> = true;
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : never;

/** The default distribution: its form's defaults. */
function defaultLatency(): LatencySpec {
  return { dist: DEFAULT_DISTRIBUTION, ...defaultsOf(section('', LATENCY_FORMS[DEFAULT_DISTRIBUTION].keys)) } as LatencySpec;
}

function defaultOf(p: Param): unknown {
  switch (p.kind) {
    case 'section': return defaultsOf(p);
    case 'latency': return defaultLatency();
    case 'optional_duration': case 'optional': return null;
    case 'range': return { ...p.default };
    case 'durations': return [...p.default];
    case 'text': case 'components': return undefined; // required where they appear
    case 'list': return [];
    case 'override': return null;
    default: return p.default;
  }
}

function defaultsOf(s: Section): Record<string, unknown> {
  return Object.fromEntries(Object.entries(s.params).map(([k, p]) => [k, defaultOf(p)]));
}

/** The parameter a key path names (`client.timeout`, `service.latency.components[0].median`), if any. */
export function paramAt(path: string): Param | undefined {
  let node: Param | undefined = SCENARIO_SHAPE;
  for (const key of path.replace(/\[\d+\]/g, '').split('.')) node = node && childOf(node, key);
  return node;
}

/** Own keys only: `constructor` must not find Object's. */
const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

function childOf(p: Param, key: string): Param | undefined {
  switch (p.kind) {
    case 'section': case 'optional': return own(p.params, key);
    case 'range': return own(rangeEnds(p), key);
    // A distribution's keys are those of any form (`dist` and a component's `weight` are no durations).
    case 'latency': return Object.values(LATENCY_FORMS).map((f) => own({ ...f.keys, ...f.fit?.keys } as Readonly<Record<string, Param>>, key)).find((q) => q !== undefined);
    case 'components': return childOf({ kind: 'latency' }, key);
    case 'list': return childOf(p.of, key);
    default: return undefined;
  }
}

/** The guide's lab, as docs/model.md lists it under "Defaults". */
export const DEFAULT_SCENARIO: Scenario = defaultsOf(SCENARIO_SHAPE) as Scenario;

/**
 * The chances of what goes wrong in a run (errors, crashes, lost requests and replies) and of the
 * model's re-plans. Those whose default is not 0 are the guide's lab values (2% lost replies, 60%
 * re-plans): a scenario that does not write them runs on them, and the commands say so
 * (scenario/provenance.ts, `labDefaultsInherited`).
 */
export const EVENT_CHANCES = [
  'service.error_rate', 'service.crash_probability', 'network.request_loss', 'network.reply_loss', 'agent.replan_probability', 'runtime.crash_probability',
] as const;

/**
 * The scenario as outputs echo it without the keys of "Capacity" (all of them `none`): it prints as
 * before version 3 added them, byte for byte. `s` may lack the keys of "Time" (`echoed`).
 */
export function withoutCapacity<S extends Partial<WrittenScenario>>(s: S): S {
  if (s.service === undefined || s.client === undefined) return s;
  const { capacity: _c, ...service } = s.service;
  const client = withoutGuards(s.client, GUARD_NAMES);
  const incidents = s.incidents?.map((w) => {
    const { capacity: _w, ...inWindow } = w.service;
    return { ...w, service: inWindow };
  });
  return { ...s, service, client, ...(incidents === undefined ? {} : { incidents }) };
}

/** A coupled scenario as outputs echo it: without the guards added after version 3 that it does not set (model/guards.ts), so that it prints as before them. */
export function withoutLaterGuards<S extends Partial<WrittenScenario>>(s: S): S {
  if (s.client === undefined) return s;
  const client = s.client;
  return { ...s, client: withoutGuards(client, LATER_GUARDS.filter((n) => client[n] === null)) };
}

function withoutGuards<C extends WrittenScenario['client']>(client: C, names: readonly GuardName[]): C {
  return Object.fromEntries(Object.entries(client).filter(([k]) => !(names as readonly string[]).includes(k))) as C;
}

/** A scenario as outputs echo it without `trigger` when it has none, so that it prints as before version 4 added the key. */
export function withoutTrigger<S extends Partial<WrittenScenario>>(s: S): S {
  if (s.trigger !== null) return s;
  const { trigger: _t, ...rest } = s;
  return rest as S;
}
