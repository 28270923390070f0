/**
 * The JSON Schema of scenario files (draft-07), made from `model/shape.ts` (the model's keys) and
 * `model/latency.ts` (the latency forms), plus the keys that are not the model's (`expect:`,
 * `sweep:`, presets). The loader validates against it, `idem-sim schema` prints it, and each
 * leaf's `description` is the "expected ..." phrase of error messages.
 */
import { assertNever, CONFIDENCES } from '../model/enums.js';
import { DEFAULT_DISTRIBUTION, DISTRIBUTIONS, LATENCY_FORMS, type Distribution } from '../model/latency.js';
import { MAX_DURATION_MS, MAX_WEIGHT } from '../model/limits.js';
import { ALERT_PATH_PATTERN } from '../results/alert-paths.js';
import { BACKLOG_PATH_PATTERN, RECOVERED_PATH_PATTERN } from '../results/saturation.js';
import { ALL_METRIC_PATHS, SWEEP_METRIC_PATHS } from '../results/metric-paths.js';
import { rangeEnds, required, requiredKeys, type Durations, type Optional, type Param, type Params } from '../model/params.js';
import { paramAt, SCENARIO_SHAPE } from '../model/shape.js';
import { DURATION_PATTERN, formatDuration } from './duration.js';
import { CLIENT_PRESETS, SERVER_PRESETS, TRIGGER_PRESETS } from './presets.js';
import { SEED_FORM, SEED_PATTERN } from './printable.js';

/** A threshold on a metric: an operator and a number (a duration for latencies). */
export const THRESHOLD_PATTERN = '^\\s*(<=|>=|==|!=|<|>)\\s*[-+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?\\s*(ms|s|m|h|d)?\\s*$';

type Json = Record<string, unknown>;

/** Non-empty string (a pattern rather than minLength, so the compiled validator needs no runtime helper). */
const NON_EMPTY = '\\S';

/** Durations: from 0 to MAX_DURATION_MS; the loader checks strings (`1e400ms` has no pattern) against the cap. */
const MAX_DURATION = formatDuration(MAX_DURATION_MS);
/** A number is a duration only when it is 0: every other needs its unit (a string). */
const durationNumber: Json = { const: 0 };
const durationSchema = (meaning: string, def?: number, positive?: true): Json => ({
  anyOf: [
    durationNumber,
    { type: 'string', pattern: DURATION_PATTERN },
  ],
  ...(def === undefined ? {} : { default: formatDuration(def) }),
  // A positive one's 0 is refused after the schema, with its reason (trigger.ack_timeout: scenario/trigger-checks.ts).
  description: positive
    ? `a duration above 0 with its unit, at most ${MAX_DURATION} (10 years), such as 250ms, 2s, 5m, 1h or 7d (${meaning})`
    : `a duration >= 0 with its unit, at most ${MAX_DURATION} (10 years), such as 250ms, 2s, 5m, 1h or 7d, or 0 (${meaning})`,
});
/** A list of durations (a schedule), each as a duration is written. */
const durationsSchema = (p: Durations): Json => ({
  type: 'array', minItems: p.min, maxItems: p.max, items: { anyOf: [durationNumber, { type: 'string', pattern: DURATION_PATTERN }] },
  default: p.default.map(formatDuration),
  description: `a list of ${p.min} to ${p.max} durations >= 0, each with its unit, such as [0s, 1m, 5m] (${p.meaning})`,
});
const optionalDuration = (meaning: string): Json => ({
  anyOf: [
    durationNumber,
    { type: 'string', pattern: DURATION_PATTERN },
    { const: 'none' },
    { type: 'null' },
  ],
  default: 'none',
  description: `a duration >= 0 with its unit, at most ${MAX_DURATION} (10 years), such as 500ms or 90s, or 0, or none (${meaning})`,
});
const choice = <T extends string>(values: readonly T[], def: NoInfer<T> | undefined, meaning: string): Json => ({
  type: 'string', enum: values, ...(def === undefined ? {} : { default: def }),
  description: `one of ${values.join(', ')} (${meaning})`,
});
const mapping = (description: string, properties: Json): Json => ({ type: 'object', additionalProperties: false, description, properties });

/** How an optional section may be written: `none`, a preset's name, or a mapping of its keys (`extra`: the schema's own first, as `trigger.preset`). */
export function optionalForms(p: Optional, extra: readonly string[] = []): string {
  const presets = Object.keys(p.presets);
  return `none, ${presets.length > 0 ? `${presets.join(', ')} (a preset), ` : ''}or a mapping {${[...extra, ...Object.keys(p.params)].join(', ')}}`;
}
/** What a mapping of an optional section must write: its keys without a default, or a preset (`extra.preset`) that fills them. */
function requiredOf(p: Optional, extra: Json): Json {
  const keys = requiredKeys(p.params);
  // Each branch names its keys in `properties` too (ajv's strictRequired); the mapping's own properties say what they take.
  const either = (names: readonly string[]): Json => ({ properties: Object.fromEntries(names.map((k) => [k, {}])), required: names });
  return keys.length > 0 && Object.hasOwn(extra, 'preset') ? { anyOf: [either(keys), either(['preset'])] } : { required: keys };
}
const optionalSchema = (p: Optional, extra: Json = {}): Json => ({
  anyOf: [
    { const: 'none' },
    { type: 'null' },
    ...Object.keys(p.presets).map((name) => ({ const: name })),
    { ...mapping(`a mapping (${p.meaning})`, { ...extra, ...paramsSchema(p.params) }), ...requiredOf(p, extra) },
  ],
  default: 'none',
  description: `${optionalForms(p, Object.keys(extra))} (${p.meaning})`,
});

/** The schema of one parameter of `model/shape.ts`; `extra` keys (not the model's) come first in a section. */
function paramSchema(p: Param, extra: Json = {}): Json {
  switch (p.kind) {
    case 'probability': return { type: 'number', minimum: 0, maximum: 1, default: p.default, description: `a probability between 0 and 1 (${p.meaning})` };
    case 'count': return {
      type: 'integer', minimum: p.min, ...(p.default === undefined ? {} : { default: p.default }), description: `a whole number >= ${p.min} (${p.meaning})`,
      ...(p.max === undefined ? {} : { maximum: p.max }),
    };
    case 'count_or_unbounded': return {
      anyOf: [{ type: 'integer', minimum: p.min, maximum: p.max }, { const: 'unbounded' }],
      default: p.default ?? 'unbounded',
      description: `a whole number >= ${p.min}, or unbounded (${p.meaning})`,
    };
    case 'number': return { type: 'number', minimum: p.min, maximum: p.max, ...(p.default === undefined ? {} : { default: p.default }), description: p.description };
    case 'flag': return { type: 'boolean', default: p.default, description: `true or false (${p.meaning})` };
    case 'choice': return choice(p.values, p.default, p.meaning);
    case 'duration': return durationSchema(p.meaning, p.default, p.positive);
    case 'optional_duration': return optionalDuration(p.meaning);
    case 'durations': return durationsSchema(p);
    case 'range': {
      const ends = rangeEnds(p);
      return mapping(`a range {min, max} of durations (${p.meaning})`, { min: paramSchema(ends.min), max: paramSchema(ends.max) });
    }
    case 'text': return { type: 'string', pattern: p.pattern ?? NON_EMPTY, description: p.description };
    case 'latency': return { $ref: '#/definitions/latency' };
    case 'components': return { type: 'array', minItems: 1, items: { $ref: '#/definitions/component' }, description: p.description };
    case 'section': return mapping(`a mapping (${p.meaning})`, { ...extra, ...paramsSchema(p.params) });
    case 'optional': return optionalSchema(p, extra);
    case 'list': return {
      anyOf: [
        { const: 'none' },
        { type: 'null' },
        { type: 'array', maxItems: p.max, items: { ...mapping(`a mapping (${p.of.meaning})`, paramsSchema(p.of.params)), required: Object.keys(p.of.params).filter((k) => required(p.of.params[k] as Param)) } },
      ],
      default: 'none',
      description: `a list of at most ${p.max} mappings, or none (${p.meaning})`,
    };
    case 'override': {
      const { default: _ignored, ...schema } = paramSchema(p.of);
      return schema;
    }
    default: return assertNever(p);
  }
}

const paramsSchema = (params: Params): Json => Object.fromEntries(Object.entries(params).map(([k, p]) => [k, paramSchema(p)]));

/** One branch per `dist`, from its form's keys; `weight` is allowed (and required) inside mixtures only. */
function latencySchema(inMixture: boolean): Json {
  const weight: Json = inMixture
    ? { weight: { type: 'number', minimum: 0, maximum: MAX_WEIGHT, description: 'a relative weight from 0 to 10^9 (share of this component)' } }
    : {};
  const branch = (dist: Distribution): Json => ({
    if: dist === DEFAULT_DISTRIBUTION
      ? { properties: { dist: { const: dist } } }
      : { properties: { dist: { const: dist } }, required: ['dist'] },
    then: {
      properties: { dist: {}, ...weight, ...paramsSchema(LATENCY_FORMS[dist].keys), ...paramsSchema(LATENCY_FORMS[dist].fit?.keys ?? {}) },
      required: inMixture ? ['weight', ...LATENCY_FORMS[dist].required] : [...LATENCY_FORMS[dist].required],
      additionalProperties: false,
    },
  });
  return {
    type: 'object',
    description: `a latency distribution: {${Object.keys(LATENCY_FORMS[DEFAULT_DISTRIBUTION].keys).join(', ')}} for ${DEFAULT_DISTRIBUTION}, or {dist: ${DISTRIBUTIONS.filter((d) => d !== DEFAULT_DISTRIBUTION).join('|')}, ...}`,
    properties: { dist: choice(DISTRIBUTIONS, DEFAULT_DISTRIBUTION, 'the latency distribution') },
    allOf: DISTRIBUTIONS.map(branch),
  };
}

const confidence: Json = choice(CONFIDENCES, 'none', 'ci95: pass only if the whole 95% interval passes');
const threshold: Json = {
  type: 'string', pattern: THRESHOLD_PATTERN,
  description: 'a threshold such as "<= 0.5", "== 0" or "< 3s": one of < <= == != >= > and a number (a duration for latencies)',
};

/** Whether a key path (`client.timeout`, `service.latency.components[0].median`) holds a duration. */
export function isDurationKey(path: string): boolean {
  const kind = paramAt(path)?.kind;
  return kind === 'duration' || kind === 'optional_duration' || kind === 'durations';
}

/** Keys of a model section that are not the model's: a client preset fills the client's keys, a trigger preset the trigger's. */
const SECTION_EXTRAS: Readonly<Record<string, Json>> = {
  client: { preset: choice(Object.keys(CLIENT_PRESETS), undefined, 'retry policy of a real client; keys written here win') },
  trigger: { preset: choice(Object.keys(TRIGGER_PRESETS), undefined, 'a sender\'s documented deadline and redeliveries (docs/triggers.md); keys written here win') },
};

/**
 * The scenario's JSON schema (`idem-sim schema`, the generated validator, the key docs, a misplaced
 * key's suggestion), built when first asked for: a run that reads no file never builds it (issue 22,
 * start-up).
 */
export const scenarioSchema = (): Json => (built ??= buildSchema());
let built: Json | undefined;

/** `expect:` — what `idem-sim check` requires of the scenario's metrics. */
const expectSchema = (): Json => ({
  type: 'object', additionalProperties: false,
  description: 'a mapping of metric to threshold (checked by idem-sim check)',
  patternProperties: {
    [ALERT_PATH_PATTERN]: {
      anyOf: [threshold, { type: 'object', additionalProperties: false, required: ['threshold'], properties: { threshold, confidence } }],
      description: 'a threshold on an alert: alerts.NAME.false_alarms, alerts.NAME.firings, or alerts.NAME.detection_delay_ms.INCIDENT such as "< 3m"',
    },
    [BACKLOG_PATH_PATTERN]: {
      anyOf: [threshold, { type: 'object', additionalProperties: false, required: ['threshold'], properties: { threshold, confidence } }],
      description: 'a threshold on the time from an incident\'s end until a worker is free again (the backlog cleared): backlog_cleared_ms.INCIDENT such as "<= 60s"',
    },
    [RECOVERED_PATH_PATTERN]: { type: 'boolean', description: 'true or false: whether the backlog of the incident cleared before the load ended (recovered.INCIDENT)' },
  },
  properties: {
    confidence,
    stable: { type: 'boolean', description: 'true or false: whether the run had no overload episode (saturation with no incident to blame)' },
    ...Object.fromEntries(ALL_METRIC_PATHS.map((path) => [path, {
      anyOf: [threshold, { type: 'object', additionalProperties: false, required: ['threshold'], properties: { threshold, confidence } }],
      description: `a threshold on ${path} such as "<= 0.5", or {threshold, confidence: ci95}`,
    }])),
  },
});


/** `sweep:` — what `idem-sim sweep` varies when the command line does not say. */
const sweepSchema = (): Json => ({
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
    metric: choice(SWEEP_METRIC_PATHS, 'duplicates_per_1000', 'the metric of the two-parameter heat map'),
  },
});


/** Keys a scenario file may hold besides the model's parameters. */
const metaKeys = (): Json => ({
  extends: { type: 'string', pattern: NON_EMPTY, description: 'a string (the scenario file this one starts from, relative to this file; keys written here win, mappings merging key by key)' },
  preset: choice(Object.keys(SERVER_PRESETS), undefined, 'server behaviour of a real system; keys written here win'),
  hint: { type: 'string', description: 'a string (a one-line hint, shown by idem-sim missions)' },
  expect: expectSchema(),
  sweep: sweepSchema(),
  $schema: { type: 'string', description: 'a string (the schema this file follows, for editors)' },
  description: { type: 'string', description: 'a string (what the scenario is about)' },
  // A number only where it is exact: 9007199254740993 would run as seed 9007199254740992, and 1e22 as 1e+22.
  seed: {
    anyOf: [{ type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }, { type: 'string', pattern: SEED_PATTERN }],
    description: `a whole number of at most 9007199254740991 either way (quote a longer one) or a string of ${SEED_FORM} (the random seed; --seed overrides it)`,
  },
});


function buildSchema(): Json {
  return {
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
      ...metaKeys(),
      ...Object.fromEntries(Object.entries(SCENARIO_SHAPE.params).map(([k, p]) => [k, paramSchema(p, SECTION_EXTRAS[k])])),
    },
  };
}
