/**
 * Presets from real systems: `preset: NAME` fills the `idempotency` keys, `client.preset: NAME`
 * the `client` keys and `trigger.preset: NAME` the `trigger` keys a system is documented to use.
 * A key written in the scenario wins over the preset. Values marked "choice" are not set by the
 * source and are idem-sim's labelled choices.
 */

type Raw = Record<string, unknown>;

export interface Preset {
  /** Where the values come from. */
  source: string;
  values: Raw;
  /**
   * A trigger preset whose redeliveries stand for a retention period, not a documented count (a
   * queue without a dead-letter policy redelivers until the message expires): the count was
   * worked out as this retention in the preset's own windows, so a window written beside the
   * preset needs a count of its own (scenario/trigger-warnings.ts says which).
   */
  retention?: string;
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

/**
 * The client of the SDKs Stainless generates from an API's specification (OpenAI's and
 * Anthropic's among them): each SDK's own constants, equal in both (sources below).
 */
const STAINLESS_SDK: Raw = { client: { timeout: '10m', retries: 2, backoff: { base: '500ms', multiplier: 2, max: '8s', jitter: 'equal' } } };

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
  'openai-sdk': {
    source: 'OpenAI\'s SDKs (github.com/openai/openai-python, src/openai/_constants.py: DEFAULT_MAX_RETRIES = 2, DEFAULT_TIMEOUT = 600 s, INITIAL_RETRY_DELAY = 0.5, MAX_RETRY_DELAY = 8.0; src/openai/_base_client.py, _calculate_retry_timeout: min(0.5 × 2^n, 8) s before retry n + 1, times 1 - 0.25 × random(); _should_retry: timeouts, connection errors, 408, 409, 429 and 5xx; openai-node\'s calculateDefaultRetryTimeoutMillis the same). The SDK keeps 75-100% of each wait, which none of the model\'s jitter modes does: equal (50-100%) is a choice.',
    values: STAINLESS_SDK,
  },
  'anthropic-sdk': {
    source: 'Anthropic\'s SDKs (github.com/anthropics/anthropic-sdk-python, src/anthropic/_constants.py: DEFAULT_MAX_RETRIES = 2, DEFAULT_TIMEOUT = 10 × 60 s, INITIAL_RETRY_DELAY = 0.5, MAX_RETRY_DELAY = 8.0; src/anthropic/_base_client.py: the retry loop and jitter of OpenAI\'s, both generated by Stainless). Equal jitter is a choice, as for openai-sdk.',
    values: STAINLESS_SDK,
  },
};

/**
 * Senders of inbound deliveries (`trigger.preset:`, docs/triggers.md), filling `trigger` with what
 * the provider documents: kind, ack_timeout, redeliveries, schedule, extend_up_to. The keys of the
 * consumer (ack, ack_loss, consumer_crash, run_id, dedupe) are the scenario's own: no provider
 * documents them. A queue without a dead-letter policy redelivers until its retention ends; that
 * count is worked out at the preset's own ack window (`retention` marks such a preset), and is not
 * recomputed when a key beside the preset changes ack_timeout or extend_up_to: that is warned of.
 */
export const TRIGGER_PRESETS: Readonly<Record<string, Preset>> = {
  slack: {
    source: 'Slack Events API (https://docs.slack.dev/apis/events-api/, "Responding to events" and "Retries"): "respond to the event request with an HTTP 2xx within three seconds"; Slack retries "up to 3 times": "The first retry will be sent nearly immediately", "The second retry will be attempted after 1 minute", "The third and final retry will be sent after 5 minutes". Slack does not say what the minute and the five minutes count from: the preset counts each from the missed deadline before it (a choice).',
    values: { trigger: { kind: 'webhook', ack_timeout: '3s', redeliveries: 3, schedule: ['0s', '1m', '5m'] } },
  },
  'slack-delayed': {
    source: 'Slack Events API with Delayed Events turned on (https://docs.slack.dev/apis/events-api/, "Delayed events"): the three retries of slack, then "hourly retries for 24 hours". Slack gives no count of hourly retries: 24 (27 redeliveries in all) is a reading of "for 24 hours".',
    values: { trigger: { kind: 'webhook', ack_timeout: '3s', redeliveries: 27, schedule: ['0s', '1m', '5m', '1h'] } },
  },
  sqs: {
    source: 'Amazon SQS standard queue without a redrive policy, AWS\'s defaults (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html, API_SetQueueAttributes): "The default visibility timeout for a message is 30 seconds"; once it passes "the message becomes visible to other consumers and the message is received again"; MessageRetentionPeriod "Default: 345,600 (4 days)", and "Standard queues keep processing messages until the expiration of the retention period". AWS gives no count: 4 days of 30 s windows is 11,520 receives (redeliveries 11519), worked out for the default 30 s window; the message expires rather than moves to a dead-letter queue. The consumer\'s heartbeat (ChangeMessageVisibility) is its own code: no extend_up_to.',
    values: { trigger: { kind: 'queue', ack_timeout: '30s', redeliveries: 11519, schedule: ['0s'] } },
    retention: '4d',
  },
  'sqs-dlq': {
    source: 'Amazon SQS standard queue with a redrive policy at its API default (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_SetQueueAttributes.html): "maxReceiveCount - The number of times a message is delivered to the source queue before being moved to the dead-letter queue. Default: 10", so redeliveries 9; visibility timeout 30 s, received again as soon as it passes, as for sqs.',
    values: { trigger: { kind: 'queue', ack_timeout: '30s', redeliveries: 9, schedule: ['0s'] } },
  },
  pubsub: {
    source: 'Google Cloud Pub/Sub pull subscription read with a client library (https://cloud.google.com/pubsub/docs/lease-management, .../reference/rest/v1/projects.subscriptions, .../subscription-retry-policy): ack deadline 10 s by default; "By default, the client libraries can extend the deadline to an hour" (Java, Go, Python and Node.js: 60 minutes); "By default, subscriptions use immediate redelivery"; message retention 7 days by default. Google gives no count without a dead-letter topic: 7 days of 60-minute windows is 168 deliveries (redeliveries 167), worked out for the default window of 60 minutes.',
    values: { trigger: { kind: 'queue', ack_timeout: '10s', extend_up_to: '60m', redeliveries: 167, schedule: ['0s'] } },
    retention: '7d',
  },
  'pubsub-dlq': {
    source: 'Google Cloud Pub/Sub with a dead-letter topic at its default (https://cloud.google.com/pubsub/docs/reference/rest/v1/projects.subscriptions, deadLetterPolicy): max_delivery_attempts "If this parameter is 0, a default value of 5 is used", so redeliveries 4; the client libraries\' lease extension and immediate redelivery as for pubsub.',
    values: { trigger: { kind: 'queue', ack_timeout: '10s', extend_up_to: '60m', redeliveries: 4, schedule: ['0s'] } },
  },
  github: {
    source: 'GitHub webhooks, github.com (https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries): "if your server is down or takes longer than 10 seconds to respond, GitHub will record the delivery as a failure"; "GitHub does not automatically redeliver failed deliveries". A step that outlives 10 s is dead-lettered, and nothing is delivered again; a script that redelivers failed deliveries is a policy of your own: write its redeliveries and schedule beside the preset.',
    values: { trigger: { kind: 'webhook', ack_timeout: '10s', redeliveries: 0 } },
  },
  svix: {
    source: 'Svix (https://docs.svix.com/retries): "Each message is attempted based on the following schedule, where each period is started following the failure of the preceding attempt: Immediately, 5 seconds, 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours, 10 hours", and a 2xx "within a reasonable time-frame (15s with Svix)"; after the last attempt the message is marked Failed.',
    values: { trigger: { kind: 'webhook', ack_timeout: '15s', redeliveries: 7, schedule: ['5s', '5m', '30m', '2h', '5h', '10h', '10h'] } },
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

/** The presets a raw scenario names (`preset:`, then `client.preset:` and `trigger.preset:`), each with the key path that names it. */
export function namedPresets(raw: Raw): { path: readonly string[]; preset: Preset }[] {
  const name = (presets: Readonly<Record<string, Preset>>, v: unknown) => (typeof v === 'string' && Object.hasOwn(presets, v) ? presets[v] : undefined);
  const inSection = (key: string, presets: Readonly<Record<string, Preset>>) => {
    const section = raw[key];
    const preset = name(presets, isMapping(section) ? section['preset'] : undefined);
    return preset ? [{ path: [key, 'preset'], preset }] : [];
  };
  const server = name(SERVER_PRESETS, raw['preset']);
  return [...(server ? [{ path: ['preset'], preset: server }] : []), ...inSection('client', CLIENT_PRESETS), ...inSection('trigger', TRIGGER_PRESETS)];
}

/** The raw scenario with its presets filled in under the keys it writes itself. */
export function applyPresets(raw: Raw): Raw {
  return namedPresets(raw).reduce((out, { preset }) => overlay(preset.values, out), raw);
}
