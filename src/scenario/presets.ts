/**
 * Presets from real systems: `preset: NAME` fills the `idempotency` keys and
 * `client.preset: NAME` the `client` keys a system is documented to use. A key written in
 * the scenario wins over the preset. Values marked "choice" are not set by the source and
 * are idem-sim's labelled choices.
 */

type Raw = Record<string, unknown>;

export interface Preset {
  /** Where the values come from. */
  source: string;
  values: Raw;
}

/** Server behaviour (`preset:`), filling `idempotency`. */
export const SERVER_PRESETS: Readonly<Record<string, Preset>> = {
  stripe: {
    source: 'Stripe API reference, "Idempotent requests": keys are kept at least 24 hours; the first result, 500 errors included, is saved and replayed; reusing a key with other parameters is an error; a request still in progress conflicts.',
    values: { idempotency: { retention: '24h', on_error: 'store', fingerprint: 'full', claim: 'atomic' } },
  },
  'ietf-draft': {
    source: 'IETF draft "The Idempotency-Key HTTP Header Field": 409 while the first request is in progress, 422 for the same key with another payload (fingerprint over the payload). The draft sets no retention or lease: 24h and 60s are choices.',
    values: { idempotency: { fingerprint: 'full', claim: 'atomic', retention: '24h', lease: '60s' } },
  },
  'brandur-pg': {
    source: 'Brandur Leach, "Implementing Stripe-like Idempotency Keys in Postgres": atomic phases in transactions, a locked key taken over after 90 seconds, keys reaped after 72 hours.',
    values: { idempotency: { transactional: true, lease: '90s', retention: '72h', claim: 'atomic' } },
  },
  powertools: {
    source: 'AWS Lambda Powertools, Idempotency utility: records expire after 3600 s by default; an exception deletes the record so the request can be retried.',
    values: { idempotency: { retention: '1h', on_error: 'release', claim: 'atomic' } },
  },
  'node-idempotency': {
    source: 'A common Node.js middleware behaviour: keys kept 24 hours, no lease (a crashed request holds its key until it expires), errors stored and replayed, and a 409 that asks the client to retry after 1 second.',
    values: { idempotency: { retention: '24h', lease: 'none', on_error: 'store', conflict_retry_after: '1s', claim: 'atomic' } },
  },
};

/** Retry policies (`client.preset:`), filling `client`. */
export const CLIENT_PRESETS: Readonly<Record<string, Preset>> = {
  'stripe-sdk': {
    source: 'Stripe client libraries: network retries wait 0.5 s × 2^n, capped at 5 s, with jitter that keeps at least half the wait (equal jitter).',
    values: { client: { backoff: { base: '500ms', multiplier: 2, max: '5s', jitter: 'equal' } } },
  },
  temporal: {
    source: 'Temporal default retry policy: initial interval 1 s, backoff coefficient 2, maximum interval 100 × the initial interval (100 s). It documents no jitter: none is a choice.',
    values: { client: { backoff: { base: '1s', multiplier: 2, max: '100s', jitter: 'none' } } },
  },
  langgraph: {
    source: 'LangGraph RetryPolicy defaults: initial interval 0.5 s, backoff factor 2, maximum interval 128 s, 3 attempts (2 retries), jitter on. LangGraph adds a random amount to each wait; equal jitter is the nearest of the model\'s modes (a choice).',
    values: { client: { retries: 2, backoff: { base: '500ms', multiplier: 2, max: '128s', jitter: 'equal' } } },
  },
};

/** `base` with `over` written on top, mapping by mapping. */
export function overlay(base: Raw, over: Raw): Raw {
  const out: Raw = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = Object.hasOwn(out, k) ? out[k] : undefined;
    // Defined, not assigned: assigning a key named __proto__ would set out's prototype instead.
    Object.defineProperty(out, k, { value: isMapping(b) && isMapping(v) ? overlay(b, v) : v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isMapping(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The raw scenario with its presets filled in under the keys it writes itself. */
export function applyPresets(raw: Raw): Raw {
  let out = raw;
  const server = typeof raw['preset'] === 'string' ? SERVER_PRESETS[raw['preset']] : undefined;
  if (server) out = overlay(server.values, out);
  const client = isMapping(raw['client']) && typeof raw['client']['preset'] === 'string' ? CLIENT_PRESETS[raw['client']['preset']] : undefined;
  if (client) out = overlay(client.values, out);
  return out;
}
