/**
 * Series (docs/model.md, "Time"): with a step Δ, every event of a run counted in the bucket
 * [kΔ, (k+1)Δ) holding its time. The names are the model's; every count is an integer, so
 * series from chunks, threads and shards add up to the same numbers in any order.
 */
import { C, type CounterName } from './counters.js';

/** The counts only a coupled run counts (docs/model.md, "Capacity"), listed only for such runs (results/capacity.ts). */
export const CAPACITY_SERIES = ['shed', 'expired', 'budget_denied', 'breaker_rejected', 'started', 'succeeded', 'throttled'] as const;

/** The counts of a series, in the order JSON and CSV list them. */
/** The counts only a run with a trigger counts (docs/model.md, "Inbound delivery"), listed only for such runs. */
export const TRIGGER_SERIES = ['deliveries', 'dead_lettered'] as const;

export const SERIES_NAMES = [
  'arrivals', 'attempts', 'executions', 'duplicates', 'conflicts_409', 'mismatches_422',
  'dedup_hits', 'timeouts', 'unknown_outcomes', 'lost', 'store_unavailable',
  ...CAPACITY_SERIES, ...TRIGGER_SERIES,
] as const;
export type SeriesName = (typeof SERIES_NAMES)[number];

/** Each count's index in a bucket's row. */
export const SER = Object.fromEntries(SERIES_NAMES.map((n, i) => [n, i])) as { readonly [K in SeriesName]: number };
export const NUM_SERIES = SERIES_NAMES.length;

/** What each count counts, at which time (the JSON Schema and docs/csv.md read these). */
export const SERIES_MEANINGS: Readonly<Record<SeriesName, string>> = {
  arrivals: 'primary actions arriving (their arrival time)',
  attempts: 'attempts sent (their send time)',
  executions: 'side effects committed (their commit time)',
  duplicates: 'executions beyond each action\'s first (their commit time)',
  conflicts_409: '409 answers (the server\'s reply time)',
  mismatches_422: '422 answers (the server\'s reply time)',
  dedup_hits: 'stored results replayed (the server\'s reply time)',
  timeouts: 'attempts ending unknown (at the client\'s timer)',
  unknown_outcomes: 'unknown outcomes returned to the model (the call\'s return)',
  lost: 'actions never executed (their arrival time)',
  store_unavailable: '503s of a key store that is down (the server\'s reply time)',
  shed: 'requests refused with a 503 because the queue was full (their send time)',
  expired: 'requests dropped by drop_expired, their client\'s timeout past when a worker took them (that moment)',
  budget_denied: 'retries the retry budget did not allow (when the failed attempt\'s outcome was learned)',
  breaker_rejected: 'attempts the open circuit breaker did not send (when they would have been sent)',
  started: 'handlers started by a worker, fast replies included (their start)',
  succeeded: 'calls returning success to the model (their return)',
  throttled: 'retries gRPC\'s retry throttling did not allow (when the failed attempt\'s outcome was learned)',
  deliveries: 'deliveries of a trigger, the first of each action included (their delivery time)',
  dead_lettered: 'actions whose sender gave up delivering them (their last delivery\'s deadline)',
};

/** A run's series: `counts[b * NUM_SERIES + SER[name]]` for bucket b, which starts at b·step. */
export interface SeriesCounts {
  step: number;
  /** Buckets 0 .. buckets - 1: the last holds the run's last event. */
  buckets: number;
  counts: Float64Array;
}

/** One bucket as JSON writes it: `load_ms` is how much of it lies within the load (`loadCovered`). */
export type SeriesBucket = { start_ms: number; load_ms: number } & Record<SeriesName, number>;

/** What `load_ms` means, for JSON and CSV alike. */
export const LOAD_MS_MEANING = 'how much of the bucket lies within the load (load.duration, or the expected last arrival of actions): the step for a whole bucket, less for the one the load ends in, 0 after it (only the calls of actions that arrived before)';

/**
 * How much of bucket `b` lies within the load `[0, loadEnd)` (ms): a chart or a spreadsheet can
 * tell the bucket the load ends in, and the drain after it, from an outage.
 */
export function loadCovered(step: number, b: number, loadEnd: number): number {
  return Math.min(step, Math.max(0, loadEnd - b * step));
}

/** `results[i].series` in JSON. */
export interface SeriesJson {
  step_ms: number;
  buckets: SeriesBucket[];
}

/** `loadEnd`: the load's end (clock.ts, `arrivalSpan`). */
export function seriesJson(s: SeriesCounts, loadEnd: number): SeriesJson {
  const buckets: SeriesBucket[] = [];
  for (let b = 0; b < s.buckets; b++) {
    const row = { start_ms: b * s.step, load_ms: loadCovered(s.step, b, loadEnd) } as SeriesBucket;
    SERIES_NAMES.forEach((n, m) => { row[n] = s.counts[b * NUM_SERIES + m] as number; });
    buckets.push(row);
  }
  return { step_ms: s.step, buckets };
}

/** The total of one count over the run. */
export function seriesTotal(s: SeriesCounts, name: SeriesName): number {
  let total = 0;
  for (let b = 0; b < s.buckets; b++) total += s.counts[b * NUM_SERIES + SER[name]] as number;
  return total;
}

/**
 * What each count of a series adds up to over the run, read off the run's sums: every event a
 * count counts lies in one bucket, so its total is the counter of the same events. `arrivals`
 * are the primaries, `timeouts` the attempts that ended unknown; the others are the counter of
 * their name (counters.ts). The part checker holds a part's series to these.
 */
const TOTAL_OF: Readonly<Record<SeriesName, CounterName | 'primaries' | 'attemptsUnknown' | 'handlersStarted' | 'callsSucceeded'>> = {
  arrivals: 'primaries', attempts: 'attempts', executions: 'executions', duplicates: 'duplicates',
  conflicts_409: 'conflicts_409', mismatches_422: 'mismatches_422', dedup_hits: 'dedup_hits',
  timeouts: 'attemptsUnknown', unknown_outcomes: 'unknown_outcomes', lost: 'lost', store_unavailable: 'store_unavailable',
  shed: 'shed', expired: 'expired', budget_denied: 'budget_denied', breaker_rejected: 'breaker_rejected',
  started: 'handlersStarted', succeeded: 'callsSucceeded', throttled: 'throttled',
  deliveries: 'deliveries', dead_lettered: 'dead_lettered',
};

export function seriesTotalFromSums(
  name: SeriesName, t: { primaries: number; attemptsUnknown: number; sum: ArrayLike<number>; capacity?: { started: number; succeeded: number } | null },
): number {
  const of = TOTAL_OF[name];
  switch (of) {
    case 'primaries': case 'attemptsUnknown': return t[of];
    case 'handlersStarted': return t.capacity?.started ?? 0;
    case 'callsSucceeded': return t.capacity?.succeeded ?? 0;
    default: return t.sum[C[of]] as number;
  }
}

/**
 * Rows of counts from bucket `base` (step Δ) summed into buckets `k` times as long (step kΔ):
 * bucket b's counts go to bucket ⌊b/k⌋, whose span holds b's, so the sums are exact. Returns the
 * first bucket of the longer rows and the rows, made by `make(length)` (zeroed).
 */
export function summedRows<T extends Int32Array | Float64Array>(rows: ArrayLike<number>, base: number, k: number, make: (length: number) => T): { base: number; rows: T } {
  const n = rows.length / NUM_SERIES;
  const first = Math.floor(base / k);
  const out = make(n === 0 ? 0 : (Math.floor((base + n - 1) / k) - first + 1) * NUM_SERIES);
  for (let r = 0; r < n; r++) {
    const at = (Math.floor((base + r) / k) - first) * NUM_SERIES;
    for (let m = 0; m < NUM_SERIES; m++) out[at + m]! += rows[r * NUM_SERIES + m] as number;
  }
  return { base: first, rows: out };
}
