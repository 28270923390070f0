/** The formats of `idem-sim check`, default first, and their words in --help (loads no reporter). */
import type { FormatWords } from './formats.js';

export const CHECK_FORMAT_INFO = {
  table: { help: 'default' },
  json: { help: 'the same as --json' },
  github: { help: 'for GitHub Actions: the table, an annotation at each failing expect: line, and a step summary' },
} as const satisfies Record<string, FormatWords>;

export type CheckFormat = keyof typeof CHECK_FORMAT_INFO;

/** The choices of `check --format`, default first. */
export const CHECK_FORMATS = Object.keys(CHECK_FORMAT_INFO) as CheckFormat[];
