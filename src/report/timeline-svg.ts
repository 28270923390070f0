/**
 * The action timeline as hand-drawn SVG, after the guide's lab: one row per action, one
 * bar per attempt on a shared time axis, dots for executions, rings for answers from the
 * key store, marks for re-plans and crash replays, and a legend. Each row carries its
 * story as a <title> (a tooltip anywhere) and a data-row index (the HTML page's panel).
 * Under capacity (a coupled scenario) a bar's wait for a worker is its lighter start, and a
 * cross marks a call a client guard stopped; the legend then says so.
 */
import type { AttemptOutcome, TracedAction, TracedCall } from '../engine/trace.js';
import { escapeHtml, FONT_STACK } from './html.js';
import { duration } from './format.js';
import type { TimelineRow } from './timeline-rows.js';

export const OUTCOME_COLOURS: Record<AttemptOutcome, string> = {
  ok: '#3ccf6e', error: '#8b95a7', timeout: '#f5a524', reply_lost: '#e5484d', conflict_409: '#3b82f6', mismatch_422: '#b065f5',
  shed: '#c08457', expired: '#9ca34a',
};
const EXECUTION = '#ffffff', DUPLICATE = '#ff5fb8', RING = '#22d3ee', REPLAN = '#facc15', REPLAY = '#c084fc';
/** The wait for a worker: white over the bar's colour, so the wait is the bar's lighter start. */
const WAIT_VEIL = 'fill="#ffffff" fill-opacity="0.5"';
const STOP_COLOURS: Record<NonNullable<TracedCall['stopped']>, string> = { breaker: '#f87171', budget: '#fde047', throttle: '#fb923c' };
const BG = '#131722', ROW_HOVER = '#1e2533', AXIS = '#8791a5', LIFE = '#2c3445';

const LABEL_W = 270, PLOT_W = 790, RIGHT = 20, TOP = 50, ROW_H = 18, BAR_H = 8, LEGEND_LINE = 20, PER_LINE = 4;

const AXIS_TITLE = "time since the action arrived (a twin's: since its sibling's)";

export interface TimeAxis {
  x: (ms: number) => number;
  ticks: number[];
  title: string;
}

const LOG_TICKS = [0, 10, 100, 1000, 10_000, 60_000, 600_000, 3_600_000, 21_600_000, 86_400_000, 604_800_000];
const STEPS = [1, 2, 2.5, 5].flatMap((m) => [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000].map((p) => m * p)).sort((u, v) => u - v);

/**
 * The shared time axis, `width` px for [0, maxMs]. Linear while the rows span at most 20
 * timeouts (retries and re-plans); beyond that (crash replays minutes later) log-like,
 * x ∝ log10(1 + t / (timeout/10)), so the attempts around the timeout stay readable.
 */
export function timeAxis(maxMs: number, timeout: number, width: number): TimeAxis {
  if (maxMs <= 20 * timeout) {
    const step = STEPS.find((s) => maxMs / s <= 10) ?? (STEPS.at(-1) as number);
    const ticks = Array.from({ length: Math.floor(maxMs / step) + 1 }, (_, k) => k * step);
    return { x: (ms) => (Math.max(0, ms) / maxMs) * width, ticks, title: AXIS_TITLE };
  }
  const unit = timeout / 10;
  const top = Math.log10(1 + maxMs / unit);
  const x = (ms: number) => (Math.log10(1 + Math.max(0, ms) / unit) / top) * width;
  const ticks: number[] = [];
  for (const t of LOG_TICKS) if (t <= maxMs && (ticks.length === 0 || x(t) - x(ticks.at(-1) as number) >= 48)) ticks.push(t);
  return { x, ticks, title: `${AXIS_TITLE} (log scale beyond ${duration(unit)})` };
}

function lastEvent(a: TracedAction): number {
  return Math.max(a.arrival, ...a.calls.map((c) => c.end), ...a.executions.map((e) => e.at), ...a.attempts.map((t) => t.ended));
}

/** Tags longer than the label column holds are cut (the row's story has them all). */
const TAGS_CHARS = 40;
const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

const f = (x: number) => (Math.round(x * 10) / 10).toString();

function rowSvg(row: TimelineRow, index: number, y: number, x: (ms: number) => number): string {
  const a = row.action;
  const mid = y + ROW_H / 2;
  const px = (ms: number) => f(LABEL_W + x(ms));
  const parts: string[] = [
    `<rect class="bg" x="0" y="${y}" width="${LABEL_W + PLOT_W + RIGHT}" height="${ROW_H}"/>`,
    `<text class="label" x="8" y="${mid + 4}">${escapeHtml(row.label)}<tspan class="tags" dx="6">${escapeHtml(clip(row.tags.join(' · ') || 'quiet', TAGS_CHARS))}</tspan></text>`,
    `<line x1="${px(a.arrival)}" x2="${px(lastEvent(a))}" y1="${mid}" y2="${mid}" stroke="${LIFE}"/>`,
  ];
  // Call marks sit behind the bars (a replay's dashed line) or above them (a re-plan's
  // triangle, in the row's top margin), so they never hide an attempt or an execution.
  for (const c of a.calls) {
    if (c.kind === 'replay') parts.push(`<path class="replay" d="M${px(c.start)} ${y + 1}v${ROW_H - 2}" stroke="${REPLAY}" stroke-width="2" stroke-dasharray="3 2"/>`);
    if (c.kind === 'replan') parts.push(`<path class="replan" d="M${px(c.start)} ${mid - 4.5}l-4 -4.5h8z" fill="${REPLAN}"/>`);
  }
  for (const t of a.attempts) {
    const x0 = LABEL_W + x(t.sent);
    const w = Math.max(1.5, LABEL_W + x(t.ended) - x0);
    parts.push(`<rect class="attempt ${t.outcome}" x="${f(x0)}" y="${mid - BAR_H / 2}" width="${f(w)}" height="${BAR_H}" rx="2" fill="${OUTCOME_COLOURS[t.outcome]}"/>`);
    if (t.waitMs !== undefined && t.waitMs > 0) {
      const ww = Math.min(w, LABEL_W + x(Math.min(t.sent + t.waitMs, t.ended)) - x0);
      parts.push(`<rect class="wait" x="${f(x0)}" y="${mid - BAR_H / 2}" width="${f(Math.max(1, ww))}" height="${BAR_H}" rx="2" ${WAIT_VEIL}/>`);
    }
    if (t.answeredBy === 'store' && (t.status === 'ok' || t.status === '5xx')) {
      // At the moment the store answered (a lost reply's bar runs on to the timeout).
      parts.push(`<circle class="ring" cx="${px(t.answeredAt ?? t.ended)}" cy="${mid}" r="5.5" fill="none" stroke="${RING}" stroke-width="1.6"/>`);
    }
  }
  for (const e of a.executions) {
    parts.push(`<circle class="${e.duplicate ? 'execution duplicate' : 'execution'}" cx="${px(e.at)}" cy="${mid}" r="${e.duplicate ? 3.8 : 3}" fill="${e.duplicate ? DUPLICATE : EXECUTION}" stroke="${BG}" stroke-width="0.8"/>`);
  }
  for (const c of a.calls) {
    if (c.stopped) parts.push(`<path class="stopped ${c.stopped}" d="M${f(LABEL_W + x(c.end) - 3.5)} ${mid - 3.5}l7 7m0 -7l-7 7" stroke="${STOP_COLOURS[c.stopped]}" stroke-width="1.8"/>`);
  }
  return `<g class="row${row.tags.length > 0 ? ' eventful' : ''}" data-row="${index}" tabindex="0"><title>${escapeHtml(row.story)}</title>${parts.join('')}</g>`;
}

/** The legend's entries for what capacity adds (docs/model.md, "Capacity"). */
const CAPACITY_ITEMS: [string, string][] = [
  [`<rect y="-4" width="18" height="8" rx="2" fill="${OUTCOME_COLOURS.ok}"/><rect y="-4" width="8" height="8" rx="2" ${WAIT_VEIL}/>`, 'waited for a worker (the lighter start)'],
  [`<rect y="-4" width="18" height="8" rx="2" fill="${OUTCOME_COLOURS.shed}"/>`, 'shed: 503, the queue was full'],
  [`<rect y="-4" width="18" height="8" rx="2" fill="${OUTCOME_COLOURS.expired}"/>`, 'expired: timed out queued, dropped unrun'],
  [`<path d="M5.5 -3.5l7 7m0 -7l-7 7" stroke="${STOP_COLOURS.breaker}" stroke-width="1.8"/>`, 'breaker open: attempt not sent'],
  [`<path d="M5.5 -3.5l7 7m0 -7l-7 7" stroke="${STOP_COLOURS.budget}" stroke-width="1.8"/>`, 'retry budget empty: no retry'],
];
/** The throttle's entry (a guard of version 4), only where it stopped a call. */
const THROTTLE_ITEM: [string, string] = [`<path d="M5.5 -3.5l7 7m0 -7l-7 7" stroke="${STOP_COLOURS.throttle}" stroke-width="1.8"/>`, 'retry throttled: no retry'];

/** Whether the rows come from a coupled run: its attempts that reached a worker carry their wait (0 without a queue). */
function underCapacity(rows: readonly TimelineRow[]): boolean {
  return rows.some((r) => r.action.calls.some((c) => c.stopped !== undefined) || r.action.attempts.some((t) => t.waitMs !== undefined || t.answeredBy === 'queue'));
}

/** The legend's entries: every timeline's, then (a coupled run's) capacity's. */
const LEGEND_ITEMS: [string, string][] = [
  [`<rect y="-4" width="18" height="8" rx="2" fill="${OUTCOME_COLOURS.ok}"/>`, 'got a reply'],
  [`<rect y="-4" width="18" height="8" rx="2" fill="${OUTCOME_COLOURS.error}"/>`, 'got a 5xx reply'],
  [`<rect y="-4" width="18" height="8" rx="2" fill="${OUTCOME_COLOURS.timeout}"/>`, 'timed out (slow, crashed or request lost)'],
  [`<rect y="-4" width="18" height="8" rx="2" fill="${OUTCOME_COLOURS.reply_lost}"/>`, 'reply lost'],
  [`<rect y="-4" width="18" height="8" rx="2" fill="${OUTCOME_COLOURS.conflict_409}"/>`, '409 still in progress'],
  [`<rect y="-4" width="18" height="8" rx="2" fill="${OUTCOME_COLOURS.mismatch_422}"/>`, '422 different arguments'],
  [`<circle cx="9" r="3" fill="${EXECUTION}"/>`, 'execution'],
  [`<circle cx="9" r="3.8" fill="${DUPLICATE}"/>`, 'duplicate execution'],
  [`<circle cx="9" r="5.5" fill="none" stroke="${RING}" stroke-width="1.6"/>`, 'answered from the key store'],
  [`<path d="M9 2l-4 -4.5h8z" fill="${REPLAN}"/>`, 'model re-plan'],
  [`<path d="M9 -8v16" stroke="${REPLAY}" stroke-width="2" stroke-dasharray="3 2"/>`, 'crash replay'],
];

function legendItems(rows: readonly TimelineRow[]): [string, string][] {
  if (!underCapacity(rows)) return LEGEND_ITEMS;
  const throttled = rows.some((r) => r.action.calls.some((c) => c.stopped === 'throttle'));
  return [...LEGEND_ITEMS, ...CAPACITY_ITEMS, ...(throttled ? [THROTTLE_ITEM] : [])];
}

/** The legend's height: 78 px for the three lines of a timeline without capacity. */
const legendHeight = (items: readonly unknown[]) => 18 + LEGEND_LINE * Math.ceil(items.length / PER_LINE);

function legendSvg(y: number, items: readonly [string, string][]): string {
  const cells = items.map(([glyph, text], k) => {
    const gx = 8 + (k % PER_LINE) * 265;
    const gy = y + 18 + Math.floor(k / PER_LINE) * LEGEND_LINE;
    return `<g class="item" transform="translate(${gx} ${gy})">${glyph}<text x="26" y="4">${escapeHtml(text)}</text></g>`;
  });
  return `<g class="legend">${cells.join('')}</g>`;
}

/**
 * The timeline of `rows`; `timeout` (ms) sets the axis (see timeAxis). A standalone SVG
 * document; `caption` (what made it: scenario, seed, command) is its first line.
 */
export function timelineSvg(rows: readonly TimelineRow[], timeout: number, caption = ''): string {
  const maxMs = Math.max(timeout, ...rows.map((r) => lastEvent(r.action))) * 1.05;
  const axis = timeAxis(maxMs, timeout, PLOT_W);
  const x = axis.x;
  const width = LABEL_W + PLOT_W + RIGHT;
  const bodyH = rows.length * ROW_H;
  const legend = legendItems(rows);
  const height = TOP + bodyH + 12 + legendHeight(legend);
  const ticks = axis.ticks.map((t) => {
    const tx = LABEL_W + x(t);
    return (`<line x1="${f(tx)}" x2="${f(tx)}" y1="${TOP - 4}" y2="${TOP + bodyH}" stroke="${LIFE}" stroke-dasharray="2 3"/>`
      + `<text class="tick" x="${f(tx)}" y="${TOP - 8}" text-anchor="middle">${t === 0 ? '0' : escapeHtml(duration(t))}</text>`);
  });
  const body = rows.map((r, k) => rowSvg(r, k, TOP + k * ROW_H, x)).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT_STACK}" font-size="11">
<style>.timeline text{fill:#d6dbe6}.timeline .tags{fill:#8791a5;font-size:10px}.timeline .tick{fill:${AXIS}}.timeline .bg{fill:${BG}}.timeline .row:hover .bg,.timeline .row.selected .bg{fill:${ROW_HOVER}}.timeline .row{cursor:pointer;outline:none}.timeline .row:focus .bg{fill:${ROW_HOVER}}.timeline .caption{fill:#aab3c5}</style>
<rect width="${width}" height="${height}" fill="${BG}"/>
<text class="caption" x="8" y="14">${escapeHtml(caption)}</text>
<text class="tick" x="8" y="${TOP - 8}">action</text><text class="tick" x="${width - RIGHT}" y="${TOP - 22}" text-anchor="end">${escapeHtml(axis.title)}</text>
${ticks.join('')}
${body}
${legendSvg(TOP + bodyH + 6, legend)}
</svg>`;
}
