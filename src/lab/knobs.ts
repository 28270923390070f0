/**
 * The lab's knobs: the scenario keys a lab user changes, as an explicit list of key paths
 * grouped by the scenario file's sections. Each knob's kind, range, choices and meaning are
 * read from the scenario's shape (`paramAt`), so the page offers what the file accepts, and
 * keys the shape gains later leave the list as it is.
 */
import { paramAt } from '../model/shape.js';
import type { Param } from '../model/params.js';
import { DURATION_PATTERN, formatDuration, parseDuration } from '../scenario/duration.js';
import { parseKeyPath } from '../scenario/overrides.js';
import { duration } from '../report/format.js';
import type { WrittenScenario } from '../model/types.js';
import { INCIDENT, INCIDENT_KEYS, incidentOffer } from './time-knobs.js';

/**
 * A knob's control: a text field (numbers and durations as written), a list of choices, or a
 * checkbox; `switch` is the checkbox of a section that may be left out (`service.capacity`) or
 * of a list's first item (`incidents[0]`), whose knobs show only while it is on.
 */
export type KnobKind = 'probability' | 'count' | 'count_or_unbounded' | 'number' | 'duration' | 'optional_duration' | 'choice' | 'flag' | 'switch' | 'seed';

export interface KnobSpec {
  /** The scenario key path (`client.timeout`); `seed` and `actions` are the run's. */
  key: string;
  /** The label: the key's last part, as the file writes it. */
  label: string;
  kind: KnobKind;
  /** What the key means, from the shape (`client timeout per attempt, > 0`). */
  meaning: string;
  /** Choices of a `choice`. */
  values?: readonly string[];
  /** Bounds of a number, as the shape gives them. */
  min?: number;
  max?: number;
  /** What a blank text means, for a key that may be left out (an incident's `latency_multiplier`: as outside the window). */
  blank?: string;
}

export interface KnobGroup {
  /** The file's section (`idempotency`), or `run` for actions and seed. */
  name: string;
  /** What the section is, in words. */
  title: string;
  keys: readonly string[];
}

/** The latency keys, of which one pair is shown: median and sigma, or two percentiles. */
export const LATENCY_KEYS = {
  median: ['service.latency.median', 'service.latency.sigma'],
  percentiles: ['service.latency.p50', 'service.latency.p99'],
} as const;

/** The knobs, by section, in the order a lab session uses them (the key scope first). */
export const KNOB_GROUPS: readonly KnobGroup[] = [
  { name: 'idempotency', title: 'the server-side key store', keys: ['scope', 'claim', 'fingerprint', 'retention', 'lease', 'transactional', 'on_error', 'conflict_retry_after'].map((k) => `idempotency.${k}`) },
  {
    name: 'client', title: 'the HTTP client or tool wrapper',
    keys: [
      'timeout', 'retries', 'backoff.base', 'backoff.multiplier', 'backoff.max', 'backoff.jitter', 'deadline',
      'retry_budget', 'retry_budget.tokens', 'breaker', 'breaker.failure_rate', 'breaker.window', 'breaker.min_calls', 'breaker.open_for',
      'retry_throttle', 'retry_throttle.max_tokens', 'retry_throttle.token_ratio',
    ].map((k) => `client.${k}`),
  },
  {
    name: 'service', title: 'the tool server',
    keys: [
      ...LATENCY_KEYS.median, ...LATENCY_KEYS.percentiles, 'service.error_rate', 'service.crash_probability',
      ...['', '.workers', '.queue', '.order', '.drop_expired', '.retry_after'].map((k) => `service.capacity${k}`),
    ],
  },
  {
    name: 'incidents', title: 'a window of the run in which the service pauses, loses workers or slows down',
    keys: [INCIDENT, INCIDENT_KEYS.from, INCIDENT_KEYS.to, INCIDENT_KEYS.workers, INCIDENT_KEYS.multiplier],
  },
  {
    name: 'trigger', title: 'the webhook or message that starts the step, delivered again until acknowledged in time',
    keys: ['', '.ack_timeout', '.ack', '.redeliveries', '.run_id', '.dedupe', '.extend_up_to', '.ack_loss', '.consumer_crash'].map((k) => `trigger${k}`),
  },
  { name: 'network', title: 'the network between agent and tool', keys: ['network.request_loss', 'network.reply_loss'] },
  { name: 'agent', title: 'the model deciding what to do after a failed call', keys: ['agent.replan_probability', 'agent.verify_before_replan'] },
  { name: 'runtime', title: 'the durable agent runtime', keys: ['runtime.crash_probability', 'runtime.max_replays', 'runtime.resume_delay.min', 'runtime.resume_delay.max'] },
  { name: 'workload', title: 'twins: distinct requests with the same business identity', keys: ['workload.twin_probability'] },
  { name: 'load', title: 'the arrivals', keys: ['load.rate_per_s', 'load.duration'] },
  { name: 'run', title: 'the run: --actions and --seed', keys: ['actions', 'seed'] },
];

/** Every knob's key path, in page order. */
export const KNOB_KEYS: readonly string[] = KNOB_GROUPS.flatMap((g) => g.keys);

/** The switch (a section that may be left out, a list's first item) whose knobs include `key`, if any: `service.capacity` for `service.capacity.workers`. */
export function switchOf(key: string): string | undefined {
  return KNOB_KEYS.find((k) => key.startsWith(`${k}.`) && knobSpec(k)?.kind === 'switch');
}

/** The knobs of the section a switch turns on, in page order. */
export function switchedKeys(key: string): string[] {
  return KNOB_KEYS.filter((k) => switchOf(k) === key);
}

const SEED_KNOB: KnobSpec = { key: 'seed', label: 'seed', kind: 'seed', meaning: 'random seed: the same scenario and seed give the same numbers' };

/** The knob of `key`, described by the shape; undefined for a key the shape does not have. */
export function knobSpec(key: string): KnobSpec | undefined {
  if (key === 'seed') return SEED_KNOB;
  const param = paramAt(key);
  return param && specOf(key, param);
}

/** What a blank incident key means. */
const AS_OUTSIDE = 'blank: as outside the window';

function specOf(key: string, p: Param): KnobSpec | undefined {
  const label = key.includes('.') ? key.slice(key.indexOf('.') + 1) : key;
  switch (p.kind) {
    case 'override': { const spec = specOf(key, p.of); return spec && { ...spec, blank: AS_OUTSIDE }; }
    // A list's first item, switched on and off (`incidents[0]`).
    case 'list': return key.endsWith('[0]') ? { key, label: key, kind: 'switch', meaning: `the first of the ${p.meaning}` } : undefined;
    case 'probability': return { key, label, kind: 'probability', meaning: p.meaning, min: 0, max: 1 };
    case 'count': return { key, label, kind: 'count', meaning: p.meaning, min: p.min, ...(p.max === undefined ? {} : { max: p.max }) };
    case 'count_or_unbounded': return { key, label, kind: 'count_or_unbounded', meaning: p.meaning, min: p.min, max: p.max };
    case 'number': return { key, label, kind: 'number', meaning: p.description, min: p.min, max: p.max };
    case 'duration': return { key, label, kind: 'duration', meaning: p.meaning };
    case 'optional_duration': return { key, label, kind: 'optional_duration', meaning: p.meaning };
    case 'choice': return { key, label, kind: 'choice', meaning: p.meaning, values: p.values };
    case 'flag': return { key, label, kind: 'flag', meaning: p.meaning };
    case 'optional': return { key, label, kind: 'switch', meaning: p.meaning };
    default: return undefined;
  }
}

/** A knob's value as a person writes it in a file or a --set: durations with their unit, `none` for no duration, `unbounded` for no limit; a switch's `true` when its section is there. */
export function knobText(kind: KnobKind, value: unknown): string {
  if (kind === 'switch') return String(value !== null && value !== undefined);
  if (value === undefined) return '';
  if (kind === 'duration' || kind === 'optional_duration') return value === null ? 'none' : formatDuration(value as number);
  if (kind === 'count_or_unbounded' && value === null) return 'unbounded';
  // A key an incident leaves out (null: as outside the window).
  return value === null ? '' : String(value);
}

/**
 * What a switched-off section's knob shows, ready for when it is switched on: the key's default
 * (the text a file would resolve to). `service.capacity.workers` has none (a file must write it):
 * the count that keeps the workers about 80% busy at the scenario's load, for a lognormal latency
 * (mean = median · e^(σ²/2)), which makes a storm a pause away; '' for another latency form.
 * An incident's keys have no default either: the window `incidentOffer` gives (time-knobs.ts).
 */
export function switchedOffText(key: string, written: WrittenScenario): string {
  const param = paramAt(key);
  const spec = knobSpec(key);
  if (!param || !spec) return '';
  if (switchOf(key) === INCIDENT) return incidentOffer(written)[key] ?? '';
  if ('default' in param && param.default !== undefined) return knobText(spec.kind, param.default);
  if (param.kind === 'optional_duration') return 'none';
  const latency = written.service.latency;
  if (key !== 'service.capacity.workers' || latency.dist !== 'lognormal') return '';
  const busy = (written.load.rate_per_s * latency.median * Math.exp(latency.sigma ** 2 / 2)) / 1000;
  return String(Math.max(1, Math.ceil(busy / 0.8)));
}

/** The value at a key path (`a.b`, `incidents[0].from`) of a plain object. */
export function valueAtKey(root: unknown, key: string): unknown {
  let node = root;
  for (const part of parseKeyPath(key) ?? [key]) node = typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[part] : undefined;
  return node;
}

const DURATION = new RegExp(DURATION_PATTERN);

/** What `none` means for an optional duration, where it is not "no limit" (client.deadline's). */
const NONE_WORDS: Readonly<Record<string, string>> = { 'service.capacity.retry_after': 'no Retry-After' };

/** A knob's value in its unit, for the output beside it ('' when the text says nothing more). */
export function unitText(kind: KnobKind, text: string, key = ''): string {
  const t = text.trim();
  if (t === '' && key !== '' && knobSpec(key)?.blank !== undefined) return 'as outside the window';
  if ((kind === 'duration' || kind === 'optional_duration') && DURATION.test(t)) return `= ${duration(parseDuration(t))}`;
  if (kind === 'optional_duration' && t === 'none') return NONE_WORDS[key] ?? 'no limit';
  if (kind === 'count_or_unbounded' && t === 'unbounded') return 'no limit';
  if (kind === 'probability' && t !== '' && Number.isFinite(Number(t))) return `= ${+(Number(t) * 100).toPrecision(4)}%`;
  return '';
}

/** The latency choice for a form no knob shows (`written`: its `dist`, such as mixture; '' for none). */
export function writtenLatencyText(written: string): string {
  return written === '' ? 'as the file writes it' : `as the file writes it: ${written}`;
}
