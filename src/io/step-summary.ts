/**
 * GitHub Actions' step summary: the runner names a file in $GITHUB_STEP_SUMMARY, and each step
 * appends its Markdown there (docs/ci-gate.md). A summary that cannot be written is warned of:
 * it does not change the gate's verdict.
 */
import { appendFileSync } from 'node:fs';
import { printable } from '../scenario/printable.js';
import type { ReportOutput } from './output.js';
import { warn, type Io } from './streams.js';

export function appendStepSummary(io: Io, markdown: string): void {
  const file = io.env['GITHUB_STEP_SUMMARY'];
  if (!file) return;
  try {
    appendFileSync(file, markdown);
  } catch (e) {
    warn(io, `the step summary could not be appended to $GITHUB_STEP_SUMMARY (${printable(file)}): ${printable((e as NodeJS.ErrnoException).code ?? String(e))}. The check's verdict and annotations stand; give --summary FILE to write it elsewhere.`);
  }
}

/**
 * A gate's reports written where each goes: the report, the JUnit XML when there is one, and the
 * Markdown summary to `--summary`'s file when given, else (GitHub's format) appended to the step's.
 */
export function writeGateReports(io: Io, to: { out: ReportOutput; junit: ReportOutput; summary: ReportOutput | undefined }, texts: { out: string; junit?: string; markdown?: string }): void {
  to.out.write(texts.out);
  if (texts.junit !== undefined) to.junit.write(texts.junit);
  if (to.summary !== undefined) to.summary.write(texts.markdown ?? '');
  else if (texts.markdown !== undefined) appendStepSummary(io, texts.markdown);
}
