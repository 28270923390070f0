/**
 * The lab's engine: what `idem-sim run FILE --set ... --seed S --json` does with a scenario,
 * on one thread (the same chunks, streams and sums: the same numbers), plus the report's action
 * timeline and the checks of the file's `expect:` block. Pure: the page's Web Worker calls it,
 * and so do the tests, in Node.
 */
import { RUNAWAY_WORK } from '../engine/runaway.js';
import { loadLatencyData } from '../model/latency.js';
import type { HistogramBucket } from '../model/latency/histogram-data.js';
import type { HistogramSpec } from '../model/latency/histogram.js';
import { runAlerts, seriesStepOf } from '../results/alerts.js';
import { simulate, type RunResult as SimulatedRun } from '../exec/simulate.js';
import { gridStepFor } from '../engine/grid.js';
import { runPlans } from '../engine/plan.js';
import { SERIES_OVERFLOW } from '../engine/series-tally.js';
import { SaturationTally } from '../engine/coupled/saturation.js';
import { isCoupled } from '../model/capacity.js';
import { traceActions } from '../engine/trace.js';
import type { Scenario } from '../model/types.js';
import { formatInputError, InputError } from '../scenario/errors.js';
import { formatDuration } from '../scenario/duration.js';
import { check } from '../scenario/expect.js';
import { checkArrivals } from '../scenario/time-checks.js';
import { formatPath, parseScenario, type ParsedScenario } from '../scenario/parse.js';
import { seedOption } from '../scenario/seed.js';
import { roundNoise } from '../report/json.js';
import { DEFAULT_LIMITS, runsWords, sampleRows, UNTRACED_CAPTION, untraced, type TimelineSample } from '../report/timeline-rows.js';
import { timelineSvg } from '../report/timeline-svg.js';
import { saturationParagraph } from '../report/saturation-text.js';
import { num } from '../report/format.js';
import type { LabError, Loaded, RunRequest, RunResult, ScenarioInput } from './protocol.js';
import { scenarioYaml } from './scenario-yaml.js';
import { histogramKey, uncarried } from './histogram-files.js';
import { latencyDataWarnings } from '../ingest/data-warnings.js';
import { chartStep, cliMetrics, coarser, timeView } from './time-view.js';

/** The seed the CLI would use: `--seed` as given (checked as the CLI checks it). */
function checkedSeed(seed: string): string {
  return seedOption(seed) ?? seed;
}

/** The scenario with its data files' contents, as `idem-sim lab` read them. */
function withData(parsed: ParsedScenario, { data, histograms }: Pick<ScenarioInput, 'data' | 'histograms'>): Scenario {
  const read = (file: string, keyPath: readonly (string | number)[]): readonly number[] => {
    const values = Object.hasOwn(data, file) ? data[file] : undefined;
    if (values) return values;
    throw new InputError(parsed.locate?.(keyPath), formatPath(keyPath), `the page holds no values for the empirical latency file "${file}"`,
      'Make the page with `idem-sim lab` on the scenario that names this file, so that it carries the file\'s values.');
  };
  const readHistogram = (spec: Omit<HistogramSpec, 'values'> & { file: string }, keyPath: readonly (string | number)[]): HistogramBucket[] => {
    const key = histogramKey(spec);
    const buckets = Object.hasOwn(histograms, key) ? histograms[key] : undefined;
    if (buckets) return uncarried(buckets);
    throw new InputError(parsed.locate?.(keyPath), formatPath(keyPath), `the page holds no buckets for the latency histogram file "${spec.file}"${spec.metric === null ? '' : ` (metric ${spec.metric})`}`,
      'Make the page with `idem-sim lab` on the scenario that names this file and metric, so that it carries the buckets, or write the buckets in the scenario (idem-sim fit FILE prints them).');
  };
  const s = parsed.scenario;
  return { ...s, service: { ...s.service, latency: loadLatencyData(s.service.latency, ['service', 'latency'], read, readHistogram) } };
}

/** The scenario file alone and with the overrides, to set the knobs. */
export function labLoad(input: ScenarioInput, id = 0): Loaded {
  checkedSeed(input.seed);
  const base = parseScenario(input.text, input.source);
  const start = input.overrides.length === 0 ? base : parseScenario(input.text, input.source, input.overrides);
  return { kind: 'loaded', id, base: base.scenario, start: start.scenario, ...(base.seed === undefined ? {} : { fileSeed: base.seed }) };
}

/** The timeline's rows: the run's first chunk simulated again, traced (as `idem-sim report` does). */
function timelineSample(scenario: Scenario, seed: string): TimelineSample {
  const plan = runPlans(scenario, seed, 0, 1).next().value;
  if (!plan) throw new Error('a run has at least one chunk');
  const actions = traceActions(scenario, gridStepFor(scenario), seed, plan);
  return actions === null ? untraced() : sampleRows(actions, plan.offset, scenario.client.timeout, DEFAULT_LIMITS);
}

/** What the timeline's rows are, in words. */
export function sampleNote(sample: TimelineSample): string {
  if (sample.omitted !== undefined) return sample.omitted;
  const head = `${num(sample.shown)} of the ${num(sample.simulated)} actions of the run's first chunk${runsWords(sample)}`;
  if (sample.eventful === 0) return `${head}; none had anything happen to it beyond one attempt, one reply and one execution.`;
  const share = (100 * sample.eventful / sample.simulated).toFixed(1);
  return `${head}: ${num(sample.shownEventful)} of the ${num(sample.eventful)} (${share}%) that had something happen to them, labelled with what happened (over-represented), and ${num(sample.shownQuiet)} quiet ones for scale.`;
}

/** What the key-store figure is made of. */
function keyStoreNote({ load, idempotency }: Scenario): string {
  return `Steady state at load.rate_per_s ${num(load.rate_per_s)}/s with idempotency.retention ${formatDuration(idempotency.retention)} and ${num(idempotency.record_bytes)} bytes a record: keys = keys per action × rate × retention.`;
}

/**
 * A run with workers also counts its saturated time in the series' buckets (the chart of
 * saturated_share over time), summed into the series' longer step where its backlog outlasted
 * the buckets of `step` (engine/series-tally.ts).
 */
function tallied(scenario: Scenario, seed: string, step: number | null): { run: SimulatedRun; saturatedMs: readonly number[] | null } {
  const tally = step !== null && isCoupled(scenario) && scenario.service.capacity !== null ? new SaturationTally(step) : undefined;
  const run = simulate(scenario, seed, step, tally);
  if (!tally) return { run, saturatedMs: null };
  const k = (run.series?.step ?? tally.step) / tally.step;
  const saturatedMs = k === 1 ? tally.ms : Array.from({ length: Math.ceil(tally.ms.length / k) }, (_, b) => tally.ms.slice(b * k, (b + 1) * k).reduce((a, x) => a + x, 0));
  return { run, saturatedMs };
}

/**
 * The run, its series counted in the page's buckets (`chartStep`); should a run's last event
 * fall past them (a latency's tail), or a coupled run's backlog make its series' step one the
 * CLI's cannot be summed from, in the CLI's (or none, where the CLI counts none).
 */
function simulated(scenario: Scenario, seed: string, cliStep: number | null): ReturnType<typeof tallied> {
  const step = chartStep(scenario, cliStep);
  let first: ReturnType<typeof tallied>;
  try {
    first = tallied(scenario, seed, step);
  } catch (e) {
    if (!(e instanceof Error && e.message.startsWith(SERIES_OVERFLOW)) || step === cliStep) throw e;
    return tallied(scenario, seed, cliStep);
  }
  const got = first.run.series?.step;
  return got === undefined || cliStep === null || cliStep % got === 0 || got % cliStep === 0 ? first : tallied(scenario, seed, cliStep);
}

/** One run of the page: the CLI's numbers for the same file, overrides and seed. */
export function labRun(req: RunRequest): RunResult {
  const started = performance.now();
  const seed = checkedSeed(req.seed);
  const parsed = parseScenario(req.text, req.source, req.overrides);
  const scenario = withData(parsed, req);
  checkArrivals(scenario, seed, parsed.locate);
  // Alerts are judged on the CLI's series, as `check` judges them (1-minute buckets): the page's summed (time-view.ts).
  const cliStep = seriesStepOf(scenario, undefined);
  const { run, saturatedMs } = simulated(scenario, seed, cliStep);
  const cliSeries = run.series && cliStep !== null ? coarser(run.series, Math.max(cliStep, run.series.step)) : null;
  const metrics = cliMetrics(run, cliSeries);
  const alerts = cliSeries ? runAlerts(scenario, cliSeries) : undefined;
  const sample = timelineSample(scenario, seed);
  const caption = `${req.command}  ·  idem-sim ${req.version}  ·  ${sample.omitted !== undefined ? UNTRACED_CAPTION : `${num(sample.shown)} of ${num(sample.simulated)} actions${runsWords(sample)}, eventful ones over-represented`}`;
  return {
    kind: 'result', id: req.id,
    metrics: JSON.parse(JSON.stringify(metrics, roundNoise)) as Record<string, unknown>,
    timeline: timelineSvg(sample.rows, scenario.client.timeout, caption),
    saturation: saturationParagraph(metrics, run.scenario),
    time: run.series ? timeView(run.scenario, run.series, alerts, metrics, saturatedMs) : null,
    stories: sample.rows.map((r) => r.story),
    sampleNote: sampleNote(sample),
    keyStoreNote: keyStoreNote(scenario),
    goals: parsed.expectations.map((e) => {
      const verdict = check(e, metrics, alerts);
      return { metric: e.metric, text: e.text, pass: verdict.pass, value: verdict.measured.value };
    }),
    // The file's warnings and its latency data's (a histogram's observations above its highest bound), as run prints them.
    warnings: [...parsed.warnings, ...latencyDataWarnings(scenario.service.latency, ['service', 'latency'], parsed.locate)]
      .map((w) => formatInputError(w.origin, w.keyPath, w.problem, w.fix)),
    yaml: scenarioYaml(req, parsed.seed),
    elapsedMs: Math.round((performance.now() - started) * 10) / 10,
  };
}

/** A refused input as the page shows it; anything else is a bug, and is thrown on. */
export function labError(e: unknown): LabError {
  if (e instanceof InputError) return { message: e.message, keyPath: e.keyPath, source: e.origin?.source ?? '' };
  if (e instanceof Error && e.message.startsWith(RUNAWAY_WORK)) return { message: e.message, keyPath: '', source: '' }; // the input's, as the command line reads it
  throw e;
}
