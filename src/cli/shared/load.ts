/**
 * Reading a command's scenarios: the file (or the built-in lab defaults), the command's --set
 * and --actions on top of it, and the data files it names, read where --allow-outside allows.
 */
import { parseScenario, type Override } from '../../scenario/parse.js';
import { labDefaultsNote, warningTexts } from '../../scenario/warning-texts.js';
import { note, warn, type Io } from '../../io/streams.js';
import { baseFiles, loadEmpiricalData, readUserFile, type DataAccess } from '../../io/files.js';
import { latencyDataWarnings } from '../../ingest/data-warnings.js';
import { nearCapacityAfterData } from '../../scenario/capacity-warnings.js';
import { overridesOf, type ScenarioSettings } from '../settings/scenario.js';
import type { ScenarioWarning } from '../../scenario/warnings.js';

export { labDefaultsNote, warningTexts } from '../../scenario/warning-texts.js';

/**
 * Loads a scenario file (or the built-in lab defaults) into a ready-to-run scenario, with the
 * files its `extends:` chain names; a data file is read relative to the file that names it.
 */
export function loadScenario(file: string | null, overrides: readonly Override[], access: DataAccess = {}) {
  const text = file === null ? '' : readUserFile(file, 'the scenario file');
  const parsed = parseScenario(text, file ?? '(built-in lab defaults)', overrides, file === null ? undefined : baseFiles(file, access));
  const writtenIn = (keyPath: readonly (string | number)[]): string | undefined => {
    const source = parsed.locate?.(keyPath).source;
    return source !== undefined && parsed.bases?.includes(source) ? source : undefined;
  };
  const scenario = loadEmpiricalData(parsed.scenario, file ?? undefined, parsed.locate, access, writtenIn);
  const afterData = [...latencyDataWarnings(scenario.service.latency, ['service', 'latency'], parsed.locate), ...nearCapacityAfterData(parsed.scenario, scenario, parsed.locate)];
  return { ...parsed, scenario, warnings: [...parsed.warnings, ...afterData] };
}

export type LoadedScenario = ReturnType<typeof loadScenario>;

/** Reads a scenario as the command's options say; `more` overrides come after theirs (a sweep's point). */
export type ScenarioReader = (file: string | null, more?: readonly Override[]) => LoadedScenario;

/**
 * The command's reader of scenarios, as its scenario-reading settings say; it warns on `io` of
 * settings the model does not read (null: a command that uses them otherwise, as the probe,
 * where `transactional` or `claim` choose the real store's protocol whatever the model's other
 * settings); with `notes`, it adds there the note of the lab values a file runs on
 * (labDefaultsNote). Warnings of expectations (kind `expectation`) only for a command that
 * checks them (`checking`): the others leave them out of what they say and write. A malformed
 * --set fails here, where the command asks, before any file is read.
 */
export function scenarioReader(settings: ScenarioSettings, io: Pick<Io, 'stderr'> | null, notes?: string[], checking = false): ScenarioReader {
  const overrides = overridesOf(settings);
  const access: DataAccess = { allowOutside: settings.allowOutside };
  // A sweep reads its scenario at every point: each warning is said once.
  const said = new Set<string>();
  return (file, more = []) => {
    const loaded = { ...loadScenario(file, [...overrides, ...more], access) };
    loaded.warnings = forCommand(loaded.warnings, checking);
    for (const text of warningTexts(loaded.warnings)) {
      if (io && !said.has(text) && said.size < 1000) { said.add(text); warn(io, text); }
    }
    const text = notes && labDefaultsNote(file, [{ parsed: loaded }]);
    if (text) notes?.push(text);
    return loaded;
  };
}

/** A command's warnings of a file: those of its expectations only when it checks them (`checking`). */
export function forCommand(warnings: readonly ScenarioWarning[], checking: boolean): ScenarioWarning[] {
  return checking ? [...warnings] : warnings.filter((w) => w.kind !== 'expectation');
}

/** The notes a command gathered, each once, on stderr: said when its report is written (a command that fails says none). */
export function sayNotes(io: Pick<Io, 'stderr'>, notes: readonly string[]): void {
  for (const text of new Set(notes)) note(io, text);
}
