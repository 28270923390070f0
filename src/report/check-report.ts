/**
 * `idem-sim check`'s report, entry by entry (types.ts CheckReport): each file read (a scenario,
 * or one tool of an agent file), its error when it could not be read, which files have goals,
 * and each run's verdicts; an agent's own expectations checked on its readings once its last
 * tool has run. Pure: the shell reads the files, runs them and says the messages.
 */
import { checkAgentExpectation } from '../agent/expect.js';
import type { LoadedAgent, ToolRun } from '../agent/loaded.js';
import { toolRunName, toolSeed } from '../agent/loaded.js';
import { isCoupled } from '../model/capacity.js';
import { hasTrigger } from '../results/delivery.js';
import type { Scenario } from '../model/types.js';
import type { AlertSummary } from '../results/alerts.js';
import type { MetricPath } from '../results/metric-paths.js';
import type { Metrics } from '../results/metrics.js';
import { InputError } from '../scenario/errors.js';
import { check } from '../scenario/expect.js';
import type { ParsedScenario, ScenarioWarning } from '../scenario/parse.js';
import { warningTexts } from '../scenario/warning-texts.js';
import { agentRun } from './agent-run.js';
import type { CheckedScenario, CheckError, CheckWarning } from './types.js';

/**
 * A file read for checking: a scenario, or one tool of an agent file (`agent`: which, and the
 * tool's index; its seed is the tool's own already). Every tool of an agent runs when the agent
 * or one of its tools has expectations: the agent's readings need them all.
 */
export type CheckInput = Pick<ParsedScenario<Scenario>, 'scenario' | 'seed' | 'expectations' | 'warnings' | 'locate'> & { file: string; name: string; agent?: { of: AgentEntry; tool: number } };
/** An agent file being checked: its seed (--seed, else the file's), its name in the report, and its tools' runs so far. */
export interface AgentEntry { agent: LoadedAgent; seed: string; name: string; runs: ToolRun[] }

/** An agent file's tools as the files checked, `name` the file's label (`several`: the command was given several files). */
export function toolInputs(of: AgentEntry, file: string, name: string, several: boolean): CheckInput[] {
  const { agent } = of;
  // Tools without expectations of their own still run when the agent has some (their readings are the agent's).
  const needed = agent.expectations.length > 0 || agent.tools.some((t) => t.parsed.expectations.length > 0);
  return agent.tools.map((t, tool): CheckInput => ({
    file, name: toolRunName(name, t.name, several), scenario: t.scenario, seed: toolSeed(of.seed, t.name),
    expectations: needed ? t.parsed.expectations : [], warnings: [], ...(t.parsed.locate ? { locate: t.parsed.locate } : {}), agent: { of, tool },
  }));
}

/** A file that could not be read, as the reports list it. */
export function checkError(name: string, file: string, e: InputError): CheckError {
  const { origin, keyPath } = e;
  return {
    name, file, message: e.message,
    ...(origin ? { source: origin.source } : {}), ...(origin?.line !== undefined ? { line: origin.line } : {}), ...(keyPath ? { key: keyPath } : {}),
  };
}

/**
 * The files that have goals: a glob such as scenarios/*.yaml takes in others, which are skipped,
 * saying so (`say`). None with goals is an error of each file (unless files were invalid,
 * reported already), added to `errors` like any invalid file's.
 */
export function withExpectations(all: readonly CheckInput[], errors: CheckError[], say: (message: string) => void): { checkable: CheckInput[]; skipped: string[] } {
  const checkable = all.filter(hasGoals);
  if (checkable.length === 0 && errors.length === 0) {
    // Nothing to check is an error of each file (once: an agent file is read as its tools), so the
    // JUnit file and --json still say so to CI.
    const files = new Map<string, CheckInput>();
    for (const l of all) if (!files.has(l.file)) files.set(l.file, l);
    for (const l of files.values()) {
      const e = new InputError({ source: l.file }, 'expect', 'has no expectations to check', 'Add an expect: block, for example expect: {duplicates_per_1000: "<= 0.5"}.');
      say(`error: ${e.message}`);
      errors.push(checkError(l.agent ? l.agent.of.name : l.name, l.file, e));
    }
    return { checkable: [], skipped: [] };
  }
  const skipped = [...new Set(all.filter((l) => !hasGoals(l)).map((l) => l.file))];
  for (const file of skipped) say(`skipped ${file}: it has no expect: block`);
  return { checkable, skipped };
}

/** Whether a file read has goals to check: its own, or (a tool) its agent's. */
const hasGoals = (l: CheckInput): boolean => l.expectations.length > 0
  || (l.agent !== undefined && (l.agent.of.agent.expectations.length > 0 || l.agent.of.agent.tools.some((t) => t.parsed.expectations.length > 0)));

/**
 * What a run of `l` (on `seed`) adds to the report: its verdicts when it has expectations, and
 * for an agent's last tool the agent's own, checked on its readings.
 */
export function checkedRuns(l: CheckInput, seed: string, run: { metrics: Metrics; alerts: readonly AlertSummary[] | undefined; duplicated: ToolRun['duplicated'] }): CheckedScenario[] {
  const { metrics, alerts } = run;
  const checked: CheckedScenario[] = [];
  if (l.expectations.length > 0) {
    checked.push({
      name: l.name, file: l.file, seed, actions: metrics.actions, warnings: placed(l.warnings), verdicts: l.expectations.map((e) => check(e, metrics, alerts)), coupled: isCoupled(l.scenario),
      ...(hasTrigger(l.scenario) ? { triggered: true as const } : {}),
    });
  }
  const a = l.agent;
  if (a) {
    a.of.runs.push({ run: l.name, metrics, duplicated: run.duplicated });
    if (a.tool === a.of.agent.tools.length - 1 && a.of.agent.expectations.length > 0) checked.push(agentChecked(a.of, l.file));
  }
  return checked;
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
