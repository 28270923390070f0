/**
 * What `reconcile` reads from effects (docs/reconcile.md), per tool and overall: the effects,
 * the business keys, the duplicates (an effect of a business key within the window of that
 * key's first effect, after it), each duplicate's diagnosis from what the rows hold and its gap
 * from the first effect binned as the guide's sources arrive. Evidence, not certainty: the rows
 * say which key each effect carried and when, not why it ran.
 */
import type { AgainstModel } from './against.js';
import { metricShort } from '../results/metric-registry.js';
import type { ColumnMap, ColumnNames } from './columns.js';

/** The window of `reconcile --window` when none is given (the guide's "within an hour"). */
export const DEFAULT_WINDOW_MS = 3_600_000;
/** The step over time (`--step`) when none is given. */
export const DEFAULT_STEP_MS = 3_600_000;

/** What the readings are asked. */
export interface ReconcileOptions {
  /** The columns the options name; the others are found by their usual names. */
  readonly columns?: ColumnNames | undefined;
  /** An effect within this of its key's window's first effect (inclusive) is a duplicate. */
  readonly windowMs?: number | undefined;
  /** The key store's retention: a duplicate carrying the first effect's key past it is `same_key_after_expiry`. */
  readonly retentionMs?: number | undefined;
  /** The buckets over time. */
  readonly stepMs?: number | undefined;
  /** Show the most duplicated business keys as they are (else a hash). */
  readonly showKeys?: boolean | undefined;
  /** Sort the rows by time in memory (at most MAX_SORTED_ROWS) instead of requiring them in order. */
  readonly sort?: boolean | undefined;
}

/** What a duplicate's rows say of its cause, against its window's first effect. */
export type Diagnosis = 'same_key_after_expiry' | 'same_key' | 'key_per_call_or_attempt' | 'no_key';
export const DIAGNOSES: readonly Diagnosis[] = ['same_key_after_expiry', 'same_key', 'key_per_call_or_attempt', 'no_key'];

/** Each diagnosis in words, and what it is evidence of. */
export const DIAGNOSIS_WORDS: Readonly<Record<Diagnosis, { label: string; evidence: string }>> = {
  same_key_after_expiry: { label: 'same key, after the retention', evidence: 'the key store had let the key expire: a replay or a resume later than --retention' },
  same_key: { label: 'same key, within the retention', evidence: 'the store saw the key and the effect ran again: a claim that is not atomic, a lease that ran out, a store that was down' },
  key_per_call_or_attempt: { label: 'different keys', evidence: 'the key identifies the call or the attempt, not the intent: a re-plan or a replay minted a new one' },
  no_key: { label: 'no key on one of them', evidence: 'nothing could deduplicate it' },
};

/** The gap of a duplicate from its window's first effect, binned as the sources of the guide arrive. */
export interface GapBin {
  readonly id: string;
  readonly fromMs: number;
  /** null: no upper bound (the window's). */
  readonly toMs: number | null;
  readonly label: string;
  readonly evidence: string;
}

/** The bins: the first three are the sources the model counts duplicates by (their words are the registry's). */
export const GAP_BINS: readonly GapBin[] = [
  { id: 'under_30s', fromMs: 0, toMs: 30_000, label: '< 30 s', evidence: metricShort('duplicates_per_1000.transport') },
  { id: '30s_to_2m', fromMs: 30_000, toMs: 120_000, label: '30 s – 2 min', evidence: metricShort('duplicates_per_1000.replan') },
  { id: '2m_to_20m', fromMs: 120_000, toMs: 1_200_000, label: '2 – 20 min', evidence: metricShort('duplicates_per_1000.replay') },
  { id: 'over_20m', fromMs: 1_200_000, toMs: null, label: '≥ 20 min', evidence: 'later: a replay after a long resume, a person' },
];

/** The bin of a gap: the first whose upper bound is above it. */
export function gapBin(gapMs: number): number {
  const i = GAP_BINS.findIndex((b) => b.toMs === null || gapMs < b.toMs);
  return i < 0 ? GAP_BINS.length - 1 : i;
}

/** A duplicate's diagnosis against its window's first effect. */
export function diagnose(firstKey: string | null, key: string | null, gapMs: number, retentionMs: number | undefined): Diagnosis {
  if (firstKey === null || key === null) return 'no_key';
  if (firstKey !== key) return 'key_per_call_or_attempt';
  return retentionMs !== undefined && gapMs > retentionMs ? 'same_key_after_expiry' : 'same_key';
}

/** One bucket over time: its effects and duplicates, by diagnosis. */
export interface Bucket {
  readonly startMs: number;
  readonly effects: number;
  readonly duplicates: number;
  readonly diagnosis: Readonly<Record<Diagnosis, number>>;
}

/** A business key among the most duplicated: its name, or the hash that stands for it. */
export interface TopKey {
  readonly key: string;
  readonly tool: string;
  readonly duplicates: number;
}

/** The readings of one tool, or of all of them together (`name` null). */
export interface Readings {
  readonly name: string | null;
  readonly effects: number;
  /** Business keys, each counted again when it comes back after its window (a later, separate intent): effects less duplicates. */
  readonly businessKeys: number;
  readonly duplicates: number;
  /** Duplicates per 1000 effects and its 95% interval (Poisson on the count); null with no effect. */
  readonly per1000: { readonly value: number; readonly low: number; readonly high: number } | null;
  /** Over the span first..last effect; null when it is 0. */
  readonly effectsPerDay: number | null;
  readonly duplicatesPerDay: number | null;
  readonly firstMs: number | null;
  readonly lastMs: number | null;
  readonly diagnosis: Readonly<Record<Diagnosis, number>>;
  /** Duplicates by GAP_BINS. */
  readonly gaps: readonly number[];
  readonly topKeys: readonly TopKey[];
  readonly series: readonly Bucket[];
}

/** What `reconcile` found. */
export interface Reconciliation {
  /** Where the rows came from (RawRows.where). */
  readonly where: string;
  readonly rows: number;
  readonly columns: ColumnMap;
  readonly windowMs: number;
  readonly retentionMs: number | null;
  readonly stepMs: number;
  /** Whether the rows were sorted in memory (--sort). */
  readonly sorted: boolean;
  /** Whether the top keys are shown as they are (--show-keys); else each is the first 12 hex of its SHA-256. */
  readonly keysShown: boolean;
  /** Whether the top keys are exact: false when more than MAX_COUNTED_KEYS keys had duplicates (their counts are then lower bounds). */
  readonly topKeysExact: boolean;
  readonly overall: Readings;
  /** Each tool's, in the order first seen. */
  readonly tools: readonly Readings[];
  /** With --scenario: the observed duplicates against the model's (against.ts). */
  readonly against?: AgainstModel;
}
