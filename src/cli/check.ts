/**
 * `idem-sim check SCENARIO ...`: run each scenario and test its `expect:` block. Exit 1 if any
 * fails, 2 if a file is invalid: an invalid file among several is reported (stderr, a JUnit
 * error case, JSON `errors`) and the others are still checked, so a CI job always has its
 * report to upload.
 */
import { InputError } from '../scenario/errors.js';
import { say, toolVersion, type Io } from '../io/streams.js';
import { checkResult, type CheckResult } from '../report/check-json.js';
import { checkTexts } from '../report/check-outputs.js';
import type { CheckedScenario, CheckError, CheckReport } from '../report/types.js';
import { checkedRuns, checkError, toolInputs, withExpectations, type CheckInput } from '../report/check-report.js';
import type { CheckFormat } from '../report/check-formats.js';
import type { Given } from './settings/given.js';
import { appendStepSummary } from '../io/step-summary.js';
import { checkTimeRun, warnCoarsened } from './shared/time.js';
import { timeResults } from '../results/time-results.js';
import { sayNotes, scenarioReader, type ScenarioReader } from './shared/load.js';
import { columnNames } from '../scenario/names.js';
import { withOutput } from '../io/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, simulate, threadSetting } from './shared/simulate.js';
import { formatAsked, outputSettings, type OutputOptions, type OutputSettings } from './settings/output.js';
import { scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import { simulationSettings, type SimulationOptions, type SimulationSettings } from './settings/simulation.js';
import type { LoadedAgent } from '../agent/loaded.js';
import { agentReader } from './shared/agent-load.js';

export const EXIT_EXPECTATIONS_FAILED = 1;
/** An invalid scenario file: main.ts's EXIT_BAD_INPUT, returned here because the reports are still written. */
export const EXIT_INVALID_SCENARIO = 2;

/** `check`'s command line as commander parsed it (main.ts declares it); --json: the report as JSON (check-json.ts) instead of the table. */
export interface CheckOptions extends ScenarioOptions, SimulationOptions, OutputOptions {
  junit?: string;
  /** One of CHECK_FORMATS (`--json` is `--format json`). */
  format?: Given<CheckFormat>;
  /** --summary FILE: the Markdown step summary (check-summary.ts) there. */
  summary?: string;
}


/** What `check` is asked, one typed piece for each stage: read, simulate, write. */
export interface CheckSettings {
  scenario: ScenarioSettings;
  simulation: SimulationSettings;
  output: OutputSettings<Given<CheckFormat>>;
  /** --junit FILE: also write JUnit XML there. */
  junit: string | undefined;
  /** --summary FILE: write the Markdown summary there (else, with --format github, where $GITHUB_STEP_SUMMARY names). */
  summary: string | undefined;
}

export function checkSettings(opts: CheckOptions): CheckSettings {
  return { scenario: scenarioSettings(opts), simulation: simulationSettings(opts), output: outputSettings(opts), junit: opts.junit, summary: opts.summary };
}

export async function checkCommand(files: string[], s: CheckSettings, io: Io, signal?: AbortSignal): Promise<number> {
  const format: CheckFormat = formatAsked(s.output.json, s.output.format?.value) ?? 'table';
  if (files.length === 0) {
    throw new InputError(undefined, '', 'no scenario given', 'Name the scenario files to check, such as idem-sim check scenarios/*.yaml.');
  }
  const written = format === 'json' ? 'JSON' : format === 'github' ? 'workflow commands' : 'table';
  for (const [option, what, flag] of [[s.junit, 'JUnit XML', '--junit'], [s.summary, 'Markdown summary', '--summary']] as const) {
    if (option === '-' && (s.output.out === undefined || s.output.out === '-')) {
      throw new InputError({ source: `${flag} -` }, '', `the ${what} and the ${written} would both go to standard output`,
        `Write the ${written} elsewhere with --out FILE, or the ${what} with ${flag} FILE.`);
    }
  }
  // --junit is opened first, then --summary: a bad --out then gives both files back.
  return withOutput(io, s.junit, files, (junit) => withOutput(io, s.summary, files, (summary) => withOutput(io, s.output.out, files, async (out) => {
    // Each file's lab values, noted after the report (docs/scenarios.md, "The lab's values").
    const notes: string[] = [];
    const read = scenarioReader(s.scenario, io, notes, true);
    const readAgent = agentReader(s.scenario, io, notes, true);
    const seed = s.simulation.seed?.value;
    const threads = threadSetting(s.simulation.threads, io);
    const { loaded, errors } = readEach(files, read, readAgent, seed, io);
    const report = await checkEach(withExpectations(loaded, errors, (message) => say(io, message)), errors, seed, threads, io, signal);
    const line = replayLine(files, s.scenario, seed, report.checked);
    const replay = line.text();
    const texts = checkTexts(report, {
      format, version: toolVersion(), replay, jsonReplay: format === 'json' ? line.flag('--json', true).text() : replay, seed, style: out.style(), junit: s.junit !== undefined, summary: s.summary !== undefined,
    });
    out.write(texts.out);
    if (texts.junit !== undefined) junit.write(texts.junit);
    if (s.summary !== undefined) summary.write(texts.markdown as string);
    else if (texts.markdown !== undefined) appendStepSummary(io, texts.markdown);
    const status = EXIT_STATUS[checkResult(report)];
    // An invalid file (or none with goals) fails the command: its errors end what it says, with no note after them.
    if (status !== EXIT_INVALID_SCENARIO) sayNotes(io, notes);
    return status;
  }), '--summary'), '--junit');
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
function readEach(files: readonly string[], read: ScenarioReader, readAgent: (file: string) => LoadedAgent | undefined, seedGiven: string | undefined, io: Io): { loaded: CheckInput[]; errors: CheckError[] } {
  const names = columnNames(files);
  const loaded: CheckInput[] = [];
  const errors: CheckError[] = [];
  for (const [k, file] of files.entries()) {
    const name = names[k] as string;
    try {
      const agent = readAgent(file);
      if (agent) loaded.push(...toolInputs({ agent, seed: runSeed(seedGiven, agent.seed), name: files.length > 1 ? name : agent.name, runs: [] }, file, name, files.length > 1));
      else loaded.push({ file, name, ...read(file) });
    } catch (e) {
      if (!(e instanceof InputError) || e.origin?.source.startsWith('--')) throw e;
      say(io, `error: ${e.message}`);
      errors.push(checkError(name, file, e));
    }
  }
  return { loaded, errors };
}

async function checkEach(
  { checkable, skipped }: { checkable: readonly CheckInput[]; skipped: string[] }, errors: CheckError[],
  seedGiven: string | undefined, threads: (actions: number) => number, io: Io, signal: AbortSignal | undefined,
): Promise<CheckReport> {
  const commandActions = checkable.reduce((sum, l) => sum + l.scenario.actions, 0);
  const checked: CheckedScenario[] = [];
  for (const l of checkable) {
    const seed = l.agent ? l.seed as string : runSeed(seedGiven, l.seed);
    checkTimeRun({ scenario: l.scenario, seed, locate: l.locate });
    const request = { scenario: l.scenario, seed, threads: threads(commandActions) };
    const outcome = await simulate(io, l.name, request, signal);
    warnCoarsened(io, l.name, request, outcome);
    const metrics = outcome.state.finish(l.scenario);
    const { alerts } = timeResults(l.scenario, outcome.state, false);
    checked.push(...checkedRuns(l, seed, { metrics, alerts, duplicated: outcome.state.counter('duplicated') }));
  }
  return { checked, errors, skipped };
}
