/**
 * The page of `idem-sim report SCENARIO`: the run's facts, its headline metrics and duplicate
 * breakdown, the run over time when it counts a series, the action timeline with its note (what
 * the sample is, and how far it over-represents eventful actions), and the resolved scenario.
 */
import { stringify } from 'yaml';
import type { Metrics, RunState } from '../results/metrics.js';
import { timeResults } from '../results/time-results.js';
import type { Scenario } from '../model/types.js';
import { breakdownChart } from './charts.js';
import { escapeHtml, htmlPage } from './html.js';
import { HEADLINE_STYLE, headlineTable } from './html-headline.js';
import { saturationParagraph } from './saturation-text.js';
import { STORY_SCRIPT, STORY_STYLE, storyPanel } from './story-panel.js';
import { resolvedScenario } from './json.js';
import { num } from './format.js';
import { TIME_STYLE, timeSection } from './time-section.js';
import { runsWords, type TimelineSample } from './timeline-rows.js';

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

export const FIRST_CHUNK: SampleScope = { source: "of the run's first chunk", pool: 'the chunk', poolActions: "the chunk's actions" };

/** What the sample is, and how far it over-represents eventful actions, in words that match the numbers. */
export function sampleNote(sample: TimelineSample, scope: SampleScope = FIRST_CHUNK): string {
  if (sample.omitted !== undefined) return sample.omitted;
  const shown = sample.shown;
  const head = `${num(shown)} of the ${num(sample.simulated)} actions ${scope.source}${runsWords(sample)}.`;
  if (sample.eventful === 0) return `${head} None had anything happen to it beyond one attempt, one reply and one execution; the rows are spread evenly over ${scope.pool}.`;
  const inChunk = sample.eventful / sample.simulated;
  const inRows = shown > 0 ? sample.shownEventful / shown : 0;
  const all = sample.shownEventful === sample.eventful;
  const these = sample.rows.length > shown ? 'of the actions shown' : 'of these rows'; // a trigger's actions may have rows of several runs
  const kinds = 'Actions that had anything happen to them (a retry, a duplicate, a 409 or 422, an answer from the key store, a re-plan, a crash replay, a twin) are labelled with what happened';
  const weight = inRows > inChunk * 1.05
    ? `<strong>over-represented</strong>: ${pct(inChunk)} of ${scope.poolActions}, ${pct(inRows)} ${these} (${num(sample.shownEventful)})`
    : `${pct(inChunk)} of ${scope.poolActions} and ${pct(inRows)} ${these} (${num(sample.shownEventful)})`;
  const choice = all ? 'all of them are shown' : `each kind of event (duplicates; 409s and 422s; answers from the key store; re-plans and replays; actions never executed; twins; other retries) gets an equal share of their rows, spread over ${scope.pool}`;
  return `${head} ${kinds}; they are ${weight}, and ${choice}. The ${num(sample.shownQuiet)} rows labelled <em>quiet</em> (one attempt, one reply, one execution) are spread evenly over ${scope.pool}.`;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** What the page shows, each part made already. */
export interface PageParts {
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
  /** idem-sim's version, which the facts and the footer name. */
  version: string;
}

/** The page's body, for htmlPage. */
export function reportBody(p: PageParts): string {
  const m = p.metrics;
  return `<style>${STYLE}${STORY_STYLE}${p.overTime ? TIME_STYLE : ''}</style>
<h1>idem-sim report: ${escapeHtml(p.name)}</h1>
<dl class="facts">
<dt>seed</dt><dd><code>${escapeHtml(p.seed)}</code></dd>
<dt>actions</dt><dd>${num(m.primary_actions)}${m.actions > m.primary_actions ? ` primary, ${num(m.actions)} with their twins` : ''}</dd>
<dt>version</dt><dd>idem-sim ${escapeHtml(p.version)}</dd>
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
<footer>Made by idem-sim ${escapeHtml(p.version)}. Numbers come from a synthetic model (docs/model.md), not from measurements of a real service.</footer>
<script>${STORY_SCRIPT}</script>`;
}

/** The run's page whole: its metrics, alerts and series from `state`, the timeline made already, and the section "Over time" when the run counted a series. */
export async function reportPage(p: Omit<PageParts, 'metrics' | 'breakdown' | 'overTime'> & { state: RunState; at: number | undefined }): Promise<string> {
  const { state, at, ...parts } = p;
  const time = timeResults(p.scenario, state, true);
  const metrics = state.finish(p.scenario);
  const overTime = time.series ? timeSection({ series: time.series, scenario: p.scenario, alerts: time.alerts, metrics, ...(at !== undefined ? { at } : {}) }) : '';
  return htmlPage(`idem-sim report: ${p.name}`, reportBody({ ...parts, metrics, breakdown: await breakdownChart(metrics), overTime }));
}
