/**
 * Reconciliation of effects from any source (raw.ts: a file, a query): the columns found, the
 * rows read as effects and counted in time order, the readings made (docs/reconcile.md). Every
 * source plugs in here; none is opened or closed here.
 */
import { InputError } from '../scenario/errors.js';
import { mapColumns } from './columns.js';
import { effectsOf, type Effect } from './effects.js';
import { finish } from './finish.js';
import { MAX_SORTED_ROWS } from './limits.js';
import { rowPlace, type RowPlace } from './places.js';
import type { RawRows } from './raw.js';
import { DEFAULT_STEP_MS, DEFAULT_WINDOW_MS, type ReconcileOptions, type Reconciliation } from './readings.js';
import { Tally } from './tally.js';

/** Refuses a duration the readings cannot take (the command line's options are read before: this guards another caller). */
function positive(ms: number, flag: string): number {
  if (!(Number.isFinite(ms) && ms > 0)) throw new InputError({ source: flag }, '', 'must be a duration above 0', `Give ${flag} such as 1h.`);
  return ms;
}

/** The rows' effects, sorted by time in memory (stable: rows of one time keep their order). */
async function sortedEffects(rows: RawRows, found: AsyncIterable<Effect>): Promise<Effect[]> {
  const all: Effect[] = [];
  let row = 0;
  for await (const e of found) {
    if (++row > MAX_SORTED_ROWS) {
      throw new InputError(rowPlace(rows, row).origin, '', `holds more than ${MAX_SORTED_ROWS.toLocaleString('en-US')} rows, the most --sort sorts in memory`,
        'Export the rows sorted by their time (ORDER BY created_at, or sort -t, -k2,2 on a CSV whose time is its second column) and leave --sort out.');
    }
    all.push(e);
  }
  return all.sort((a, b) => a.at - b.at);
}

/**
 * The readings of `rows` (read once; not closed): the columns `options.columns` names or found
 * by their usual names, each business key's window of `windowMs` (default 1 h) from its first
 * effect, duplicates diagnosed against `retentionMs` where given, buckets of `stepMs` (default
 * 1 h). The rows must come in time order unless `sort` (at most MAX_SORTED_ROWS, in memory).
 * Errors are InputErrors naming the source and the row (its line, for a file), never a value.
 */
export async function reconcileRows(rows: RawRows, options: ReconcileOptions = {}): Promise<Reconciliation> {
  const windowMs = positive(options.windowMs ?? DEFAULT_WINDOW_MS, '--window');
  const stepMs = positive(options.stepMs ?? DEFAULT_STEP_MS, '--step');
  const retentionMs = options.retentionMs;
  if (retentionMs !== undefined && !(retentionMs >= 0)) throw new InputError({ source: '--retention' }, '', 'must be a duration of 0 or more', 'Give --retention such as 24h.');
  const columns = mapColumns(await rows.columns(), options.columns ?? {}, rows.where);
  const tally = new Tally({ windowMs, retentionMs, stepMs });
  let count = 0;
  const found = effectsOf(rows, columns);
  if (options.sort === true) {
    const sorted: RowPlace = { origin: { source: rows.where }, words: 'a row (sorted by time)' };
    for (const e of await sortedEffects(rows, found)) {
      count++;
      tally.add(e, () => sorted);
    }
  } else {
    for await (const e of found) {
      count++;
      tally.add(e, () => rowPlace(rows, count));
    }
  }
  const showKeys = options.showKeys === true;
  return {
    where: rows.where, rows: count, columns, windowMs, retentionMs: retentionMs ?? null, stepMs,
    sorted: options.sort === true, keysShown: showKeys, topKeysExact: tally.keys.exact,
    ...finish(tally, stepMs, showKeys),
  };
}
