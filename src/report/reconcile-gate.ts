/**
 * What `reconcile --expect` writes of its verdicts (docs/reconcile.md, "A gate in CI"), built of
 * `check`'s pieces where they fit: the table under the readings (drawn as theirs), GitHub's
 * workflow commands (github.ts's workflowCommand: an `::error` at each failing expectation's
 * line of the expectations file), and the Markdown step summary (check-summary.ts's escaping and
 * limits). The readings' own names come from the rows: printable and clipped everywhere.
 */
import type { ChalkInstance } from 'chalk';
import type { GateVerdict } from '../reconcile/gate.js';
import { DIAGNOSES, type Reconciliation } from '../reconcile/readings.js';
import type { Origin } from '../scenario/errors.js';
import { formatDuration } from '../scenario/duration.js';
import { clipped, printable } from '../scenario/printable.js';
import { markdownText, MAX_SUMMARY_ROWS } from './check-summary.js';
import { num } from './format.js';
import { workflowCommand } from './github.js';
import { drawRows } from './sweep-table.js';

/** The column of all the tools together, as the readings' table names it. */
export const ALL_TOOLS = 'all tools';

const shown = (text: string, max = 40): string => printable(clipped(text, max));
const count = (n: number): string => n.toLocaleString('en-US');

export const toolOf = (v: GateVerdict): string => (v.expectation.tool === null ? ALL_TOOLS : shown(v.expectation.tool));

/** The expectation as written: `refund:duplicates_per_1000 <= 5`. */
export const expectationText = (v: GateVerdict): string => {
  const e = v.expectation;
  return `${e.tool === null ? '' : `${shown(e.tool)}:`}${e.metric} ${e.text}`;
};

/** A reading's value as the readings' table writes it: a count, or a rate with its 95% interval. */
export function gateMeasured(v: GateVerdict): string {
  if (v.missing !== undefined) return 'none (no effect of the tool)';
  const { value, ci95 } = v.measured;
  if (value === null) return 'none (no effects)';
  if (ci95) return value === 0 ? `0 (≤ ${num(ci95[1])})` : `${num(value)} (${num(ci95[0])} – ${num(ci95[1])})`;
  return Number.isInteger(value) ? count(value) : num(value);
}

/** `measured 82.9 (55.5 – 119), expected <= 100` (the interval is the one confidence ci95 checks). */
export function gateMessage(v: GateVerdict): string {
  const measured = v.missing !== undefined ? printable(v.missing) : `measured ${gateMeasured(v)}`;
  return `${measured}, expected ${v.expectation.text}${v.interval ? ' over the whole 95% interval' : ''}`;
}

/** `all 3 expectations pass`, `1 of 3 expectations fail`. */
export function gateTally(verdicts: readonly GateVerdict[]): string {
  const failed = verdicts.filter((v) => !v.pass).length;
  const n = verdicts.length;
  if (n === 1) return failed === 0 ? 'the expectation passes' : 'the expectation fails';
  return failed === 0 ? `all ${n} expectations pass` : `${failed} of ${n} expectations fail`;
}

const HEAD = ['tool', 'reading', 'expected', 'measured', 'result'] as const;
const cells = (v: GateVerdict): string[] => [toolOf(v), v.expectation.metric, `${v.expectation.text}${v.interval ? ' (whole CI)' : ''}`, gateMeasured(v)];

/** The verdicts' table, its tally, and why an expectation has no value (a tool the rows lack). */
export function renderGateTable(verdicts: readonly GateVerdict[], chalk: ChalkInstance): string {
  const rows = verdicts.map((v) => [...cells(v), v.pass ? chalk.green('pass') : chalk.red.bold('FAIL')]);
  const table = drawRows(HEAD.map((h) => chalk.bold(h)), rows, ['left', 'left', 'left', 'right', 'left']);
  const tally = gateTally(verdicts);
  const missing = [...new Set(verdicts.flatMap((v) => (v.missing === undefined ? [] : [printable(v.missing)])))];
  return `${chalk.bold('Expectations')}\n${table}\n${missing.map((m) => `${m}\n`).join('')}${verdicts.every((v) => v.pass) ? chalk.green(tally) : chalk.red(tally)}\n`;
}

/** Where an annotation goes: the expectations file's line, or nowhere for --expect. */
const placeOf = (o: Origin): { file?: string; line?: number } => (o.source.startsWith('--') ? {} : { file: o.source, ...(o.line !== undefined ? { line: o.line } : {}) });

/** GitHub's workflow commands: an `::error` for each failing expectation, at its line of the expectations file. */
export function renderGateCommands(r: Reconciliation, verdicts: readonly GateVerdict[]): string {
  const lines = verdicts.filter((v) => !v.pass).map((v) => workflowCommand('error', placeOf(v.expectation.origin), `idem-sim reconcile: ${expectationText(v)}`,
    [`${toolOf(v)}: ${v.expectation.metric} ${gateMessage(v)} (${count(r.overall.effects)} effects reconciled from ${shown(r.where, 200)})`]));
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** The readings in a sentence, for the summary: what the verdicts were judged on. */
function readingsLine(r: Reconciliation): string {
  const o = r.overall;
  const per1000 = o.per1000 === null ? '' : ` (${num(o.per1000.value)} per 1000 effects)`;
  const diagnosis = DIAGNOSES.filter((d) => d !== 'same_key_after_expiry' || r.retentionMs !== null).map((d) => `${d} ${count(o.diagnosis[d])}`).join(', ');
  const retention = r.retentionMs === null ? '' : ` (retention ${formatDuration(r.retentionMs)})`;
  return `${count(o.effects)} effects from ${shown(r.where, 200)}: ${count(o.duplicates)} duplicates within ${formatDuration(r.windowMs)} of a key's first effect${per1000}; diagnosis${retention}: ${diagnosis}.`;
}

/** The step summary: the verdicts as a Markdown table, the readings they were judged on, the footer. */
export function renderGateSummary(r: Reconciliation, verdicts: readonly GateVerdict[], footer: string): string {
  const lines = [`### idem-sim reconcile: ${gateTally(verdicts)}`, '', `| ${HEAD.join(' | ')} |`, '| --- | --- | --- | ---: | --- |'];
  for (const v of verdicts.slice(0, MAX_SUMMARY_ROWS)) lines.push(`| ${cells(v).map(markdownText).join(' | ')} | ${v.pass ? 'pass' : '**FAIL**'} |`);
  if (verdicts.length > MAX_SUMMARY_ROWS) lines.push('', `and ${verdicts.length - MAX_SUMMARY_ROWS} more rows: the step's log has the whole table.`);
  lines.push('', markdownText(readingsLine(r)), '', markdownText(clipped(footer, 2000)));
  return `${lines.join('\n')}\n`;
}

/** When the command ends in an error (a malformed expectation, a query that fails): the annotation and the summary that say so. */
export function gateErrorTexts(message: string, origin: Origin | undefined, footer: string): { commands: string; markdown: string } {
  const place = origin === undefined ? {} : placeOf(origin);
  return {
    commands: `${workflowCommand('error', place, 'idem-sim reconcile: not checked', [message])}\n`,
    markdown: `### idem-sim reconcile: not checked\n\n**${markdownText(clipped(message, 2000))}**\n\n${markdownText(clipped(footer, 2000))}\n`,
  };
}
