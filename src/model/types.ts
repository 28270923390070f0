/**
 * The resolved scenario: every key of docs/model.md with its value, durations in milliseconds,
 * `none` as `null`. Produced by `src/scenario` from a file; consumed by the engine.
 */
import type { Claim, Distribution, Fingerprint, Jitter, OnError, Scope } from './enums.js';

/** The enumerations' types, declared with their lists in enums.ts. */
export type { Claim, Confidence, Distribution, Fingerprint, Jitter, OnError, Scope } from './enums.js';

/** A latency distribution, in milliseconds. */
export type LatencySpec =
  | { dist: 'lognormal'; median: number; sigma: number }
  | { dist: 'constant'; value: number }
  | { dist: 'uniform'; min: number; max: number }
  | { dist: 'exponential'; mean: number }
  /** `values` holds the observed latencies once the file has been read (by the CLI, not the model). */
  | { dist: 'empirical'; file: string; values?: readonly number[] }
  | { dist: 'mixture'; components: readonly MixtureComponent[] };

/** One component of a mixture; weights are relative (normalised by their sum). */
export type MixtureComponent = LatencySpec & { weight: number };

/** A closed interval of durations in ms, drawn uniformly. */
export interface DelayRange { min: number; max: number }

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// LatencySpec has one branch per value of DISTRIBUTIONS, no more, no fewer (else a compile error here).
true satisfies Same<LatencySpec['dist'], Distribution>;

export interface Scenario {
  /** Primary actions to simulate (twins come on top), integer >= 1. */
  actions: number;
  load: { rate_per_s: number };
  workload: { twin_probability: number; twin_delay: DelayRange };
  service: {
    latency: LatencySpec;
    error_rate: number;
    crash_probability: number;
    crash_after_effect: number;
    fast_reply: number;
  };
  network: { request_loss: number; reply_loss: number };
  client: {
    timeout: number;
    retries: number;
    /** ms from the call's first attempt after which no attempt starts; null = none. */
    deadline: number | null;
    backoff: { base: number; multiplier: number; max: number; jitter: Jitter };
  };
  agent: {
    replan_probability: number;
    max_replans: number;
    replan_delay: DelayRange;
    arg_drift_probability: number;
    verify_before_replan: boolean;
  };
  runtime: { crash_probability: number; resume_delay: DelayRange; max_replays: number };
  idempotency: {
    scope: Scope;
    claim: Claim;
    fingerprint: Fingerprint;
    retention: number;
    /** ms after the claim when a running record stops counting; null = none (retention). */
    lease: number | null;
    transactional: boolean;
    on_error: OnError;
    /** minimum wait in ms a 409 imposes on the client's next attempt; null = none. */
    conflict_retry_after: number | null;
    record_bytes: number;
  };
}

/** The most primary actions one run may take (`actions`, `--max-actions`): chunk indices stay well inside 32 bits. */
export const MAX_ACTIONS = 1e13;

/** The guide's lab, as docs/model.md lists it under "Defaults". */
export const DEFAULT_SCENARIO: Scenario = {
  actions: 4000,
  load: { rate_per_s: 50 },
  workload: { twin_probability: 0, twin_delay: { min: 1_000, max: 60_000 } },
  service: {
    latency: { dist: 'lognormal', median: 300, sigma: 0.6 },
    error_rate: 0,
    crash_probability: 0,
    crash_after_effect: 0.5,
    fast_reply: 5,
  },
  network: { request_loss: 0, reply_loss: 0.02 },
  client: {
    timeout: 1_000,
    retries: 3,
    deadline: null,
    backoff: { base: 100, multiplier: 2, max: 5_000, jitter: 'full' },
  },
  agent: {
    replan_probability: 0.6,
    max_replans: 1,
    replan_delay: { min: 2_000, max: 60_000 },
    arg_drift_probability: 0.5,
    verify_before_replan: false,
  },
  runtime: { crash_probability: 0, resume_delay: { min: 120_000, max: 1_200_000 }, max_replays: 1 },
  idempotency: {
    scope: 'none',
    claim: 'atomic',
    fingerprint: 'business',
    retention: 3_600_000,
    lease: null,
    transactional: false,
    on_error: 'release',
    conflict_retry_after: null,
    record_bytes: 200,
  },
};
