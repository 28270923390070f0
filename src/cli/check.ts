/**
 * `idem-sim check SCENARIO ...`: run each scenario and test its `expect:` block. Exit 1 if any
 * fails, 2 if a file is invalid: an invalid file among several is reported (stderr, a JUnit
 * error case, JSON `errors`) and the others are still checked, so a CI job always has its
 * report to upload.
 */
import { isCoupled } from '../model/capacity.js';
import { check } from '../scenario/expect.js';
import { InputError } from '../scenario/errors.js';
import { toolVersion, type Io } from './io.js';
import { checkResult, renderCheckJson, type CheckResult } from '../report/check-json.js';
import { renderJunit } from '../report/junit.js';
import type { CheckedScenario, CheckError, CheckReport } from '../report/types.js';
import { renderVerdicts } from '../report/verdicts.js';
import { checkTimeRun } from './shared/time.js';
import { timeResults } from '../results/time-results.js';
import { scenarioReader, warningTexts, type LoadedScenario, type ScenarioReader } from './shared/load.js';
import { columnNames } from '../scenario/names.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, simulate, threadSetting } from './shared/simulate.js';
import { outputSettings, type OutputOptions, type OutputSettings } from './settings/output.js';
import { scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import { simulationSettings, type SimulationOptions, type SimulationSettings } from './settings/simulation.js';

export const EXIT_EXPECTATIONS_FAILED = 1;
/** An invalid scenario file: main.ts's EXIT_BAD_INPUT, returned here because the reports are still written. */
export const EXIT_INVALID_SCENARIO = 2;

/** `check`'s command line as commander parsed it (main.ts declares it); --json: the report as JSON (check-json.ts) instead of the table. */
export interface CheckOptions extends ScenarioOptions, SimulationOptions, OutputOptions {
  junit?: string;
}

/** What `check` is asked, one typed piece for each stage: read, simulate, write. */
export interface CheckSettings {
  scenario: ScenarioSettings;
  simulation: SimulationSettings;
  output: OutputSettings<never>;
  /** --junit FILE: also write JUnit XML there. */
  junit: string | undefined;
}

export function checkSettings(opts: CheckOptions): CheckSettings {
  return { scenario: scenarioSettings(opts), simulation: simulationSettings(opts), output: outputSettings(opts), junit: opts.junit };
}

type Loaded = LoadedScenario & { file: string; name: string };

export async function checkCommand(files: string[], s: CheckSettings, io: Io, signal?: AbortSignal): Promise<number> {
  const { json } = s.output;
  if (files.length === 0) {
    throw new InputError(undefined, '', 'no scenario given', 'Name the scenario files to check, such as idem-sim check scenarios/*.yaml.');
  }
  if (s.junit === '-' && (s.output.out === undefined || s.output.out === '-')) {
    throw new InputError({ source: '--junit -' }, '', `the JUnit XML and the ${json ? 'JSON' : 'table'} would both go to standard output`,
      `Write the ${json ? 'JSON' : 'table'} elsewhere with --out FILE, or the XML with --junit FILE.`);
  }
  // --junit is opened first: a bad --out then gives the --junit file back.
  return withOutput(io, s.junit, files, (junit) => withOutput(io, s.output.out, files, async (out) => {
    const read = scenarioReader(s.scenario, io);
    const seed = s.simulation.seed?.value;
    const threads = threadSetting(s.simulation.threads, io);
    const { loaded, errors } = readEach(files, read, io);
    const report = await checkEach(withExpectations(loaded, errors, io), errors, seed, threads, io, signal);
    const line = replayLine(files, s.scenario, seed, report.checked);
    const version = toolVersion();
    if (json) {
      out.write(renderCheckJson(report, { version, replay: line.flag('--json', true).text() }, seed));
    } else if (report.checked.length > 0) { // nothing checked: the errors on stderr are the whole answer
      const footer = `seed ${[...new Set(report.checked.map((c) => c.seed))].join(', ')}; idem-sim ${version}; replay: ${line.text()}`;
      out.write(renderVerdicts(report, out.style(), footer));
    }
    if (s.junit !== undefined) junit.write(renderJunit(report, version));
    return EXIT_STATUS[checkResult(report)];
  }), '--junit');
}

/** 2 when a file was invalid, else 1 when an expectation failed, else 0. */
const EXIT_STATUS: Record<CheckResult, number> = { pass: 0, fail: EXIT_EXPECTATIONS_FAILED, error: EXIT_INVALID_SCENARIO };

/**
 * The command that checks again: the files, --set and --actions, and the seed the runs used
 * (as `run` writes it: --seed, or the one seed every file gave or defaulted to).
 */
function replayLine(files: readonly string[], read: ScenarioSettings, seed: string | undefined, checked: readonly CheckedScenario[]): ReplayLine {
  const seeds = [...new Set(checked.map((c) => c.seed))];
  return new ReplayLine('check', files, read).overrides(read).option('--seed', seed ?? (seeds.length === 1 ? seeds[0] : undefined));
}

/**
 * Reads every file before any is simulated. A file that is invalid (unreadable, malformed, a
 * bad key or data file) is an error of its own, said on standard error at once; an error
 * whose source is the command line (a refused --set or --actions, an --out or --junit that
 * would overwrite a data file) still stops the command, and no report is written.
 */
function readEach(files: readonly string[], read: ScenarioReader, io: Io): { loaded: Loaded[]; errors: CheckError[] } {
  const names = columnNames(files);
  const loaded: Loaded[] = [];
  const errors: CheckError[] = [];
  for (const [k, file] of files.entries()) {
    const name = names[k] as string;
    try {
      loaded.push({ file, name, ...read(file) });
    } catch (e) {
      if (!(e instanceof InputError) || e.origin?.source.startsWith('--')) throw e;
      io.stderr.write(`idem-sim: error: ${e.message}\n`);
      errors.push(checkError(name, file, e));
    }
  }
  return { loaded, errors };
}

function checkError(name: string, file: string, e: InputError): CheckError {
  const { origin, keyPath } = e;
  return {
    name, file, message: e.message,
    ...(origin ? { source: origin.source } : {}), ...(origin?.line !== undefined ? { line: origin.line } : {}), ...(keyPath ? { key: keyPath } : {}),
  };
}

/**
 * The scenarios that have goals: a glob such as scenarios/*.yaml takes in others, which are
 * skipped, saying so. None with goals is an error of each file (unless files were invalid,
 * reported already), written into the reports like any invalid file's.
 */
function withExpectations(all: readonly Loaded[], errors: CheckError[], io: Io): { checkable: Loaded[]; skipped: string[] } {
  const checkable = all.filter((l) => l.expectations.length > 0);
  if (checkable.length === 0 && errors.length === 0) {
    // Nothing to check is an error of each file, so the JUnit file and --json still say so to CI.
    for (const l of all) {
      const e = new InputError({ source: l.file }, 'expect', 'has no expectations to check', 'Add an expect: block, for example expect: {duplicates_per_1000: "<= 0.5"}.');
      io.stderr.write(`idem-sim: error: ${e.message}\n`);
      errors.push(checkError(l.name, l.file, e));
    }
    return { checkable: [], skipped: [] };
  }
  const skipped = all.filter((l) => l.expectations.length === 0).map((l) => l.file);
  for (const file of skipped) io.stderr.write(`idem-sim: skipped ${file}: it has no expect: block\n`);
  return { checkable, skipped };
}

async function checkEach(
  { checkable, skipped }: { checkable: readonly Loaded[]; skipped: string[] }, errors: CheckError[],
  seedGiven: string | undefined, threads: (actions: number) => number, io: Io, signal: AbortSignal | undefined,
): Promise<CheckReport> {
  const commandActions = checkable.reduce((sum, l) => sum + l.scenario.actions, 0);
  const checked: CheckedScenario[] = [];
  for (const l of checkable) {
    const seed = runSeed(seedGiven, l.seed);
    checkTimeRun({ scenario: l.scenario, seed, locate: l.locate });
    const outcome = await simulate(io, l.name, { scenario: l.scenario, seed, threads: threads(commandActions) }, signal);
    const metrics = outcome.state.finish(l.scenario);
    const { alerts } = timeResults(l.scenario, outcome.state, false);
    checked.push({
      name: l.name, file: l.file, seed, actions: metrics.actions, warnings: warningTexts(l.warnings), verdicts: l.expectations.map((e) => check(e, metrics, alerts)), coupled: isCoupled(l.scenario),
    });
  }
  return { checked, errors, skipped };
}
