/**
 * What a command says of a scenario besides its result: each warning as a one-paragraph text,
 * as its errors are (file, line, key, what, fix), and the note of the lab values a file runs on
 * without writing them (docs/scenarios.md, "The lab's values"). The shell says them on stderr.
 */
import { formatInputError } from './errors.js';
import type { ParsedScenario, ScenarioWarning } from './parse.js';
import { LAB_DEFAULTS, labDefaultsInherited, labNote, type LabDefault } from './provenance.js';

/** A scenario's warnings as one-paragraph texts, like its errors (file, line, key, what, fix). */
export function warningTexts(warnings: readonly ScenarioWarning[]): string[] {
  return warnings.map((w) => formatInputError(w.origin, w.keyPath, w.problem, w.fix));
}

/**
 * The note of the lab values `file` runs on without writing them (provenance.ts), if any: run,
 * sweep and check say it once a file, after their report. `scenarios`: the file's, or an agent
 * file's tools, each by its name; the built-in defaults (no file) are the lab asked for, and are
 * not noted.
 */
export function labDefaultsNote(file: string | null, scenarios: readonly { name?: string; parsed: ParsedScenario }[]): string | undefined {
  if (file === null) return undefined;
  const found = new Map<string, LabDefault & { tools: string[] }>();
  for (const { name, parsed } of scenarios) {
    for (const d of labDefaultsInherited(parsed)) {
      const seen = found.get(d.path) ?? { ...d, tools: [] };
      if (name !== undefined) seen.tools.push(name);
      found.set(d.path, seen);
    }
  }
  const inOrder = LAB_DEFAULTS.flatMap((path) => found.get(path) ?? []);
  return inOrder.length > 0 ? labNote(file, inOrder, scenarios.some((s) => s.name !== undefined) ? { tools: scenarios.length } : undefined) : undefined;
}
