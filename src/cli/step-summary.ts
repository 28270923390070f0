/**
 * GitHub Actions' step summary: the runner names a file in $GITHUB_STEP_SUMMARY, and each step
 * appends its Markdown there (docs/ci-gate.md). A summary that cannot be written is warned of:
 * it does not change the gate's verdict.
 */
import { appendFileSync } from 'node:fs';
import { printable } from '../scenario/printable.js';
import { warn, type Io } from '../io/streams.js';

export function appendStepSummary(io: Io, markdown: string): void {
  const file = io.env['GITHUB_STEP_SUMMARY'];
  if (!file) return;
  try {
    appendFileSync(file, markdown);
  } catch (e) {
    warn(io, `the step summary could not be appended to $GITHUB_STEP_SUMMARY (${printable(file)}): ${printable((e as NodeJS.ErrnoException).code ?? String(e))}. The check's verdict and annotations stand; give --summary FILE to write it elsewhere.`);
  }
}
