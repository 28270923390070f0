/**
 * `idem-sim alerts SCENARIO`: the scenario's alerts as Prometheus rules (docs/prometheus-rules.md):
 * a table for a person, a rule group for Prometheus, or a `promtool test rules` file that runs
 * the rules on the simulated series and expects the simulated firings.
 */
import { SERIES_NAMES, type SeriesName } from '../model/series.js';
import { ALERT_FORMATS, type AlertFormat } from '../report/alert-formats.js';
import { renderAlertsTable } from '../report/alerts-table.js';
import { prometheusAlerts, renderRuleGroup, type PrometheusAlert } from '../report/prometheus-rules.js';
import { renderPromtoolTest } from '../report/promtool-test.js';
import { besideNote, besideTest, refuseLargeTest, sha256, type RulesBeside } from '../report/promtool-rules.js';
import { metricNaming, refuseNoAlerts, ruleStep, unusedAlertOptions } from '../report/rules-asked.js';
import { InputError } from '../scenario/errors.js';
import { clipped, hasUnprintable } from '../scenario/printable.js';
import { scenarioName } from '../scenario/names.js';
import { keptRules, rulesBesideTest } from './alerts-rules.js';
import { toolVersion, warn, type Io } from '../io/streams.js';
import { oneOf } from './options.js';
import { scenarioReader, type LoadedScenario } from './shared/load.js';
import { withOutput, type ReportOutput } from '../io/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, simulate, threadSetting } from './shared/simulate.js';
import { checkTimeRun, coarsenedRefusal } from './shared/time.js';
import { Given } from './settings/given.js';
import { outputSettings, type OutputOptions, type OutputSettings } from './settings/output.js';
import { scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import { simulationSettings, type SimulationOptions, type SimulationSettings } from './settings/simulation.js';

/**
 * `alerts`'s command line as commander parsed it (main.ts declares it): --format, --metric and
 * --label as their texts, each read once by `alertsSettings`.
 */
export interface AlertsOptions extends ScenarioOptions, SimulationOptions, OutputOptions {
  format?: string;
  /** `--series STEP`: the buckets the alerts are judged on (ms). */
  series?: Given<number>;
  metric?: readonly string[];
  label?: readonly string[];
  /** `--rules FILE`: the rule file a promtool test reads. */
  rules?: string;
}

/** What `alerts` is asked: read, translate, (for the test file) simulate, write. */
export interface AlertsSettings {
  scenario: ScenarioSettings;
  simulation: SimulationSettings;
  output: OutputSettings<Given<AlertFormat>>;
  series: Given<number> | undefined;
  metric: readonly Given<readonly [SeriesName, string]>[];
  label: readonly Given<readonly [string, string]>[];
  rules: string | undefined;
}

export function alertsSettings(opts: AlertsOptions): AlertsSettings {
  const { format, metric = [], label = [], ...rest } = opts;
  const formatGiven = format === undefined ? undefined : Given.parse(format, (text) => oneOf('--format', text, ALERT_FORMATS) as AlertFormat); // oneOf checked it
  return {
    scenario: scenarioSettings(rest), simulation: simulationSettings(rest), output: outputSettings({ ...rest, ...(formatGiven ? { format: formatGiven } : {}) }),
    series: rest.series, metric: metric.map((t) => Given.parse(t, metricOption)), label: label.map((t) => Given.parse(t, labelOption)), rules: rest.rules,
  };
}

/** A Prometheus metric name (the data model's `[a-zA-Z_:][a-zA-Z0-9_:]*`). */
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
/** A label name (`[a-zA-Z_][a-zA-Z0-9_]*`; names beginning with `__` are Prometheus's own). */
const LABEL_NAME = /^(?!__)[a-zA-Z_][a-zA-Z0-9_]*$/;
/** The longest label value or metric name taken: a selector is for reading, not for carrying data. */
const MAX_NAME = 200;

/** `--metric SERIES=NAME`: the counter a series count is read from. */
export function metricOption(text: string): readonly [SeriesName, string] {
  const [series, name] = splitPair('--metric', 'SERIES=NAME', text);
  const count = oneOf('--metric', series, SERIES_NAMES) as SeriesName; // oneOf checked it
  if (!METRIC_NAME.test(name) || name.length > MAX_NAME) {
    throw new InputError({ source: `--metric ${text}` }, '', `"${clipped(name, 80)}" is not a Prometheus metric name`,
      `Give a name of letters, digits, _ and : (not beginning with a digit), at most ${MAX_NAME} characters, such as --metric ${count}=myapp_${count}_total.`);
  }
  return [count, name];
}

/** `--label NAME=VALUE`: a label the rules select the service's series by. */
export function labelOption(text: string): readonly [string, string] {
  const [name, value] = splitPair('--label', 'NAME=VALUE', text);
  if (!LABEL_NAME.test(name) || name.length > MAX_NAME) {
    throw new InputError({ source: `--label ${clipped(text, 80)}` }, '', `"${clipped(name, 80)}" is not a label name`,
      'Give a name of letters, digits and _ (not beginning with a digit or __), then = and the value, such as --label tool=refund.');
  }
  if (value.length > MAX_NAME || hasUnprintable(value)) {
    throw new InputError({ source: `--label ${clipped(text, 80)}` }, '', `the value of ${name} is ${value.length > MAX_NAME ? `${value.length} characters long` : 'not printable (it holds a control or invisible character)'}`,
      `Give a value of at most ${MAX_NAME} printable characters, such as --label ${name}=refund.`);
  }
  return [name, value];
}

/** `a=b` split at its first `=`; `flag`'s `form` (`SERIES=NAME`) is refused without one. */
function splitPair(flag: string, form: string, text: string): [string, string] {
  const at = text.indexOf('=');
  if (at < 0) throw new InputError({ source: `${flag} ${clipped(text, 80)}` }, '', `is not ${form}`, `Give ${flag} ${form}, such as ${flag} ${flag === '--label' ? 'tool=refund' : 'dedup_hits=myapp_replays_total'}.`);
  return [text.slice(0, at), text.slice(at + 1)];
}

export async function alertsCommand(file: string, s: AlertsSettings, io: Io, signal?: AbortSignal): Promise<number> {
  return withOutput(io, s.output.out, [file], async (out) => {
    const format = s.output.format?.value ?? 'table';
    const step = ruleStep(s.series);
    const naming = metricNaming(s.metric, s.label);
    const threads = threadSetting(s.simulation.threads, io);
    for (const text of unusedAlertOptions(format, { seed: s.simulation.seed !== undefined, threads: s.simulation.threads !== undefined, rules: s.rules !== undefined })) warn(io, text);
    // The rules a test reads, written beside it: opened with it, before any input is read (none may be overwritten).
    const beside = format === 'promtool-test' && s.rules === undefined ? rulesBesideTest(out.regularFile(), s.output.out) : undefined;
    return withOutput(io, beside?.path, [file], async (rulesOut) => {
      const loaded = scenarioReader(s.scenario, io)(file);
      const name = scenarioName(file);
      refuseNoAlerts(file, loaded.scenario);
      const rules = prometheusAlerts(loaded.scenario.alerts, step, naming, name);
      if (format === 'table') out.write(renderAlertsTable(rules, loaded.scenario.alerts, step, out.style()));
      else if (format === 'prometheus') out.write(renderRuleGroup(rules, `idem-sim ${name}`, step, toolVersion()));
      else await writeTest(out, { file, name, loaded, rules, step, s, threads, out: out.regularFile(), beside: beside && { ...beside, out: rulesOut } }, io, signal);
      return 0;
    });
  });
}

interface TestJob {
  file: string;
  name: string;
  loaded: LoadedScenario;
  rules: PrometheusAlert[];
  step: number;
  s: AlertsSettings;
  threads: (actions: number) => number;
  /** --out as given, when it names a regular file. */
  out: string | undefined;
  /** Without --rules: the rule file written beside the test, and where it goes. */
  beside: (RulesBeside & { out: ReportOutput }) | undefined;
}

/**
 * The test file and the rules it reads, a pair (alerts-rules.ts): --rules FILE checked against
 * the rules this command makes; else the rules written beside the test, both files or neither.
 */
async function writeTest(out: ReportOutput, job: TestJob, io: Io, signal: AbortSignal | undefined): Promise<void> {
  const { name, rules, step, s, beside } = job;
  const ours = renderRuleGroup(rules, `idem-sim ${name}`, step, toolVersion());
  if (beside === undefined) {
    const given = s.rules as string; // without it, alertsCommand planned the rules beside the test
    const kept = keptRules(given, job.out, ours, commandLine(job).option('--format', 'prometheus').option('--out', besideTest(job.out, given)).text());
    out.write(await testText(job, given, sha256(kept), io, signal));
    return;
  }
  out.writeWith(await testText(job, beside.name, sha256(ours), io, signal), beside.out, ours);
  io.stderr.write(besideNote(beside, ours));
}

/** `idem-sim alerts SCENARIO` and the options that decide the rules (--set, --actions, --series, --metric, --label), and the seed when given. */
const commandLine = ({ file, s }: TestJob, seed?: string) => new ReplayLine('alerts', [file], s.scenario).overrides(s.scenario).option('--seed', seed)
  .given('--series', s.series).each('--metric', s.metric.map((g) => g.text)).each('--label', s.label.map((g) => g.text));

/** Simulates the scenario on the step, then the test file's text, reading `rulesFile` (refused when it would hold too many entries). */
async function testText(job: TestJob, rulesFile: string, rulesSha256: string, io: Io, signal: AbortSignal | undefined): Promise<string> {
  const { file, name, loaded, rules, step, s } = job;
  const seed = runSeed(s.simulation.seed?.value, loaded.seed);
  const scenario = loaded.scenario;
  // Without --series, the scenario's alerts ask for the step (results/alerts.ts, seriesStepOf), and the checks say so.
  checkTimeRun({ scenario, seed, locate: loaded.locate, ...(s.series ? { seriesStep: step } : {}) }, s.series?.text);
  const request = { scenario, seed, threads: job.threads(scenario.actions), seriesStep: step };
  const outcome = await simulate(io, name, request, signal);
  const series = outcome.state.series();
  if (series === null) throw new Error('a run with a series step counted no series');
  // The rules were made for the step: a run whose backlog made its series' step longer (series-tally.ts) cannot be their test.
  if (series.step !== step) throw coarsenedRefusal(file, name, step, series);
  refuseLargeTest(file, rules.length, series);
  // The line that writes the file again, with --out: it places the rule file beside the test, or where --rules is read from.
  const replay = commandLine(job, seed).option('--format', 'promtool-test').option('--rules', s.rules).option('--out', job.out).text();
  return renderPromtoolTest(rulesFile, rules, scenario.alerts, series, { scenario: name, seed, version: toolVersion(), rulesSha256, replay });
}
