/**
 * `idem-sim explain`'s reports: every key of a scenario (each tool's, for an agent file), its
 * value and where it came from (scenario/provenance.ts), as a table or as JSON.
 */
import type { ChalkInstance } from 'chalk';
import type { Origin } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';
import type { ExplainedKey, KeySource, LabDefault } from '../scenario/provenance.js';
import { roundNoise } from './json.js';
import { drawRows } from './sweep-table.js';

/** One scenario explained: a scenario file's, or one tool's of an agent file. */
export interface ExplainedScenario {
  name: string;
  keys: readonly ExplainedKey[];
  /** The lab values it runs on without writing them. */
  labDefaults: readonly LabDefault[];
}

export interface ExplainReport {
  /** The file explained; null: the built-in lab defaults. */
  file: string | null;
  /** An agent file's name (its scenarios are its tools'). */
  agent?: string;
  scenarios: readonly ExplainedScenario[];
}

const where = (at: Origin | undefined): string => (at === undefined ? '' : printable(clipped(at.line === undefined ? at.source : `${at.source}:${at.line}`)));

/** Where a key came from, in words. */
export function sourceText(from: KeySource): string {
  const text = ((): string => {
    switch (from.kind) {
      case 'default': return 'built-in default';
      case 'preset': return `preset ${printable(from.preset ?? '')} (${where(from.at)})`;
      case 'file': case 'set': return where(from.at);
      case 'base': return `extends: ${where(from.at)}`;
      case 'agent-defaults': return `defaults: ${where(from.at)}`;
      case 'agent': return `the agent: ${from.why ?? ''}`;
      default: return from.kind;
    }
  })();
  return from.fitted ? `fitted to ${text}` : text;
}

export function renderExplainTable(report: ExplainReport, chalk: ChalkInstance): string {
  const parts = report.scenarios.map((s) => {
    const table = drawRows(['key', 'value', 'from'].map((h) => chalk.bold(h)), s.keys.map((k) => [k.key, k.text, sourceText(k.from)]), ['left', 'left', 'left']);
    // A heading of words first: a file's name never begins the line (a file named `::error ...` would be a workflow command in a CI log).
    const title = report.agent !== undefined ? `tool ${printable(s.name)} of the agent ${printable(report.agent)}` : report.file === null ? 'the built-in lab defaults' : `scenario ${printable(clipped(report.file))}`;
    const lab = s.labDefaults.length === 0 ? '' : `\n${chalk.dim(`lab values it runs on without writing them: ${s.labDefaults.map((d) => `${d.path} ${d.value}`).join(', ')} (write them to keep or change them)`)}`;
    return `${chalk.bold(title)}\n${table}${lab}\n`;
  });
  return parts.join('\n');
}

/** A key's source as JSON fields: `from` (its kind), then where (`source`, `line`), the preset, why. */
function sourceJson(from: KeySource): Record<string, unknown> {
  return {
    from: from.kind,
    ...(from.at ? { source: from.at.source, ...(from.at.line !== undefined ? { line: from.at.line } : {}) } : {}),
    ...(from.preset !== undefined ? { preset: from.preset } : {}),
    ...(from.why !== undefined ? { because: from.why } : {}),
    ...(from.fitted ? { fitted: true } : {}),
  };
}

export function renderExplainJson(report: ExplainReport, version: string): string {
  const doc = {
    tool: 'idem-sim',
    version,
    time_unit: 'ms',
    file: report.file,
    ...(report.agent !== undefined ? { agent: report.agent } : {}),
    scenarios: report.scenarios.map((s) => ({
      name: s.name,
      keys: s.keys.map((k) => ({ key: k.key, value: k.value, text: k.text, ...sourceJson(k.from) })),
      lab_defaults: s.labDefaults.map((d) => ({ key: d.path, value: d.value })),
    })),
  };
  return `${JSON.stringify(doc, roundNoise, 2)}\n`;
}
