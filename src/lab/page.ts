/**
 * The lab's page as one self-contained HTML document: the knobs and the places the results go,
 * the page's configuration as JSON, the engine's script (run as a Web Worker from a blob: URL)
 * and the page's script, all inline. Pure: `idem-sim lab` reads the scripts and writes the page.
 */
import { ALL_METRIC_PATHS, METRIC_PATHS } from '../results/metric-paths.js';
import { METRICS } from '../results/metric-registry.js';
import { escapeHtml, htmlPage } from '../report/html.js';
import { printable } from '../scenario/printable.js';
import { storyPanel, STORY_STYLE } from '../report/story-panel.js';
import { TIME_STYLE } from '../report/time-section.js';
import { capitalised } from '../report/metric-text.js';
import type { LabConfig, LabMission } from './config.js';
import { labLoad } from './engine.js';
import { KNOB_GROUPS, LATENCY_KEYS, knobSpec, switchOf, unitText, writtenLatencyText, type KnobSpec } from './knobs.js';
import { shownKnobs, type KnobState } from './overrides.js';
import { LAB_STYLE } from './page-style.js';
import { BREAKDOWN_METRICS, HEADLINE_METRICS, KEY_STORE_METRICS, metricLabel, metricName, TRIGGER_BREAKDOWN_METRIC } from './metric-text.js';
import { actionsNote, byDuration } from './time-knobs.js';

/** The element id of a knob's control (and, with a prefix, of its parts). */
export const knobId = (key: string, part = 'k') => `${part}-${key.replace(/[^\w]/g, '-')}`;

/** A knob's control, showing `text` (the starting scenario's value) before the page's script runs; `readOnly`: the actions of a run that load.duration sets. */
function control(spec: KnobSpec, text: string, readOnly = false): string {
  const id = knobId(spec.key);
  const described = `aria-describedby="${knobId(spec.key, 'd')} ${knobId(spec.key, 'e')}"`;
  const common = `id="${id}" data-key="${escapeHtml(spec.key)}" data-kind="${spec.kind}" ${described}${readOnly ? ' readonly' : ''}`;
  if (spec.kind === 'choice') return `<select ${common}>${(spec.values ?? []).map((v) => `<option${v === text ? ' selected' : ''}>${escapeHtml(v)}</option>`).join('')}</select>`;
  if (spec.kind === 'flag' || spec.kind === 'switch') return `<input type="checkbox" ${common}${text === 'true' ? ' checked' : ''}>`;
  return `<input type="text" ${common} value="${escapeHtml(text)}" autocomplete="off" spellcheck="false"${spec.kind === 'duration' || spec.kind === 'seed' || spec.kind === 'optional_duration' ? '' : ' inputmode="decimal"'}>`;
}

/** What values a knob takes, in words. */
function range(spec: KnobSpec): string {
  switch (spec.kind) {
    case 'probability': return 'from 0 to 1';
    case 'count': return `a whole number from ${spec.min ?? 0}${spec.max === undefined ? '' : ` to ${spec.max}`}`;
    case 'count_or_unbounded': return `a whole number from ${spec.min ?? 0} to ${spec.max}, or unbounded`;
    case 'switch': return 'on or none (its knobs show when on)';
    case 'number': return `from ${spec.min} to ${spec.max}`;
    case 'duration': return 'a duration: 250ms, 2s, 5m, 1h, 7d';
    case 'optional_duration': return 'a duration, or none';
    case 'choice': return `one of ${(spec.values ?? []).join(', ')}`;
    default: return '';
  }
}

/** The words beside the actions knob, which load.duration may set (time-knobs.ts). */
const ACTIONS_MEANING = 'with load.duration, the count it brings (the CLI refuses both)';

function knobHtml(spec: KnobSpec, state: KnobState): string {
  const help = [spec.meaning, spec.key === 'actions' ? ACTIONS_MEANING : '', range(spec), spec.blank ?? ''].filter((t) => t !== '').join('; ');
  const text = state.texts[spec.key] ?? '';
  const section = switchOf(spec.key);
  const shown = section === undefined || state.texts[section] === 'true';
  const byLoad = spec.key === 'actions' && byDuration(state.texts);
  const unit = spec.key === 'actions' ? actionsNote(byLoad, false) : unitText(spec.kind, text, spec.key);
  return `<div class="knob knob-${spec.kind}" data-knob="${escapeHtml(spec.key)}"${section === undefined ? '' : ` data-switch="${escapeHtml(section)}"`}${shown ? '' : ' hidden'}>
<label for="${knobId(spec.key)}">${escapeHtml(spec.label)}</label><output id="${knobId(spec.key, 'o')}" for="${knobId(spec.key)}">${escapeHtml(unit)}</output>${control(spec, text, byLoad)}
<small id="${knobId(spec.key, 'd')}">${escapeHtml(help)}</small>
<p class="knob-error" id="${knobId(spec.key, 'e')}" hidden></p>
</div>`;
}

/** The choice of latency form, set to the starting scenario's (`written`: a form no knob shows, '' for none). */
function latencyForm({ state, written }: Shown): string {
  const option = (value: string, text: string, disabled = false) => `<option value="${value}"${state.latency === value ? ' selected' : ''}${disabled ? ' disabled' : ''}>${escapeHtml(text)}</option>`;
  return `<div class="knob"><label for="latency-form">latency given as</label><select id="latency-form" aria-describedby="latency-form-note">
${option('median', 'median and sigma (lognormal)')}${option('percentiles', 'p50 and p99 (a lognormal fitted to them)')}${option('written', writtenLatencyText(written), written === '')}
</select><small id="latency-form-note"></small></div>`;
}

/** What the knobs show before the engine has loaded the scenario: the values it will set (main.ts). */
type Shown = ReturnType<typeof shownKnobs>;

function groupHtml(name: string, title: string, keys: readonly string[], shown: Shown): string {
  const specs = keys.flatMap((k) => knobSpec(k) ?? []);
  const knob = (spec: KnobSpec) => knobHtml(spec, shown.state);
  const latency = (form: keyof typeof LATENCY_KEYS) => `<div class="latency-form" data-latency-form="${form}"${shown.state.latency === form ? '' : ' hidden'}>${specs.filter((s) => (LATENCY_KEYS[form] as readonly string[]).includes(s.key)).map(knob).join('\n')}</div>`;
  const isLatency = (s: KnobSpec) => s.key.startsWith('service.latency.');
  const body = name === 'service'
    ? `${latencyForm(shown)}${latency('median')}${latency('percentiles')}${specs.filter((s) => !isLatency(s)).map(knob).join('\n')}`
    : specs.map(knob).join('\n');
  const legend = name === 'run' ? escapeHtml(title) : `<code>${escapeHtml(name)}:</code> ${escapeHtml(title)}`;
  return `<fieldset data-group="${name}"><legend>${legend}</legend>\n${body}\n</fieldset>`;
}

function missionButton(m: LabMission): string {
  const title = m.id.replace(/^mission-\d+-/, '').replace(/-/g, ' ');
  return `<li><button type="button" class="mission" data-mission="${escapeHtml(m.id)}" aria-pressed="false">Mission ${m.number}: ${escapeHtml(title)}<span class="star" data-star="${escapeHtml(m.id)}" aria-hidden="true">☆</span><span class="sr-star"></span></button></li>`;
}

/** The metrics of the summary line that stays in view while the knobs scroll. */
const SUMMARY_METRICS = ['duplicates_per_1000', 'lost_per_1000'] as const;

const metricCell = (path: string) => `<span class="value" data-metric="${escapeHtml(path)}">–</span>`;

function resultsHtml(): string {
  const shown = new Set<string>([...HEADLINE_METRICS, ...BREAKDOWN_METRICS, ...KEY_STORE_METRICS]);
  const rest = METRIC_PATHS.filter((p) => !shown.has(p));
  // A coupled run's readings (docs/model.md, "Capacity"): rows shown when the run has them.
  const capacity = ALL_METRIC_PATHS.filter((p) => METRICS[p].only === 'capacity' || METRICS[p].only === 'guard');
  // A triggered run's readings (docs/model.md, "Inbound delivery"), likewise; its duplicates' source is the bar's.
  const trigger = ALL_METRIC_PATHS.filter((p) => METRICS[p].only === 'trigger' && p !== TRIGGER_BREAKDOWN_METRIC);
  const breakdown = (p: string) => `<dt>${escapeHtml(metricLabel(p))}</dt><dd>${metricCell(p)}</dd>`;
  return `<section class="headline" aria-label="Headline metrics">
${HEADLINE_METRICS.map((p) => `<div class="card"><div class="label">${escapeHtml(metricLabel(p))}</div>${metricCell(p)}</div>`).join('\n')}
</section>
<div id="saturation"></div>
<div class="figures">
<figure class="breakdown"><figcaption>${escapeHtml(capitalised(metricName('duplicates_per_1000')))}, by source</figcaption><div class="bars"><div id="breakdown"></div>
<dl>${BREAKDOWN_METRICS.map(breakdown).join('')}<div data-only="trigger" hidden>${breakdown(TRIGGER_BREAKDOWN_METRIC)}</div></dl></div></figure>
<figure class="keystore"><figcaption>Key store memory</figcaption><dl>${KEY_STORE_METRICS.map((p) => `<dt>${escapeHtml(metricLabel(p))}</dt><dd>${metricCell(p)}</dd>`).join('')}</dl><p class="note" id="keystore-note"></p></figure>
</div>
<div id="warnings" class="warnings" hidden></div>
<h2>Over time</h2>
<p class="note" id="time-note"></p>
<div class="series-charts" id="time-charts"></div>
<div id="time-alerts"></div>
<details id="series-details"><summary>The run's series as JSON, as <code>idem-sim run --series <span id="series-step"></span> --json</code> writes it (<code>results[0].series</code>)</summary><pre id="series-json"></pre></details>
<h2>Action timeline</h2>
<p class="note" id="sample-note"></p>
<p class="note">Each row is an action and each bar an attempt, coloured by what the client saw (the legend under the timeline says which colour means what). Hover over, click or tab to a row for its story in words; a click or Enter keeps it while you scroll, Escape lets it go.</p>
${storyPanel([])}
<div class="timeline-wrap" id="timeline"></div>
<h2>Reproduce</h2>
<p class="note">The page's run, on the command line (the same numbers, byte for byte):</p>
<pre id="command" tabindex="0"></pre>
<p><button type="button" id="copy-command">Copy the command</button> <button type="button" id="download">Download scenario.yaml</button> <span class="note">a file for <code>idem-sim check</code> in CI (the settings and the seed written in)</span></p>
<h2>Every metric</h2>
<table class="metrics"><tbody>${rest.map((p) => `<tr><td>${escapeHtml(metricName(p))}</td><td>${metricCell(p)}</td></tr>`).join('')}${capacity.map((p) => `<tr data-only="capacity" hidden><td>${escapeHtml(metricName(p))}</td><td>${metricCell(p)}</td></tr>`).join('')}${trigger.map((p) => `<tr data-only="trigger" hidden><td>${escapeHtml(metricName(p))}</td><td>${metricCell(p)}</td></tr>`).join('')}</tbody></table>
<details><summary>The run's metrics as JSON, as <code>idem-sim run --json</code> writes them (<code>results[0].metrics</code>)</summary><pre id="metrics-json"></pre></details>`;
}

/** JSON safe inside a <script> element: no `<` at all, so nothing can close it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export interface LabScripts {
  /** The engine's script (dist/browser/lab-engine.js) and the page's (lab-ui.js). */
  engine: string;
  ui: string;
}

/** Where a tool's page started: the tool, its agent, and the run whose column it matches. */
function toolNote(start: LabConfig['start']): string {
  const t = start.tool;
  if (!t) return '';
  return `<p class="note" id="tool-note">Started from <strong>${escapeHtml(t.name)}</strong>, a tool of the agent ${escapeHtml(t.agent)} (<code>${escapeHtml(printable(t.file))}</code>): its scenario as the agent runs it (the built-in defaults, the agent's defaults, the file it extends, its own keys and the agent's rate for it), every key written out, on its seed <code>${escapeHtml(start.seed)}</code>. Until a knob changes, its numbers are ${escapeHtml(t.name)}'s column of <code>${escapeHtml(t.agentCommand)}</code>. The command under "Reproduce" names this scenario <code>${escapeHtml(start.file ?? '')}</code>: the file "Download scenario.yaml" writes.</p>`;
}

/** The page. */
export function labPage(config: LabConfig, scripts: LabScripts): string {
  for (const [name, text] of Object.entries(scripts)) if (/<\/script|<!--/i.test(text)) throw new Error(`the lab's ${name} script holds "</script" or "<!--"`);
  // The knobs show the starting scenario's values from the first paint, not blanks and first choices until the engine starts.
  const shown = shownKnobs(labLoad(config.start), config.start.seed);
  const body = `<style>${STORY_STYLE}${TIME_STYLE}${LAB_STYLE}</style>
<header><h1>idem-sim lab</h1>
<p class="note">The guide's lab, with idem-sim ${escapeHtml(config.version)}'s full model: change a knob and the scenario runs again in the page, offline. Start with no key, watch the pink dots (duplicate executions) appear, then load mission one.</p>${toolNote(config.start)}</header>
<section class="missions" aria-labelledby="missions-title"><h2 id="missions-title">Missions</h2>
<ol>${config.missions.map(missionButton).join('')}<li><button type="button" id="load-start">Start again: ${escapeHtml(config.start.name)}</button></li></ol>
<div id="mission-panel" class="mission-panel" hidden tabindex="-1"><h3 id="mission-title"></h3><p id="mission-hint"></p><ul id="mission-goals"></ul><p id="mission-verdict" role="status"></p></div>
<p class="note"><span id="stars-count"></span> Stars are kept in this browser. <button type="button" id="clear-stars">Clear the stars</button></p>
</section>
<div class="lab">
<form id="knobs" class="knobs" aria-label="Knobs" onsubmit="return false">
<p class="note">Scenario: <strong id="scenario-name">${escapeHtml(config.start.name)}</strong>. Each knob is a key of the scenario file; a changed knob runs the scenario again.</p>
${KNOB_GROUPS.map((g) => groupHtml(g.name, g.title, g.keys, shown)).join('\n')}
</form>
<div class="summary" aria-hidden="true">${SUMMARY_METRICS.map((p) => `${escapeHtml(metricLabel(p))} <strong data-summary="${p}">–</strong> · `).join('')}<span data-summary="status"></span></div>
<main>
<div class="status" aria-live="polite"><span id="status" data-state="starting">Starting the engine…</span> <progress id="progress" hidden aria-label="Running"></progress> <button type="button" id="stop" hidden>Stop</button></div>
<div id="error" class="error" role="alert" hidden></div>
${resultsHtml()}
</main>
</div>
<footer>Made by idem-sim ${escapeHtml(config.version)}: <code>idem-sim lab</code>. Numbers come from a synthetic model (docs/model.md), not from measurements of a real service.</footer>
<script type="application/json" id="lab-config">${scriptJson(config)}</script>
<script type="text/plain" id="lab-engine">${scripts.engine}</script>
<script>${scripts.ui}</script>`;
  return htmlPage(`idem-sim lab: ${config.start.name}`, body);
}
