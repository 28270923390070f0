/**
 * What `reconcile` writes, with or without a gate (--expect): the readings in the format asked
 * (reconcile-outputs.ts), and with expectations their verdicts: under the table (and GitHub's
 * annotations for --format github), in the JSON, on standard error beside the CSV (which stays
 * the buckets alone); the JUnit XML and the step summary when asked for; and the exit status.
 * Pure.
 */
import type { ChalkInstance } from 'chalk';
import { gateStatus, type GateVerdict } from '../reconcile/gate.js';
import type { Reconciliation } from '../reconcile/readings.js';
import { clipped } from '../scenario/printable.js';
import type { ReconcileCommandFormat } from './reconcile-command-formats.js';
import { gateErrorTexts, renderGateCommands, renderGateSummary, renderGateTable } from './reconcile-gate.js';
import { renderGateJunit, renderGateJunitError, withGateJson } from './reconcile-gate-junit.js';
import { reconcileText } from './reconcile-outputs.js';

export interface ReconcileWriting {
  format: ReconcileCommandFormat;
  version: string;
  style: ChalkInstance;
  /** Whether the JUnit XML (--junit) and the Markdown summary (--summary, or --format github's) are written. */
  junit: boolean;
  summary: boolean;
}

export interface ReconcileTexts {
  out: string;
  /** The verdicts beside a CSV, for standard error. */
  stderr?: string;
  junit?: string;
  markdown?: string;
  /** 0, or 1 when an expectation failed. */
  status: number;
}

const footer = (rows: number | undefined, where: string, version: string): string => `${rows === undefined ? '' : `${rows.toLocaleString('en-US')} rows from `}${clipped(where, 200)}; idem-sim ${version}`;

/** The texts of the readings `r`, and of the verdicts when there is a gate. */
export function reconcileTexts(r: Reconciliation, verdicts: readonly GateVerdict[] | undefined, w: ReconcileWriting): ReconcileTexts {
  const readings = reconcileText(r, w.format === 'github' ? 'table' : w.format, w.version, w.style);
  if (verdicts === undefined) return { out: readings, status: 0 };
  const table = renderGateTable(verdicts, w.style);
  const end = footer(r.rows, r.where, w.version);
  return {
    out: w.format === 'json' ? withGateJson(readings, verdicts)
      : w.format === 'csv' ? readings
      : `${readings}\n${table}${w.format === 'github' ? renderGateCommands(r, verdicts) : ''}`,
    ...(w.format === 'csv' ? { stderr: table } : {}),
    ...(w.junit ? { junit: renderGateJunit(r, verdicts, w.version) } : {}),
    ...(w.summary || w.format === 'github' ? { markdown: renderGateSummary(r, verdicts, end) } : {}),
    status: gateStatus(verdicts),
  };
}

/** With a gate, the texts that say the error which ended the command (it is still raised: exit 2). */
export function reconcileErrorTexts(message: string, origin: { source: string; line?: number } | undefined, source: string, w: ReconcileWriting): ReconcileTexts {
  const { commands, markdown } = gateErrorTexts(message, origin, footer(undefined, source, w.version));
  return {
    out: w.format === 'github' ? commands : '',
    ...(w.junit ? { junit: renderGateJunitError(source, message, w.version) } : {}),
    ...(w.summary || w.format === 'github' ? { markdown } : {}),
    status: 2,
  };
}
