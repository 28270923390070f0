/** The formats of `idem-sim reconcile`, default first, and their words in --help (loads no reporter). */
import type { FormatWords } from './formats.js';

export const RECONCILE_FORMAT_INFO = {
  table: { help: 'default: the readings per tool and overall, the diagnosis, the gaps and the most duplicated keys' },
  json: { help: 'every reading, with the buckets over time' },
  csv: { help: 'the buckets over time: effects and duplicates by diagnosis' },
} as const satisfies Record<string, FormatWords>;

export type ReconcileFormat = keyof typeof RECONCILE_FORMAT_INFO;

/** The choices of `reconcile --format`, default first. */
export const RECONCILE_FORMATS = Object.keys(RECONCILE_FORMAT_INFO) as ReconcileFormat[];
