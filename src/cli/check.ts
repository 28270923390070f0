/**
 * `idem-sim check SCENARIO ...`: run each scenario and test its `expect:` block. Exit 1 if any
 * fails, 2 if a file is invalid: an invalid file among several is reported (stderr, a JUnit
 * error case, JSON `errors`) and the others are still checked, so a CI job always has its
 * report to upload.
 */
import { isCoupled } from '../model/capacity.js';
import { check } from '../scenario/expect.js';
import { InputError } from '../scenario/errors.js';
import { say, toolVersion, type Io } from './io.js';
import { checkResult, renderCheckJson, type CheckResult } from '../report/check-json.js';
import { renderJunit } from '../report/junit.js';
import type { CheckedScenario, CheckError, CheckReport, CheckWarning } from '../report/types.js';
import type { CheckFormat } from '../report/check-formats.js';
import { renderCheckSummary } from '../report/check-summary.js';
import { renderWorkflowCommands } from '../report/github.js';
import type { ScenarioWarning } from '../scenario/parse.js';
import type { Given } from './settings/given.js';
import { appendStepSummary } from './step-summary.js';
import { renderVerdicts } from '../report/verdicts.js';
import { checkTimeRun, warnCoarsened } from './shared/time.js';
import { timeResults } from '../results/time-results.js';
import { sayNotes, scenarioReader, warningTexts, type LoadedScenario, type ScenarioReader } from './shared/load.js';
import { columnNames } from '../scenario/names.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, simulate, threadSetting } from './shared/simulate.js';
import { outputSettings, type OutputOptions, type OutputSettings } from './settings/output.js';
import { scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import { simulationSettings, type SimulationOptions, type SimulationSettings } from './settings/simulation.js';
import { agentReader, agentRun, toolRunName, toolSeed, type LoadedAgent, type ToolRun } from './shared/agent-load.js';
import { checkAgentExpectation } from '../agent/expect.js';
import type { MetricPath } from '../results/metric-paths.js';

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

/** What --format and --json ask: `--json` is `--format json`, and refused beside another format. */
function checkFormat(s: CheckSettings['output']): CheckFormat {
  const format = s.format?.value;
  if (s.json && format !== undefined && format !== 'json') {
    throw new InputError({ source: '--json' }, '', `cannot be combined with --format ${format}`, `Give --json alone for the JSON report, or --format ${format} alone.`);
  }
  return s.json ? 'json' : format ?? 'table';
}

/**
 * A file read for checking: a scenario, or one tool of an agent file (`agent`: which, and the
 * tool's index; its seed is the tool's own already). Every tool of an agent runs when the agent
 * or one of its tools has expectations: the agent's readings need them all.
 */
type Loaded = Pick<LoadedScenario, 'scenario' | 'seed' | 'expectations' | 'warnings' | 'locate'> & { file: string; name: string; agent?: { of: AgentEntry; tool: number } };
interface AgentEntry { agent: LoadedAgent; seed: string; name: string; runs: ToolRun[] }

export async function checkCommand(files: string[], s: CheckSettings, io: Io, signal?: AbortSignal): Promise<number> {
  const format = checkFormat(s.output);
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
    const read = scenarioReader(s.scenario, io, notes);
    const readAgent = agentReader(s.scenario, io, notes);
    const seed = s.simulation.seed?.value;
    const threads = threadSetting(s.simulation.threads, io);
    const { loaded, errors } = readEach(files, read, readAgent, seed, io);
    const report = await checkEach(withExpectations(loaded, errors, io), errors, seed, threads, io, signal);
    const line = replayLine(files, s.scenario, seed, report.checked);
    const version = toolVersion();
    const footer = `seed ${[...new Set(report.checked.map((c) => c.seed))].join(', ')}; idem-sim ${version}; replay: ${line.text()}`;
    if (format === 'json') {
      out.write(renderCheckJson(report, { version, replay: line.flag('--json', true).text() }, seed));
    } else {
      // Nothing checked: the errors on stderr (and GitHub's annotations) are the whole answer.
      const table = report.checked.length > 0 ? renderVerdicts(report, out.style(), footer) : '';
      out.write(format === 'github' ? `${table}${renderWorkflowCommands(report, line.text())}` : table);
    }
    if (s.junit !== undefined) junit.write(renderJunit(report, version));
    const markdown = s.summary !== undefined || format === 'github' ? renderCheckSummary(report, footer) : undefined;
    if (s.summary !== undefined) summary.write(markdown as string);
    else if (markdown !== undefined) appendStepSummary(io, markdown);
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
function readEach(files: readonly string[], read: ScenarioReader, readAgent: (file: string) => LoadedAgent | undefined, seedGiven: string | undefined, io: Io): { loaded: Loaded[]; errors: CheckError[] } {
  const names = columnNames(files);
  const loaded: Loaded[] = [];
  const errors: CheckError[] = [];
  for (const [k, file] of files.entries()) {
    const name = names[k] as string;
    try {
      const agent = readAgent(file);
      if (agent) {
        const of: AgentEntry = { agent, seed: runSeed(seedGiven, agent.seed), name: files.length > 1 ? name : agent.name, runs: [] };
        // Tools without expectations of their own still run when the agent has some (their readings are the agent's).
        const needed = agent.expectations.length > 0 || agent.tools.some((t) => t.parsed.expectations.length > 0);
        loaded.push(...agent.tools.map((t, tool): Loaded => ({
          file, name: toolRunName(name, t.name, files.length > 1), scenario: t.scenario, seed: toolSeed(of.seed, t.name),
          expectations: needed ? t.parsed.expectations : [], warnings: [], ...(t.parsed.locate ? { locate: t.parsed.locate } : {}), agent: { of, tool },
        })));
      } else {
        loaded.push({ file, name, ...read(file) });
      }
    } catch (e) {
      if (!(e instanceof InputError) || e.origin?.source.startsWith('--')) throw e;
      say(io, `error: ${e.message}`);
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
  const checkable = all.filter(hasGoals);
  if (checkable.length === 0 && errors.length === 0) {
    // Nothing to check is an error of each file, so the JUnit file and --json still say so to CI.
    for (const l of all) {
      const e = new InputError({ source: l.file }, 'expect', 'has no expectations to check', 'Add an expect: block, for example expect: {duplicates_per_1000: "<= 0.5"}.');
      say(io, `error: ${e.message}`);
      errors.push(checkError(l.name, l.file, e));
    }
    return { checkable: [], skipped: [] };
  }
  const skipped = [...new Set(all.filter((l) => !hasGoals(l)).map((l) => l.file))];
  for (const file of skipped) say(io, `skipped ${file}: it has no expect: block`);
  return { checkable, skipped };
}

/** Whether a file read has goals to check: its own, or (a tool) its agent's. */
const hasGoals = (l: Loaded): boolean => l.expectations.length > 0
  || (l.agent !== undefined && (l.agent.of.agent.expectations.length > 0 || l.agent.of.agent.tools.some((t) => t.parsed.expectations.length > 0)));

async function checkEach(
  { checkable, skipped }: { checkable: readonly Loaded[]; skipped: string[] }, errors: CheckError[],
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
    if (l.expectations.length > 0) {
      checked.push({
        name: l.name, file: l.file, seed, actions: metrics.actions, warnings: placed(l.warnings), verdicts: l.expectations.map((e) => check(e, metrics, alerts)), coupled: isCoupled(l.scenario),
      });
    }
    const a = l.agent;
    if (a) {
      a.of.runs.push({ run: l.name, metrics, duplicated: outcome.state.counter('duplicated') });
      if (a.tool === a.of.agent.tools.length - 1 && a.of.agent.expectations.length > 0) checked.push(agentChecked(a.of, l.file));
    }
  }
  return { checked, errors, skipped };
}

/** An agent's own expectations, checked on its readings (its tools' runs summed), as a check of their own named by the agent. */
function agentChecked(of: AgentEntry, file: string): CheckedScenario {
  const run = agentRun(of.agent, of.seed, of.runs, warningTexts(of.agent.warnings));
  return {
    // The agent's warnings as the run's (their texts), each with its place and kind.
    name: of.name, file, seed: of.seed, actions: of.runs.reduce((n, r) => n + r.metrics.actions, 0), warnings: placed(of.agent.warnings), coupled: false,
    // A verdict names its reading as expect: does (agent.READING): the reports print it as they print a metric.
    verdicts: of.agent.expectations.map((e) => {
      const v = checkAgentExpectation(e, run.readings);
      return { ...v, expectation: { metric: `agent.${e.reading}` as MetricPath, op: e.op, threshold: e.threshold, text: e.text, confidence: e.confidence, origin: e.origin } };
    }),
  };
}

/** Each warning's text (as on stderr) with the place it names, for an annotation at that line. */
function placed(warnings: readonly ScenarioWarning[]): CheckWarning[] {
  return warningTexts(warnings).map((text, k) => {
    const origin = warnings[k]?.origin;
    const kind = warnings[k]?.kind;
    return { text, ...(origin ? { source: origin.source } : {}), ...(origin?.line !== undefined ? { line: origin.line } : {}), ...(kind ? { kind } : {}) };
  });
}
