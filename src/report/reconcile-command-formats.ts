/**
 * The formats of `idem-sim reconcile --format`, default first: the readings' own
 * (reconcile-formats.ts) and, for a gate (--expect), GitHub's (loads no reporter).
 */
import type { FormatWords } from './formats.js';
import { RECONCILE_FORMAT_INFO } from './reconcile-formats.js';

export const RECONCILE_COMMAND_FORMAT_INFO = {
  ...RECONCILE_FORMAT_INFO,
  github: { help: 'for GitHub Actions, with --expect: the table, an annotation at each failing expectation, and a step summary' },
} as const satisfies Record<string, FormatWords>;

export type ReconcileCommandFormat = keyof typeof RECONCILE_COMMAND_FORMAT_INFO;

export const RECONCILE_COMMAND_FORMATS = Object.keys(RECONCILE_COMMAND_FORMAT_INFO) as ReconcileCommandFormat[];
