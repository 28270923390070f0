/**
 * An agent's page of `idem-sim report AGENT.yaml` (docs/reports.md): the agent's readings beside
 * each tool's part (the rows of `run`'s agent table, from the same AgentRun), the warnings, the
 * tools' annotations and costs and whether the client retries them, then each tool's headline
 * metrics and duplicates by source. A tool's full page (its timeline, its run over time) is
 * `report AGENT.yaml --tool NAME`. Pure: the CLI runs the tools and renders the charts.
 */
import { stringify } from 'yaml';
import type { WrittenScenario } from '../model/types.js';
import type { Metrics } from '../results/metrics.js';
import { HINTS } from '../agent/shape.js';
import type { Cost } from '../agent/parse.js';
import type { AgentRun } from './agent.js';
// The table's rows live beside the terminal table (agent-table.ts), apart from agent.ts, which the lab's page loads.
import { agentRows, readOnlyNote } from './agent-table.js';
import { CI_LEGEND, num } from './format.js';
import { escapeHtml, htmlPage } from './html.js';
import { printable } from '../scenario/printable.js';
import { HEADLINE_STYLE, headlineTable } from './html-headline.js';
import { resolvedScenario } from './json.js';

/** One tool's section: its run's metrics, its duplicates-by-source chart (SVG) and its scenario as run. */
export interface ToolSection {
  metrics: Metrics;
  breakdown: string;
  scenario: WrittenScenario;
  /** The command line of the tool's full page. */
  fullReport: string;
}

export interface AgentPage {
  run: AgentRun;
  /** In the agent's order, one per tool of `run`. */
  tools: readonly ToolSection[];
  /** The command line that gives the page's numbers again, and the tool's version. */
  replay: string;
  version: string;
  description?: string | undefined;
}

const STYLE = `${HEADLINE_STYLE}
table.data.agent td:first-child, table.data.agent th:first-child { text-align: left; }
#agent-readings td:last-child, #agent-readings th:last-child { font-weight: 600; }
ul.warnings li { margin: 4px 0; max-width: 100ch; }
section.tool { margin-top: 24px; }
h3 { font-size: 15px; margin: 16px 0 6px; }`;

const yesNo = (on: boolean): string => (on ? 'yes' : 'no');
/** A cost as the file gives it: `40 USD`, `1 ticket`; none: '–'. */
const costText = (c: Cost | null): string => (c === null ? '–' : `${num(c.amount)} ${c.per}`);
const cells = (tag: 'td' | 'th', row: readonly string[]): string => `<tr>${row.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('')}</tr>`;

/** The agent table: `run`'s rows, a column per tool and the agent's last. */
function readingsTable(a: AgentRun): string {
  const head = ['', ...a.tools.map((t) => t.name), `agent ${a.name}`];
  const note = readOnlyNote(a);
  return `<div class="scroll"><table class="data agent" id="agent-readings"><thead>${cells('th', head)}</thead><tbody>${agentRows(a).map((r) => cells('td', r)).join('')}</tbody></table></div>
${note ? `<p class="note">${escapeHtml(note)}.</p>\n` : ''}<p class="note">${escapeHtml(CI_LEGEND)}. The agent's readings are sums and products of its tools' runs (docs/agents.md, "Readings").</p>`;
}

/** Each tool's annotations (the specification's default for a hint left out), whether the client retries it, and its costs. */
function toolsTable(a: AgentRun): string {
  const hints = HINTS;
  const head = ['tool', 'share', ...hints, 'retried by the client', 'a duplicate costs', 'a lost action costs'];
  const rows = a.tools.map((t) => [t.name, num(t.share), ...hints.map((h) => String(t.annotations[h])), yesNo(t.retried), costText(t.cost.duplicate), costText(t.cost.lost)]);
  return `<div class="scroll"><table class="data agent" id="agent-tools"><thead>${cells('th', head)}</thead><tbody>${rows.map((r) => cells('td', r)).join('')}</tbody></table></div>
<p class="note">The client's <code>auto_retry</code> is <code>${escapeHtml(a.traffic.auto_retry)}</code>: a tool it does not retry runs with <code>client.retries: 0</code>. Annotations are the server's hints, not guarantees.</p>`;
}

function warningsSection(warnings: readonly string[]): string {
  if (warnings.length === 0) return '';
  return `<h2>Warnings</h2>\n<ul class="warnings" id="agent-warnings">${warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>\n`;
}

function toolSection(name: string, t: ToolSection): string {
  return `<section class="tool" data-tool="${escapeHtml(name)}">
<h3>${escapeHtml(name)}</h3>
<div class="charts">
${headlineTable(t.metrics)}
<figure>${t.breakdown}</figure>
</div>
<p class="note">Its full report (the action timeline, and its run over time when it has incidents, alerts or a load profile): <code>${escapeHtml(t.fullReport)}</code></p>
<details><summary>Its scenario as run (every key, defaults filled in)</summary><pre>${escapeHtml(stringify(resolvedScenario(t.scenario)))}</pre></details>
</section>`;
}

/** What the traffic is, in words. */
function trafficText(a: AgentRun): string {
  const t = a.traffic;
  const calls = t.conversations_per_s === null
    ? `${num(t.calls_per_s)} tool calls a second`
    : `${num(t.conversations_per_s)} conversations a second × ${num(t.calls_per_conversation)} calls = ${num(t.calls_per_s)} tool calls a second`;
  return `${calls}, ${num(t.calls_per_conversation)} a conversation`;
}

/** The agent's page, as one self-contained document. */
export function agentPage(p: AgentPage): string {
  const a = p.run;
  if (p.tools.length !== a.tools.length) throw new Error('agentPage: one section per tool');
  const body = `<style>${STYLE}</style>
<h1>idem-sim report: agent ${escapeHtml(a.name)}</h1>
${p.description ? `<p class="note">${escapeHtml(p.description)}</p>\n` : ''}<dl class="facts">
<dt>file</dt><dd><code>${escapeHtml(printable(a.file))}</code></dd>
<dt>seed</dt><dd><code>${escapeHtml(a.seed)}</code> (each tool on its own stream, <code>${escapeHtml(a.seed)}/TOOL</code>)</dd>
<dt>traffic</dt><dd>${escapeHtml(trafficText(a))}</dd>
<dt>tools</dt><dd>${num(a.tools.length)}</dd>
<dt>version</dt><dd>idem-sim ${escapeHtml(p.version)}</dd>
<dt>reproduce</dt><dd><code>${escapeHtml(p.replay)}</code></dd>
</dl>
${warningsSection(a.warnings)}<h2>The agent's readings</h2>
${readingsTable(a)}
<h2>Tools: annotations, retries and costs</h2>
${toolsTable(a)}
<h2>Each tool's headline metrics</h2>
<p class="note">Values are means with their 95% confidence intervals over actions; every figure means what docs/model.md says.</p>
${a.tools.map((t, i) => toolSection(t.name, p.tools[i] as ToolSection)).join('\n')}
<footer>Made by idem-sim ${escapeHtml(p.version)}. Numbers come from a synthetic model (docs/model.md), not from measurements of a real service.</footer>`;
  return htmlPage(`idem-sim report: ${a.name}`, body);
}
