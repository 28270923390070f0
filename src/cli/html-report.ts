/**
 * `idem-sim report [SCENARIO]`: one self-contained HTML page (headline metrics, the
 * duplicate breakdown, the run over time when it counts a series, the action timeline), or
 * with `--svg` the timeline alone; `--at` centres the timeline on a time of the run.
 */
import { stringify } from 'yaml';
import { ALERT_STEP_MS } from '../results/alerts.js';
import { withPrimaries } from '../model/clock.js';
import type { Metrics } from '../results/metrics.js';
import { runPlans } from '../engine/plan.js';
import { traceActions } from '../engine/trace.js';
import type { Scenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { toolVersion, type Io } from './io.js';
import { breakdownChart } from '../report/charts.js';
import { escapeHtml, htmlPage } from '../report/html.js';
import { HEADLINE_STYLE, headlineTable } from '../report/html-headline.js';
import { saturationParagraph } from '../report/saturation-text.js';
import { STORY_SCRIPT, STORY_STYLE, storyPanel } from '../report/story-panel.js';
import { resolvedScenario } from '../report/json.js';
import { duration, num } from '../report/format.js';
import { focusWords, nearestActions, numberedInRun, timelineFocus, type Focus } from '../report/time-focus.js';
import { TIME_STYLE, timeSection } from '../report/time-section.js';
import { clock, DEFAULT_LIMITS, sampleRows, type TimelineSample } from '../report/timeline-rows.js';
import { timelineSvg } from '../report/timeline-svg.js';
import { sayNotes, scenarioReader, type LoadedScenario } from './shared/load.js';
import { scenarioName } from '../scenario/names.js';
import { agentReader } from './shared/agent-load.js';
import { pickTool, refuseToolOfScenario } from './shared/agent-tool.js';
import { agentReportPage } from './report-agent.js';
import { terminalDefault, withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, simulate, threadSetting } from './shared/simulate.js';
import { checkSeriesLength, warnCoarsened } from './shared/time.js';
import type { Given } from './settings/given.js';
import { outputSettings, type OutputOptions, type OutputSettings } from './settings/output.js';
import { scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import { simulationSettings, type SimulationOptions, type SimulationSettings } from './settings/simulation.js';
import { timeResults } from '../results/time-results.js';
import { checkArrivals } from '../scenario/time-checks.js';

/** Most rows `--rows` may ask for: about 1 KB a row keeps a page under about 2 MB. */
const MAX_ROWS = 2000;

/**
 * With --at, the actions the timeline samples from: this many groups per row it may show,
 * nearest the time (about 5 s of arrivals at 50/s for the default rows): enough for the
 * eventful ones to be chosen among, few enough that they all arrive close to it.
 */
const NEAR_GROUPS_PER_ROW = 4;

/** `report`'s command line as commander parsed it (main.ts declares it); --svg: the timeline alone. */
export interface ReportOptions extends ScenarioOptions, SimulationOptions, OutputOptions {
  rows?: Given<number>;
  /** `--series STEP`: the run's series in buckets of STEP (ms), drawn in "Over time". */
  series?: Given<number>;
  /** `--at TIME`: the action timeline centred on this time of the run (read against the scenario: report/time-focus.ts). */
  at?: string;
  /** `--tool NAME`: one tool of an agent file, its full report. */
  tool?: string;
}

/** What `report` is asked, one typed piece for each stage: read, simulate, draw, write. */
export interface ReportSettings {
  scenario: ScenarioSettings;
  simulation: SimulationSettings;
  output: OutputSettings<never>;
  /** --rows: the most timeline rows for eventful actions. */
  rows: Given<number> | undefined;
  series: Given<number> | undefined;
  at: string | undefined;
  /** --tool: of an agent file, this tool's full page (without it, the agent's page). */
  tool: string | undefined;
}

export function reportSettings(opts: ReportOptions): ReportSettings {
  return { scenario: scenarioSettings(opts), simulation: simulationSettings(opts), output: outputSettings(opts), rows: opts.rows, series: opts.series, at: opts.at, tool: opts.tool };
}

const STYLE = `${HEADLINE_STYLE}
.timeline-wrap { overflow-x: auto; }
.timeline-wrap svg { max-width: none; }`;

/** Which actions a timeline sample was taken from, in the note's words. */
export interface SampleScope {
  /** What follows "N of the M actions". */
  source: string;
  /** The actions as a whole, and what they hold: "the chunk", "the chunk's actions". */
  pool: string;
  poolActions: string;
}

const FIRST_CHUNK: SampleScope = { source: "of the run's first chunk", pool: 'the chunk', poolActions: "the chunk's actions" };

/** What the sample is, and how far it over-represents eventful actions, in words that match the numbers. */
export function sampleNote(sample: TimelineSample, scope: SampleScope = FIRST_CHUNK): string {
  const shown = sample.rows.length;
  const head = `${num(shown)} of the ${num(sample.simulated)} actions ${scope.source}.`;
  if (sample.eventful === 0) return `${head} None had anything happen to it beyond one attempt, one reply and one execution; the rows are spread evenly over ${scope.pool}.`;
  const inChunk = sample.eventful / sample.simulated;
  const inRows = shown > 0 ? sample.shownEventful / shown : 0;
  const all = sample.shownEventful === sample.eventful;
  const kinds = 'Actions that had anything happen to them (a retry, a duplicate, a 409 or 422, an answer from the key store, a re-plan, a crash replay, a twin) are labelled with what happened';
  const weight = inRows > inChunk * 1.05
    ? `<strong>over-represented</strong>: ${pct(inChunk)} of ${scope.poolActions}, ${pct(inRows)} of these rows (${num(sample.shownEventful)})`
    : `${pct(inChunk)} of ${scope.poolActions} and ${pct(inRows)} of these rows (${num(sample.shownEventful)})`;
  const choice = all ? 'all of them are shown' : `each kind of event (duplicates; 409s and 422s; answers from the key store; re-plans and replays; actions never executed; twins; other retries) gets an equal share of their rows, spread over ${scope.pool}`;
  return `${head} ${kinds}; they are ${weight}, and ${choice}. The ${num(sample.shownQuiet)} rows labelled <em>quiet</em> (one attempt, one reply, one execution) are spread evenly over ${scope.pool}.`;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** What the page shows, each part made already. */
interface PageParts {
  name: string;
  seed: string;
  scenario: Scenario;
  metrics: Metrics;
  /** The timeline's note (see sampleNote) and its SVG. */
  note: string;
  rows: TimelineSample['rows'];
  timeline: string;
  breakdown: string;
  replay: string;
  /** The section "Over time", or '' when the run counted no series. */
  overTime: string;
}

function pageBody(p: PageParts): string {
  const m = p.metrics;
  return `<style>${STYLE}${STORY_STYLE}${p.overTime ? TIME_STYLE : ''}</style>
<h1>idem-sim report: ${escapeHtml(p.name)}</h1>
<dl class="facts">
<dt>seed</dt><dd><code>${escapeHtml(p.seed)}</code></dd>
<dt>actions</dt><dd>${num(m.primary_actions)}${m.actions > m.primary_actions ? ` primary, ${num(m.actions)} with their twins` : ''}</dd>
<dt>version</dt><dd>idem-sim ${escapeHtml(toolVersion())}</dd>
<dt>reproduce</dt><dd><code>${escapeHtml(p.replay)}</code></dd>
</dl>
${saturationParagraph(m, p.scenario)}<h2>Headline metrics</h2>
<div class="charts">
${headlineTable(m)}
<figure>${p.breakdown}</figure>
</div>
<p class="note">Values are means with their 95% confidence intervals over actions; every figure means what docs/model.md says.</p>
${p.overTime}<h2>Action timeline</h2>
<p class="note">${p.note} Hover over, click or tab to a row for its story; a click keeps it while you scroll it.</p>
${storyPanel(p.rows.map((r) => r.story))}
<div class="timeline-wrap">${p.timeline}</div>
<h2>Scenario</h2>
<details><summary>The resolved scenario (every key, defaults filled in)</summary><pre>${escapeHtml(stringify(resolvedScenario(p.scenario)))}</pre></details>
<footer>Made by idem-sim ${escapeHtml(toolVersion())}. Numbers come from a synthetic model (docs/model.md), not from measurements of a real service.</footer>
<script>${STORY_SCRIPT}</script>`;
}

/**
 * Where the page goes without --out on a terminal (see `terminalDefault`), and how an earlier
 * one is known: the page's title, or the timeline's opening tag, within its first bytes.
 */
const TERMINAL_DEFAULTS = {
  html: { name: 'report.html', ours: (head: string) => head.startsWith('<!doctype html>') && head.includes('<title>idem-sim report: ') },
  svg: { name: 'timeline.svg', ours: (head: string) => head.startsWith('<svg xmlns="http://www.w3.org/2000/svg" class="timeline"') },
} as const;

/** What the settings ask for, checked before anything is simulated. */
interface ReportPlan {
  eventfulRows: number;
  /** The series' step (ms): --series, else one minute for a scenario with incidents, alerts or a profile. */
  seriesStep: number | undefined;
  /** --at (else the first incident's start) and the chunk holding it; none: the run's first chunk. */
  focus: Focus | undefined;
}

/** Whether the page shows the run over time without --series: the scenario has incidents, alerts or a load profile. */
export function showsTime(s: Scenario): boolean {
  return s.incidents.length > 0 || s.alerts.length > 0 || s.load.profile.length > 0;
}

function reportPlan(s: ReportSettings, { scenario, locate }: Pick<LoadedScenario, 'scenario' | 'locate'>, seed: string): ReportPlan {
  const eventfulRows = rowsOf(s.rows);
  const asked = s.series?.value;
  const seriesStep = asked ?? (showsTime(scenario) ? ALERT_STEP_MS : undefined);
  checkArrivals(scenario, seed, locate);
  if (seriesStep !== undefined) checkSeriesLength(seriesStep, scenario, asked !== undefined ? `--series ${s.series?.text}` : 'the series of 1-minute buckets drawn for the incidents, alerts or load.profile');
  const focus = timelineFocus(withPrimaries(scenario, seed), seed, s.at);
  return { eventfulRows, seriesStep, focus };
}

export async function reportCommand(file: string | undefined, s: ReportSettings, io: Io, signal?: AbortSignal): Promise<number> {
  const inputs = file ? [file] : [];
  const kind = TERMINAL_DEFAULTS[s.output.svg ? 'svg' : 'html'];
  const fallback = terminalDefault(io, s.output.out, kind.name, kind.ours);
  // The lab values the file runs on, noted once the page is written (docs/scenarios.md, "The lab's values").
  const notes: string[] = [];
  const code = await withOutput(io, s.output.out ?? fallback?.path, inputs, async (out) => {
    const agent = agentReader(s.scenario, io, notes)(file ?? null);
    if (agent && s.tool === undefined) {
      const page = await agentReportPage(agent, file as string, s, io, signal);
      out.write(page);
      fallback?.announce(page);
      return 0;
    }
    if (!agent && s.tool !== undefined) refuseToolOfScenario(file ?? null, 'report');
    // A tool of an agent runs as in `run AGENT.yaml`: its composed scenario, on the seed SEED/TOOL.
    const picked = agent ? pickTool(agent, s.tool as string, s.simulation.seed?.value) : undefined;
    const loaded = picked ?? scenarioReader(s.scenario, io, notes)(file ?? null);
    const { scenario } = loaded;
    const seed = picked ? picked.seed : runSeed(s.simulation.seed?.value, loaded.seed);
    const threads = threadSetting(s.simulation.threads, io)(scenario.actions);
    const plan = reportPlan(s, loaded, seed);
    const name = picked ? `${picked.agent.name}.${picked.tool.name}` : scenarioName(file ?? null);
    const step = plan.seriesStep;
    const request = { scenario, seed, threads, ...(step !== undefined ? { seriesStep: step } : {}) };
    const outcome = await simulate(io, name, request, signal);
    warnCoarsened(io, name, request, outcome);
    const { sample, scope } = timelineSample(withPrimaries(scenario, seed), seed, outcome.gridStep, plan);
    const replay = new ReplayLine('report', inputs, s.scenario).overrides(s.scenario).option('--tool', picked?.tool.name).option('--seed', picked ? picked.agentSeed : seed).given('--rows', s.rows)
      .given('--series', s.series).option('--at', s.at).text();
    const near = plan.focus ? `, arriving nearest ${duration(plan.focus.at)}` : '';
    const caption = `${replay}${s.output.svg ? ' --svg' : ''}  ·  idem-sim ${toolVersion()}  ·  ${num(sample.rows.length)} of ${num(sample.simulated)} actions${near}, eventful ones over-represented`;
    const timeline = timelineSvg(sample.rows, scenario.client.timeout, caption);
    if (s.output.svg) {
      out.write(`${timeline}\n`);
      fallback?.announce(`${timeline}\n`);
      return 0;
    }
    const time = timeResults(scenario, outcome.state, true);
    const metrics = outcome.state.finish(scenario);
    const overTime = time.series ? timeSection({ series: time.series, scenario, alerts: time.alerts, metrics, ...(plan.focus ? { at: plan.focus.at } : {}) }) : '';
    const text = htmlPage(`idem-sim report: ${name}`, pageBody({
      name, seed, scenario, metrics, note: sampleNote(sample, scope), rows: sample.rows, timeline, breakdown: await breakdownChart(metrics), replay, overTime,
    }));
    out.write(text);
    fallback?.announce(text);
    return 0;
  });
  sayNotes(io, notes);
  return code;
}

/** `--rows`: the most timeline rows for eventful actions (DEFAULT_LIMITS' without it). */
function rowsOf(given: Given<number> | undefined): number {
  if (given === undefined) return DEFAULT_LIMITS.eventfulRows;
  if (given.value > MAX_ROWS) {
    throw new InputError({ source: `--rows ${given.text}` }, '', `asks for more rows than a page can show (at most ${num(MAX_ROWS)})`,
      `Give --rows ${MAX_ROWS} or fewer; the page then stays under about 2 MB.`);
  }
  return given.value;
}

/**
 * The timeline's rows: a chunk of the run simulated again, traced (same stream, same plan), so
 * its actions are the run's own, without slowing the run's hot loop with recording. The run's
 * first chunk; with --at the chunk holding that time, and of it the actions arriving nearest
 * it (NEAR_GROUPS_PER_ROW groups per row the sample may show). `scenario` has its primaries.
 */
function timelineSample(scenario: Scenario, seed: string, gridStep: number, asked: ReportPlan): { sample: TimelineSample; scope: SampleScope } {
  const limits = { ...DEFAULT_LIMITS, eventfulRows: asked.eventfulRows };
  const focus = asked.focus;
  const plan = focus?.plan ?? runPlans(scenario, seed, 0, 1).next().value;
  if (!plan) throw new Error('a run has at least one chunk');
  const actions = traceActions(scenario, gridStep, seed, plan);
  if (!focus) return { sample: sampleRows(actions, plan.offset, scenario.client.timeout, limits), scope: FIRST_CHUNK };
  const near = nearestActions(actions, plan, focus.at, NEAR_GROUPS_PER_ROW * (limits.eventfulRows + limits.quietRows));
  const sample = sampleRows(numberedInRun(near.actions, plan), plan.offset, scenario.client.timeout, limits);
  const source = `arriving nearest ${duration(focus.at)} into the run (from ${clock(near.from)} to ${clock(near.to)})${focusWords(focus)}`;
  return { sample, scope: { source, pool: 'them', poolActions: 'those actions' } };
}
