/**
 * `idem-sim report [SCENARIO]`: one self-contained HTML page (headline metrics, the
 * duplicate breakdown, the action timeline), or with `--svg` the timeline alone.
 */
import { stringify } from 'yaml';
import type { Metrics } from '../model/metrics.js';
import { planChunks } from '../model/plan.js';
import { chunkRng } from '../random/rng.js';
import { traceChunk } from '../model/trace.js';
import type { Scenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { toolVersion, type Io } from './io.js';
import { positiveInteger, seedOption } from './options.js';
import { breakdownChart } from './report/charts.js';
import { escapeHtml, htmlPage } from './report/html.js';
import { STORY_SCRIPT, STORY_STYLE, storyPanel } from './report/story-panel.js';
import { resolvedScenario } from './report/json.js';
import { duration, estimateText as ci, num } from './report/format.js';
import { DEFAULT_LIMITS, sampleRows, type TimelineSample } from './report/timeline-rows.js';
import { timelineSvg } from './report/timeline-svg.js';
import { scenarioName, scenarioReader } from './shared/load.js';
import { terminalDefault, withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, simulate, threadSetting, type SimulationOptions } from './shared/simulate.js';

/** Most rows `--rows` may ask for: about 1 KB a row keeps a page under about 2 MB. */
const MAX_ROWS = 2000;

export interface ReportOptions extends SimulationOptions {
  out?: string;
  svg?: boolean;
  rows?: string;
}

/** Rows of the headline table: label, and the value as text. */
function headline(m: Metrics): [string, string][] {
  return [
    ['duplicates per 1000 actions', ci(m.duplicates_per_1000)],
    ['duplicates per day at load.rate_per_s', ci(m.duplicates_per_day)],
    ['lost actions per 1000', ci(m.lost_per_1000)],
    ['unknown outcomes per 1000', ci(m.unknown_outcomes_per_1000)],
    ['409 conflicts per 1000', ci(m.conflicts_409_per_1000)],
    ['422 mismatches per 1000', ci(m.mismatches_422_per_1000)],
    ['answers from the key store per 1000', ci(m.dedup_hits_per_1000)],
    ['attempts per action', ci(m.attempts_per_action)],
    ['call latency p50 / p95 / p99', [m.call_latency_ms.p50, m.call_latency_ms.p95, m.call_latency_ms.p99].map(duration).join(' / ')],
    ['action latency p95', duration(m.action_latency_ms.p95)],
    ['keys per action', ci(m.keys_per_action)],
    ['peak live keys', num(m.peak_live_keys)],
    ['key store (steady state)', `${num(m.keys)} keys, ${num(m.key_store_mb)} MB`],
  ];
}

const STYLE = `
table.headline td { padding: 2px 16px 2px 0; font-variant-numeric: tabular-nums; }
table.headline td:first-child { color: #57606a; }
.timeline-wrap { overflow-x: auto; }
.timeline-wrap svg { max-width: none; }`;

/** What the sample is, and how far it over-represents eventful actions, in words that match the numbers. */
export function sampleNote(sample: TimelineSample): string {
  const shown = sample.rows.length;
  const head = `${num(shown)} of the ${num(sample.simulated)} actions of the run's first chunk.`;
  if (sample.eventful === 0) return `${head} None had anything happen to it beyond one attempt, one reply and one execution; the rows are spread evenly over the chunk.`;
  const inChunk = sample.eventful / sample.simulated;
  const inRows = shown > 0 ? sample.shownEventful / shown : 0;
  const all = sample.shownEventful === sample.eventful;
  const kinds = 'Actions that had anything happen to them (a retry, a duplicate, a 409 or 422, an answer from the key store, a re-plan, a crash replay, a twin) are labelled with what happened';
  const weight = inRows > inChunk * 1.05
    ? `<strong>over-represented</strong>: ${pct(inChunk)} of the chunk's actions, ${pct(inRows)} of these rows (${num(sample.shownEventful)})`
    : `${pct(inChunk)} of the chunk's actions and ${pct(inRows)} of these rows (${num(sample.shownEventful)})`;
  const choice = all ? 'all of them are shown' : 'each kind of event (duplicates; 409s and 422s; answers from the key store; re-plans and replays; actions never executed; twins; other retries) gets an equal share of their rows, spread over the chunk';
  return `${head} ${kinds}; they are ${weight}, and ${choice}. The ${num(sample.shownQuiet)} rows labelled <em>quiet</em> (one attempt, one reply, one execution) are spread evenly over the chunk.`;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function pageBody(name: string, seed: string, scenario: Scenario, m: Metrics, sample: TimelineSample, timeline: string, breakdown: string, replay: string): string {
  const note = sampleNote(sample);
  return `<style>${STYLE}${STORY_STYLE}</style>
<h1>idem-sim report: ${escapeHtml(name)}</h1>
<dl class="facts">
<dt>seed</dt><dd><code>${escapeHtml(seed)}</code></dd>
<dt>actions</dt><dd>${num(m.primary_actions)}${m.actions > m.primary_actions ? ` primary, ${num(m.actions)} with their twins` : ''}</dd>
<dt>version</dt><dd>idem-sim ${escapeHtml(toolVersion())}</dd>
<dt>reproduce</dt><dd><code>${escapeHtml(replay)}</code></dd>
</dl>
<h2>Headline metrics</h2>
<div class="charts">
<table class="headline">${headline(m).map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
<figure>${breakdown}</figure>
</div>
<p class="note">Values are means with their 95% confidence intervals over actions; every figure means what docs/model.md says.</p>
<h2>Action timeline</h2>
<p class="note">${note} Hover over, click or tab to a row for its story; a click keeps it while you scroll it.</p>
${storyPanel(sample.rows.map((r) => r.story))}
<div class="timeline-wrap">${timeline}</div>
<h2>Scenario</h2>
<details><summary>The resolved scenario (every key, defaults filled in)</summary><pre>${escapeHtml(stringify(resolvedScenario(scenario)))}</pre></details>
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

export async function reportCommand(file: string | undefined, opts: ReportOptions, io: Io, signal?: AbortSignal): Promise<number> {
  const inputs = file ? [file] : [];
  const kind = TERMINAL_DEFAULTS[opts.svg ? 'svg' : 'html'];
  const fallback = terminalDefault(io, opts.out, kind.name, kind.ours);
  return withOutput(io, opts.out ?? fallback?.path, inputs, async (out) => {
    const { scenario, seed: fileSeed } = scenarioReader(opts, io)(file ?? null);
    const seed = runSeed(seedOption(opts.seed), fileSeed);
    const threads = threadSetting(opts.threads, io)(scenario.actions);
    const eventfulRows = rowsOption(opts.rows);
    const name = scenarioName(file ?? null);
    const outcome = await simulate(io, name, { scenario, seed, threads }, signal);
    const sample = timelineSample(scenario, seed, outcome.gridStep, eventfulRows);
    const replay = new ReplayLine('report', inputs, opts).overrides(opts).option('--seed', seed).option('--rows', opts.rows).text();
    const caption = `${replay}${opts.svg ? ' --svg' : ''}  ·  idem-sim ${toolVersion()}  ·  ${num(sample.rows.length)} of ${num(sample.simulated)} actions, eventful ones over-represented`;
    const timeline = timelineSvg(sample.rows, scenario.client.timeout, caption);
    const text = opts.svg ? `${timeline}\n` : await page(name, seed, scenario, outcome.state.finish(scenario), sample, timeline, replay);
    out.write(text);
    fallback?.announce(text);
    return 0;
  });
}

/** The whole page of a run. */
async function page(name: string, seed: string, scenario: Scenario, metrics: Metrics, sample: TimelineSample, timeline: string, replay: string): Promise<string> {
  return htmlPage(`idem-sim report: ${name}`, pageBody(name, seed, scenario, metrics, sample, timeline, await breakdownChart(metrics), replay));
}

/** `--rows`: the most timeline rows for eventful actions. */
function rowsOption(text: string | undefined): number {
  const rows = text === undefined ? DEFAULT_LIMITS.eventfulRows : positiveInteger('--rows', text);
  if (rows > MAX_ROWS) {
    throw new InputError({ source: `--rows ${text}` }, '', `asks for more rows than a page can show (at most ${num(MAX_ROWS)})`,
      `Give --rows ${MAX_ROWS} or fewer; the page then stays under about 2 MB.`);
  }
  return rows;
}

/**
 * The timeline's rows: the run's first chunk simulated again, traced (same stream, same plan),
 * so its actions are the run's own, without slowing the run's hot loop with recording.
 */
function timelineSample(scenario: Scenario, seed: string, gridStep: number, eventfulRows: number): TimelineSample {
  const plan = planChunks(seed, scenario.actions, scenario.load.rate_per_s, 0, 1)[0];
  if (!plan) throw new Error('a run has at least one chunk');
  const { actions } = traceChunk(scenario, gridStep, chunkRng(seed, 0), plan);
  return sampleRows(actions, plan.offset, scenario.client.timeout, { ...DEFAULT_LIMITS, eventfulRows });
}
