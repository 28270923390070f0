/**
 * How the probe sets itself up from a scenario: the store variant and options, the record
 * it stores, how many connections it opens and how fast it replays the stream.
 */
import { compileLatency } from '../model/latency.js';
import { streamRng } from '../random/rng.js';
import type { Scenario } from '../model/types.js';
import type { RecordShape } from '../stores/backend.js';
import type { StoreOptions, StoreVariant } from '../stores/types.js';
import { KEY_LENGTH } from './agent.js';

/** The fastest the probe compresses time unless told otherwise. */
export const MAX_AUTO_SPEEDUP = 10;
/**
 * The share of the store's measured capacity the probe aims to use: beyond about half,
 * queueing adds latency (and timeouts) that the model, whose store answers at once, does not have.
 */
export const LOAD_TARGET = 0.4;
/**
 * The most a request's own store time, magnified by the speed-up, may be of the client
 * timeout: the store's round trips add to the handler's latency, and at ×s they weigh s
 * times more against the scenario's timings than they would in production.
 */
export const LATENCY_TARGET = 0.02;
/** Beyond this the body is refused before it is built (limits.ts holds the stated limit, 1 MiB). */
const MAX_BODY_GUARD = 1_048_576;
/** A SHA-256 fingerprint in hex. */
export const FINGERPRINT_LENGTH = 64;

/** The store variant a scenario's `idempotency.claim` and `transactional` name. */
export function variantOf(s: Scenario): StoreVariant {
  if (s.idempotency.claim === 'check_then_act') return 'check_then_act';
  return s.idempotency.transactional ? 'transactional' : 'atomic';
}

/** The scenario's idempotency keys as store options, durations divided by `speedup`. */
export function storeOptions(s: Scenario, speedup = 1): StoreOptions {
  const i = s.idempotency;
  return {
    retentionMs: i.retention / speedup, leaseMs: i.lease === null ? null : i.lease / speedup,
    onError: i.on_error, checkFingerprint: i.fingerprint !== 'none',
  };
}

/** The record the scenario stores: a UUID-long key, a SHA-256 fingerprint and a body filling `record_bytes`. */
export function recordShape(s: Scenario, seed: string, responseBytes?: number): RecordShape {
  const length = responseBytes ?? Math.max(0, s.idempotency.record_bytes - KEY_LENGTH - FINGERPRINT_LENGTH);
  // Checked by the caller (limits.ts); a guard here so that no path builds a string of gigabytes.
  if (!(length <= MAX_BODY_GUARD)) throw new RangeError(`response body of ${length} bytes`);
  // Random characters: a real response does not compress to nothing, and PostgreSQL would compress repeats.
  const rng = streamRng(seed, 'probe/body');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let body = '';
  for (let i = 0; i < length; i++) body += alphabet[Math.floor(rng.next() * 64)];
  return { keyLength: KEY_LENGTH, fingerprint: 'f'.repeat(FINGERPRINT_LENGTH), body };
}

/** The speed-up when none is given: the lower bound, one decimal, from 1 to MAX_AUTO_SPEEDUP. */
export function autoSpeedup(loadSpeedup: number, latencySpeedup: number): number {
  return Math.max(1, Math.min(MAX_AUTO_SPEEDUP, Math.floor(Math.min(loadSpeedup, latencySpeedup) * 10) / 10));
}

/**
 * Connections the probe opens by default: 8, or for `transactional`, which holds one for the
 * whole of each handler run, enough for the handlers running at once (rate × mean latency,
 * plus 3 standard deviations of a Poisson count), at most 64.
 */
export function defaultConnections(scenario: Scenario): number {
  if (!scenario.idempotency.transactional || scenario.idempotency.claim !== 'atomic') return 8;
  const sampler = compileLatency(scenario.service.latency);
  const rng = streamRng('connections', 'latency');
  let sum = 0;
  for (let i = 0; i < 10_000; i++) sum += sampler.sample(rng);
  const busy = (scenario.load.rate_per_s * sum) / 10_000 / 1000;
  return Math.min(64, Math.max(8, Math.ceil(busy + 3 * Math.sqrt(busy))));
}
