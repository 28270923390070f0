/** The formats of `idem-sim explain`, default first, and their words in --help (loads no reporter). */
import type { FormatWords } from './formats.js';

export const EXPLAIN_FORMAT_INFO = {
  table: { help: 'default: each key, its value and where it comes from' },
  json: { help: 'the same as --json' },
} as const satisfies Record<string, FormatWords>;

export type ExplainFormat = keyof typeof EXPLAIN_FORMAT_INFO;

/** The choices of `explain --format`, default first. */
export const EXPLAIN_FORMATS = Object.keys(EXPLAIN_FORMAT_INFO) as ExplainFormat[];
