/**
 * `check --format github`: GitHub Actions workflow commands (docs/ci-gate.md). A runner reads
 * each `::error file=F,line=L,title=T::MESSAGE` line of a step's output as an annotation, shown
 * on the pull request's diff at that line: one for each failing expectation at its `expect:`
 * line, one for each file that could not be checked, and a `::warning` for each setting with no
 * effect (and each other warning, titled by its kind). Escaped as the runner unescapes
 * (actions/toolkit's command.ts): in a message `%`, CR and LF; in a property also `:` and `,`.
 * Text from the input is made printable first, so neither a file's name nor its content can end
 * the line or start a command of its own.
 */
import type { Origin } from '../scenario/errors.js';
import type { WarningKind } from '../scenario/warnings.js';
import { printable } from '../scenario/printable.js';
import type { CheckReport } from './types.js';
import { verdictMessage } from './verdict-text.js';

/** A command's message: `%`, then CR and LF, written as their percent codes. */
export const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A property's value: as a message, and `:` and `,`, which end a property. */
export const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

type Level = 'error' | 'warning';

/** A warning's title by its kind (scenario/warnings.ts; none: a setting with no effect). */
const WARNING_TITLES: Readonly<Record<WarningKind | 'inert', string>> = { inert: 'a setting with no effect', name: 'a name rewritten', expectation: 'an expectation not checked as written' };

/** Where an annotation goes: a file and line, when the place is a file (not an option such as --set). */
interface Place { file?: string; line?: number }

const placeOf = (origin: Partial<Origin> | undefined): Place => (origin?.source === undefined || origin.source.startsWith('--') ? {}
  : { file: origin.source, ...(origin.line !== undefined ? { line: origin.line } : {}) });

/** One workflow command; its message is `lines`, each made printable, joined by line breaks (written %0A). */
export function workflowCommand(level: Level, place: Place, title: string, lines: readonly string[]): string {
  const props = [
    ...(place.file !== undefined ? [`file=${escapeProperty(printable(place.file))}`] : []),
    ...(place.line !== undefined ? [`line=${place.line}`] : []),
    `title=${escapeProperty(printable(title))}`,
  ];
  return `::${level} ${props.join(',')}::${escapeData(lines.map(printable).join('\n'))}`;
}

/** The commands for a check's report; `replay` is the command line that checks again. */
export function renderWorkflowCommands(report: CheckReport, replay: string): string {
  const lines: string[] = [];
  for (const e of report.errors) {
    lines.push(workflowCommand('error', placeOf({ source: e.source ?? e.file, ...(e.line !== undefined ? { line: e.line } : {}) }), 'idem-sim check: invalid scenario file', [e.message]));
  }
  for (const c of report.checked) {
    for (const v of c.verdicts.filter((x) => !x.pass)) {
      const e = v.expectation;
      lines.push(workflowCommand('error', placeOf(e.origin), `idem-sim check: ${e.metric} ${e.text}`, [`${c.name}: ${e.metric} ${verdictMessage(v)} (seed ${c.seed}, ${c.actions} actions)`, `replay: ${replay}`]));
    }
    for (const w of c.warnings) lines.push(workflowCommand('warning', placeOf(w), `idem-sim check: ${WARNING_TITLES[w.kind ?? 'inert']}`, [w.text]));
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
