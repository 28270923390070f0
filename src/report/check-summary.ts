/**
 * `check --format github`'s step summary (docs/ci-gate.md): Markdown for the job's summary page
 * ($GITHUB_STEP_SUMMARY) or --summary FILE: the verdict table's rows (report/verdicts.ts) in
 * Markdown's syntax, the tally, the invalid files and the warnings. Text from the input is made
 * printable and each character Markdown could read as syntax (emphasis, links, HTML, tables,
 * mentions, math) is escaped with a backslash. GitHub takes at most 1 MiB of summary a step: the
 * table lists at most MAX_SUMMARY_ROWS rows (a scenario's name clipped to 200 characters), the
 * invalid files and the warnings MAX_SUMMARY_NOTES each (clipped to 2,000), the footer 2,000:
 * under 800 KB in all.
 */
import { clipped, printable } from '../scenario/printable.js';
import type { CheckReport } from './types.js';
import { VERDICT_HEAD, verdictRows, verdictTally } from './verdicts.js';

export const MAX_SUMMARY_ROWS = 1000;
export const MAX_SUMMARY_NOTES = 100;

/** Text as Markdown shows it literally: printable, and its syntax characters escaped. */
export const markdownText = (text: string): string => printable(text).replace(/[\\`*_[\]<>|~&@$!#]/g, '\\$&');

export function renderCheckSummary(report: CheckReport, footer: string): string {
  const rows = verdictRows(report);
  const tally = verdictTally(report);
  const lines = [`### idem-sim check: ${tally.expectations ? tally.expectations.text : 'nothing checked'}`, ''];
  if (rows.length > 0) {
    lines.push(`| ${VERDICT_HEAD.join(' | ')} |`, '| --- | --- | --- | ---: | --- |');
    for (const r of rows.slice(0, MAX_SUMMARY_ROWS)) {
      lines.push(`| ${[clipped(r.scenario), r.metric, r.expected, r.measured].map(markdownText).join(' | ')} | ${r.pass ? 'pass' : '**FAIL**'} |`);
    }
    if (rows.length > MAX_SUMMARY_ROWS) lines.push('', `and ${rows.length - MAX_SUMMARY_ROWS} more rows: the step's log has the whole table.`);
    lines.push('');
  }
  if (tally.invalid) {
    lines.push(`**${markdownText(clipped(tally.invalid, 2000))}**`, '');
    for (const e of report.errors.slice(0, MAX_SUMMARY_NOTES)) lines.push(`- ${markdownText(clipped(e.message, 2000))}`);
    if (report.errors.length > MAX_SUMMARY_NOTES) lines.push(`- and ${report.errors.length - MAX_SUMMARY_NOTES} more, in the step's log`);
    lines.push('');
  }
  const warnings = report.checked.flatMap((c) => c.warnings.map((w) => w.text));
  if (warnings.length > 0) {
    lines.push(`Settings with no effect (${warnings.length}):`, '');
    for (const w of warnings.slice(0, MAX_SUMMARY_NOTES)) lines.push(`- ${markdownText(clipped(w, 2000))}`);
    if (warnings.length > MAX_SUMMARY_NOTES) lines.push(`- and ${warnings.length - MAX_SUMMARY_NOTES} more, in the step's log`);
    lines.push('');
  }
  lines.push(markdownText(clipped(footer, 2000)));
  return `${lines.join('\n')}\n`;
}
