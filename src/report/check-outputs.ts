/** What `idem-sim check` writes of its report: the table, JSON or workflow commands, and the JUnit XML and Markdown summary when asked for. Pure. */
import type { ChalkInstance } from 'chalk';
import { renderCheckJson } from './check-json.js';
import type { CheckFormat } from './check-formats.js';
import { renderCheckSummary } from './check-summary.js';
import { renderWorkflowCommands } from './github.js';
import { renderJunit } from './junit.js';
import type { CheckReport } from './types.js';
import { renderVerdicts } from './verdicts.js';

/** How the report is written: `replay` the command that checks again (`jsonReplay`: with --json), `seed` --seed when given. */
export interface CheckWriting {
  format: CheckFormat;
  version: string;
  replay: string;
  jsonReplay: string;
  seed: string | undefined;
  style: ChalkInstance;
  /** Whether the JUnit XML (--junit) and the Markdown summary (--summary, or --format github's) are written. */
  junit: boolean;
  summary: boolean;
}

export function checkTexts(report: CheckReport, w: CheckWriting): { out: string; junit: string | undefined; markdown: string | undefined } {
  const footer = `seed ${[...new Set(report.checked.map((c) => c.seed))].join(', ')}; idem-sim ${w.version}; replay: ${w.replay}`;
  let out: string;
  if (w.format === 'json') {
    out = renderCheckJson(report, { version: w.version, replay: w.jsonReplay }, w.seed);
  } else {
    // Nothing checked: the errors on stderr (and GitHub's annotations) are the whole answer.
    const table = report.checked.length > 0 ? renderVerdicts(report, w.style, footer) : '';
    out = w.format === 'github' ? `${table}${renderWorkflowCommands(report, w.replay)}` : table;
  }
  const junit = w.junit ? renderJunit(report, w.version) : undefined;
  return { out, junit, markdown: w.summary || w.format === 'github' ? renderCheckSummary(report, footer) : undefined };
}
