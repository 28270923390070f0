/**
 * The JSON Schema of scenario files (draft-07). It is the single source of truth for
 * what a file may contain: the loader validates against it, `idem-sim schema` prints it,
 * and each leaf's `description` is the "expected ..." phrase of error messages.
 */
import { CLAIMS, CONFIDENCES, DISTRIBUTIONS, FINGERPRINTS, JITTERS, ON_ERRORS, SCOPES, type Distribution } from '../model/enums.js';
import { DEFAULT_SCENARIO as D, MAX_ACTIONS } from '../model/types.js';
import { METRIC_PATHS } from '../model/metric-paths.js';
import { DURATION_PATTERN, formatDuration } from './duration.js';
import { MAX_DURATION_MS, MAX_MULTIPLIER, MAX_RATE_PER_S, MAX_RECORD_BYTES, MAX_SIGMA, MAX_WEIGHT, MIN_RATE_PER_S } from './limits.js';
import { CLIENT_PRESETS, SERVER_PRESETS } from './presets.js';

/** A threshold on a metric: an operator and a number (a duration for latencies). */
export const THRESHOLD_PATTERN = '^\\s*(<=|>=|==|!=|<|>)\\s*[-+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?\\s*(ms|s|m|h|d)?\\s*$';

type Json = Record<string, unknown>;

/** Non-empty string (a pattern rather than minLength, so the compiled validator needs no runtime helper). */
const NON_EMPTY = '\\S';

const probability = (def: number, meaning: string): Json => ({
  type: 'number', minimum: 0, maximum: 1, default: def,
  description: `a probability between 0 and 1 (${meaning})`,
});
const count = (def: number, meaning: string, min = 0): Json => ({
  type: 'integer', minimum: min, default: def,
  description: `a whole number >= ${min} (${meaning})`,
});
/** Durations: from 0 to MAX_DURATION_MS; the loader checks strings (`1e400ms` has no pattern) against it too. */
const MAX_DURATION = formatDuration(MAX_DURATION_MS);
const durationNumber: Json = { type: 'number', minimum: 0, maximum: MAX_DURATION_MS };
const durationSchema = (meaning: string, def?: number | null): Json => ({
  anyOf: [
    durationNumber,
    { type: 'string', pattern: DURATION_PATTERN },
  ],
  ...(def === undefined || def === null ? {} : { default: formatDuration(def) }),
  description: `a duration >= 0 and at most ${MAX_DURATION} (10 years) such as 250ms, 2s, 5m, 1h or 7d, a bare number meaning ms (${meaning})`,
});
const optionalDuration = (meaning: string): Json => ({
  anyOf: [
    durationNumber,
    { type: 'string', pattern: DURATION_PATTERN },
    { const: 'none' },
    { type: 'null' },
  ],
  default: 'none',
  description: `a duration >= 0 and at most ${MAX_DURATION} (10 years) such as 500ms or 90s, or none (${meaning})`,
});
const delayRange = (def: { min: number; max: number }, meaning: string): Json => ({
  type: 'object', additionalProperties: false,
  description: `a range {min, max} of durations (${meaning})`,
  properties: {
    min: durationSchema(`shortest ${meaning}`, def.min),
    max: durationSchema(`longest ${meaning}`, def.max),
  },
});
const choice = <T extends string>(values: readonly T[], def: NoInfer<T> | undefined, meaning: string): Json => ({
  type: 'string', enum: values, ...(def === undefined ? {} : { default: def }),
  description: `one of ${values.join(', ')} (${meaning})`,
});
const flag = (def: boolean, meaning: string): Json => ({
  type: 'boolean', default: def, description: `true or false (${meaning})`,
});
const section = (meaning: string, properties: Json): Json => ({
  type: 'object', additionalProperties: false, description: `a mapping (${meaning})`, properties,
});

/** One branch per `dist`; `weight` is allowed (and required) inside mixtures only. */
function latencySchema(inMixture: boolean): Json {
  const weight: Json = inMixture
    ? { weight: { type: 'number', minimum: 0, maximum: MAX_WEIGHT, description: 'a relative weight from 0 to 10^9 (share of this component)' } }
    : {};
  const branch = (dist: Distribution, [props, required]: [Json, string[]]): Json => ({
    if: dist === 'lognormal'
      ? { properties: { dist: { const: dist } } }
      : { properties: { dist: { const: dist } }, required: ['dist'] },
    then: {
      properties: { dist: {}, ...weight, ...props },
      required: inMixture ? ['weight', ...required] : required,
      additionalProperties: false,
    },
  });
  /** Each distribution's keys and the keys it requires. */
  const branches: Record<Distribution, [Json, string[]]> = {
    lognormal: [{
      median: durationSchema('median latency, > 0', 300),
      sigma: { type: 'number', minimum: 0, maximum: MAX_SIGMA, default: 0.6, description: `a number from 0 to ${MAX_SIGMA} (log-standard deviation)` },
    }, []],
    constant: [{ value: durationSchema('every latency') }, ['value']],
    uniform: [{ min: durationSchema('shortest latency'), max: durationSchema('longest latency') }, ['min', 'max']],
    exponential: [{ mean: durationSchema('mean latency') }, ['mean']],
    empirical: [{
      file: { type: 'string', pattern: NON_EMPTY, description: 'a path, relative to the scenario file, of observed latencies in ms, one per line' },
    }, ['file']],
    mixture: [{
      components: {
        type: 'array', minItems: 1, items: { $ref: '#/definitions/component' },
        description: 'a list of distributions each with a weight',
      },
    }, ['components']],
  };
  return {
    type: 'object',
    description: `a latency distribution: {median, sigma} for lognormal, or {dist: ${DISTRIBUTIONS.filter((d) => d !== 'lognormal').join('|')}, ...}`,
    properties: { dist: choice(DISTRIBUTIONS, 'lognormal', 'the latency distribution') },
    allOf: DISTRIBUTIONS.map((dist) => branch(dist, branches[dist])),
  };
}

const confidence: Json = choice(CONFIDENCES, 'none', 'ci95: pass only if the whole 95% interval passes');
const threshold: Json = {
  type: 'string', pattern: THRESHOLD_PATTERN,
  description: 'a threshold such as "<= 0.5", "== 0" or "< 3s": one of < <= == != >= > and a number (a duration for latencies)',
};

/** `expect:` — what `idem-sim check` requires of the scenario's metrics. */
const EXPECT: Json = {
  type: 'object', additionalProperties: false,
  description: 'a mapping of metric to threshold (checked by idem-sim check)',
  properties: {
    confidence,
    ...Object.fromEntries(METRIC_PATHS.map((path) => [path, {
      anyOf: [threshold, { type: 'object', additionalProperties: false, required: ['threshold'], properties: { threshold, confidence } }],
      description: `a threshold on ${path} such as "<= 0.5", or {threshold, confidence: ci95}`,
    }])),
  },
};

/** `sweep:` — what `idem-sim sweep` varies when the command line does not say. */
const SWEEP: Json = {
  type: 'object', additionalProperties: false,
  description: 'a mapping with vary (key path to values) and metric (for the heat map)',
  properties: {
    vary: {
      type: 'object', minProperties: 1,
      description: 'key paths mapped to values: a list, or a range such as "200ms..2s:10" or "log:100ms..10s:9"',
      additionalProperties: {
        anyOf: [
          { type: 'string', pattern: NON_EMPTY },
          {
            type: 'array', minItems: 1,
            items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object' }], description: 'a value: a string, a number, true/false, or a whole mapping (such as a latency distribution)' },
          },
        ],
        description: 'a list of values, or a range such as "200ms..2s:10" or "log:100ms..10s:9"',
      },
    },
    metric: choice(METRIC_PATHS, 'duplicates_per_1000', 'the metric of the two-parameter heat map'),
  },
};

/** Keys a scenario file may hold besides the model's parameters. */
const META_KEYS: Json = {
  preset: choice(Object.keys(SERVER_PRESETS), undefined, 'server behaviour of a real system; keys written here win'),
  hint: { type: 'string', description: 'a string (a one-line hint, shown by idem-sim missions)' },
  expect: EXPECT,
  sweep: SWEEP,
  $schema: { type: 'string', description: 'a string (the schema this file follows, for editors)' },
  description: { type: 'string', description: 'a string (what the scenario is about)' },
  seed: {
    anyOf: [{ type: 'number' }, { type: 'string', pattern: NON_EMPTY }],
    description: 'a number or a non-empty string (the random seed; --seed overrides it)',
  },
};

/** Whether a key path (`client.timeout`, `service.latency.components[0].median`) holds a duration. */
export function isDurationKey(path: string): boolean {
  let node: Json | undefined = SCENARIO_SCHEMA;
  for (const key of path.replace(/\[\d+\]/g, '').split('.')) {
    if (!node) return false;
    if (node['items']) node = node['items'] as Json; // a list: its items
    const ref = node['$ref'] as string | undefined;
    if (ref) node = (SCENARIO_SCHEMA['definitions'] as Record<string, Json>)[ref.split('/').pop() as string];
    const props = node?.['properties'] as Record<string, Json> | undefined;
    // Latency distributions keep their keys in one branch per dist.
    const branches = ((node?.['allOf'] as Json[] | undefined) ?? []).map((b) => (b['then'] as Json)['properties'] as Record<string, Json>);
    // Own keys only: `constructor` must not find Object's.
    const own = (p: Record<string, Json> | undefined) => (p && Object.hasOwn(p, key) ? p[key] : undefined);
    node = own(props) ?? branches.map(own).find((n) => n !== undefined);
  }
  return typeof node?.['description'] === 'string' && node['description'].startsWith('a duration');
}

export const SCENARIO_SCHEMA: Json = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'urn:idem-sim:scenario:1',
  title: 'idem-sim scenario',
  description: 'a scenario mapping (keys as in docs/model.md; a missing key takes its default)',
  type: 'object',
  additionalProperties: false,
  definitions: {
    latency: latencySchema(false),
    component: latencySchema(true),
  },
  properties: {
    ...META_KEYS,
    actions: { ...count(D.actions, 'primary actions to simulate, at most 10^13; twins come on top', 1), maximum: MAX_ACTIONS },
    load: section('arrival process', {
      rate_per_s: {
        type: 'number', minimum: MIN_RATE_PER_S, maximum: MAX_RATE_PER_S, default: D.load.rate_per_s,
        description: 'a number from 0.00001 (one action per 27.8 hours) to 10^9 (primary actions per second)',
      },
    }),
    workload: section('twins: distinct requests with the same business identity', {
      twin_probability: probability(D.workload.twin_probability, 'chance an action has a twin'),
      twin_delay: delayRange(D.workload.twin_delay, 'delay of a twin after its sibling'),
    }),
    service: section('the tool server', {
      latency: { $ref: '#/definitions/latency' },
      error_rate: probability(D.service.error_rate, 'chance an execution fails with a 5xx before any side effect'),
      crash_probability: probability(D.service.crash_probability, 'chance the handler dies mid-request'),
      crash_after_effect: probability(D.service.crash_after_effect, 'chance a crash comes after the side effect'),
      fast_reply: durationSchema('time to answer 409, 422 or a stored result', D.service.fast_reply),
    }),
    network: section('the network between agent and tool', {
      request_loss: probability(D.network.request_loss, 'chance a request never arrives'),
      reply_loss: probability(D.network.reply_loss, 'chance a reply is lost'),
    }),
    client: section('the HTTP client or tool wrapper', {
      preset: choice(Object.keys(CLIENT_PRESETS), undefined, 'retry policy of a real client; keys written here win'),
      timeout: durationSchema('client timeout per attempt, > 0', D.client.timeout),
      retries: { ...count(D.client.retries, 'retries after the first attempt, at most 1000'), maximum: 1000 },
      deadline: optionalDuration('no attempt starts this long after the call began'),
      backoff: section('the wait before retry j: min(max, base * multiplier^(j-1)) with jitter', {
        base: durationSchema('first backoff', D.client.backoff.base),
        multiplier: { type: 'number', minimum: 1, maximum: MAX_MULTIPLIER, default: D.client.backoff.multiplier, description: `a number from 1 to ${MAX_MULTIPLIER} (growth per retry)` },
        max: durationSchema('cap on one backoff', D.client.backoff.max),
        jitter: choice(JITTERS, D.client.backoff.jitter, 'full U(0,d), equal d/2+U(0,d/2), none d'),
      }),
    }),
    agent: section('the model deciding what to do after a failed call', {
      replan_probability: probability(D.agent.replan_probability, 'chance the model re-issues a failed call'),
      max_replans: { ...count(D.agent.max_replans, 're-plans per step at most, up to 1000'), maximum: 1000 },
      replan_delay: delayRange(D.agent.replan_delay, 'delay before a re-plan'),
      arg_drift_probability: probability(D.agent.arg_drift_probability, 'chance a re-plan or replay rewrites its free text'),
      verify_before_replan: flag(D.agent.verify_before_replan, 'read before re-planning and skip if the action ran'),
    }),
    runtime: section('the durable agent runtime', {
      crash_probability: probability(D.runtime.crash_probability, 'chance the worker dies before the checkpoint when a step ends'),
      resume_delay: delayRange(D.runtime.resume_delay, 'delay before a crashed run resumes'),
      max_replays: { ...count(D.runtime.max_replays, 'replays per action at most, up to 1000'), maximum: 1000 },
    }),
    idempotency: section('the server-side key store', {
      scope: choice(SCOPES, D.idempotency.scope, 'what the key identifies'),
      claim: choice(CLAIMS, D.idempotency.claim, 'how a new key is claimed'),
      fingerprint: choice(FINGERPRINTS, D.idempotency.fingerprint, 'what the payload fingerprint covers'),
      retention: durationSchema('how long a completed key is remembered', D.idempotency.retention),
      lease: optionalDuration('after this long a running claim may be taken over'),
      transactional: flag(D.idempotency.transactional, 'effect and key commit in one transaction'),
      on_error: choice(ON_ERRORS, D.idempotency.on_error, 'what a 5xx does to the key'),
      conflict_retry_after: optionalDuration('a 409 makes the client wait at least this long'),
      record_bytes: { ...count(D.idempotency.record_bytes, 'bytes one key record takes, at most 16 MiB = 16777216', 1), maximum: MAX_RECORD_BYTES },
    }),
  },
};
