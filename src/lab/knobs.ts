/**
 * The lab's knobs: the scenario keys a lab user changes, as an explicit list of key paths
 * grouped by the scenario file's sections. Each knob's kind, range, choices and meaning are
 * read from the scenario's shape (`paramAt`), so the page offers what the file accepts, and
 * keys the shape gains later leave the list as it is.
 */
import { paramAt } from '../model/shape.js';
import type { Param } from '../model/params.js';
import { DURATION_PATTERN, formatDuration, parseDuration } from '../scenario/duration.js';
import { duration } from '../report/format.js';

/** A knob's control: a text field (numbers and durations as written), a list of choices, or a checkbox. */
export type KnobKind = 'probability' | 'count' | 'number' | 'duration' | 'optional_duration' | 'choice' | 'flag' | 'seed';

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
  { name: 'client', title: 'the HTTP client or tool wrapper', keys: ['timeout', 'retries', 'backoff.base', 'backoff.multiplier', 'backoff.max', 'backoff.jitter', 'deadline'].map((k) => `client.${k}`) },
  { name: 'service', title: 'the tool server', keys: [...LATENCY_KEYS.median, ...LATENCY_KEYS.percentiles, 'service.error_rate', 'service.crash_probability'] },
  { name: 'network', title: 'the network between agent and tool', keys: ['network.request_loss', 'network.reply_loss'] },
  { name: 'agent', title: 'the model deciding what to do after a failed call', keys: ['agent.replan_probability', 'agent.verify_before_replan'] },
  { name: 'runtime', title: 'the durable agent runtime', keys: ['runtime.crash_probability', 'runtime.max_replays', 'runtime.resume_delay.min', 'runtime.resume_delay.max'] },
  { name: 'workload', title: 'twins: distinct requests with the same business identity', keys: ['workload.twin_probability'] },
  { name: 'run', title: 'the run: --actions and --seed', keys: ['actions', 'seed'] },
];

/** Every knob's key path, in page order. */
export const KNOB_KEYS: readonly string[] = KNOB_GROUPS.flatMap((g) => g.keys);

const SEED_KNOB: KnobSpec = { key: 'seed', label: 'seed', kind: 'seed', meaning: 'random seed: the same scenario and seed give the same numbers' };

/** The knob of `key`, described by the shape; undefined for a key the shape does not have. */
export function knobSpec(key: string): KnobSpec | undefined {
  if (key === 'seed') return SEED_KNOB;
  const param = paramAt(key);
  return param && specOf(key, param);
}

function specOf(key: string, p: Param): KnobSpec | undefined {
  const label = key.includes('.') ? key.slice(key.indexOf('.') + 1) : key;
  switch (p.kind) {
    case 'probability': return { key, label, kind: 'probability', meaning: p.meaning, min: 0, max: 1 };
    case 'count': return { key, label, kind: 'count', meaning: p.meaning, min: p.min, ...(p.max === undefined ? {} : { max: p.max }) };
    case 'number': return { key, label, kind: 'number', meaning: p.description, min: p.min, max: p.max };
    case 'duration': return { key, label, kind: 'duration', meaning: p.meaning };
    case 'optional_duration': return { key, label, kind: 'optional_duration', meaning: p.meaning };
    case 'choice': return { key, label, kind: 'choice', meaning: p.meaning, values: p.values };
    case 'flag': return { key, label, kind: 'flag', meaning: p.meaning };
    default: return undefined;
  }
}

/** A knob's value as a person writes it in a file or a --set: durations with their unit, `none` for no duration. */
export function knobText(kind: KnobKind, value: unknown): string {
  if (value === undefined) return '';
  if (kind === 'duration' || kind === 'optional_duration') return value === null ? 'none' : formatDuration(value as number);
  return String(value);
}

/** The value at a dotted key path of a plain object. */
export function valueAtKey(root: unknown, key: string): unknown {
  let node = root;
  for (const part of key.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  return node;
}

const DURATION = new RegExp(DURATION_PATTERN);

/** A knob's value in its unit, for the output beside it ('' when the text says nothing more). */
export function unitText(kind: KnobKind, text: string): string {
  const t = text.trim();
  if ((kind === 'duration' || kind === 'optional_duration') && DURATION.test(t)) return `= ${duration(parseDuration(t))}`;
  if (kind === 'optional_duration' && t === 'none') return 'no limit';
  if (kind === 'probability' && t !== '' && Number.isFinite(Number(t))) return `= ${+(Number(t) * 100).toPrecision(4)}%`;
  return '';
}

/** The latency choice for a form no knob shows (`written`: its `dist`, such as mixture; '' for none). */
export function writtenLatencyText(written: string): string {
  return written === '' ? 'as the file writes it' : `as the file writes it: ${written}`;
}
