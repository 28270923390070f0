/**
 * The report's pictures of time (issue 15, item 5), from synthetic series: the charts' shading,
 * firings and threshold sit where the run's times and rates put them, empty counts get no
 * chart; the section's words and table; and --at's choice of the traced actions.
 */
import { describe, expect, it } from 'vitest';
import { evaluateAlerts, firings } from '../src/results/alerts.js';
import { CHUNK_ACTIONS, type ChunkPlan } from '../src/engine/plan.js';
import { NUM_SERIES, SER, type SeriesCounts, type SeriesName } from '../src/model/series.js';
import type { TracedAction } from '../src/engine/trace.js';
import { DEFAULT_SCENARIO } from '../src/model/shape.js';
import type { WrittenScenario } from '../src/model/types.js';
import { columns, firingMarks, MIN_INCIDENT_PX, PLOT, plotTop, seriesChart, seriesCharts, type SeriesChartInput } from '../src/report/series-chart.js';
import { runTime, timeTicks, valueAxis } from '../src/report/time-axes.js';
import { nearestActions, numberedInRun } from '../src/report/time-focus.js';
import { timeSection } from '../src/report/time-section.js';

const MIN = 60_000;

/** Ten 1-minute buckets: 60 attempts each (1/s), and 600 409s (10/s) in buckets 3 to 5, none elsewhere. */
function series(): SeriesCounts {
  const counts = new Float64Array(10 * NUM_SERIES);
  for (let b = 0; b < 10; b++) {
    counts[b * NUM_SERIES + SER.attempts] = 60;
    if (b >= 3 && b <= 5) counts[b * NUM_SERIES + SER.conflicts_409] = 600;
  }
  return { step: MIN, buckets: 10, counts };
}

const ALERT = { name: 'c409', metric: 'conflicts_409' as SeriesName, above: 5, for: MIN, grace: 30 * MIN };
const INCIDENT = { name: 'slowdown', from: 3 * MIN, to: 6 * MIN };

function input(at?: number): SeriesChartInput {
  const s = series();
  return { series: s, incidents: [INCIDENT], alerts: [{ ...ALERT, firings: firings(s, ALERT), firing_count: firings(s, ALERT).length }], loadEnd: 10 * MIN, ...(at !== undefined ? { at } : {}) };
}

/** The value of attribute `name` of the first element `tag` matches (its last tag). */
function attr(svg: string, tag: RegExp, name: string): number {
  const element = tag.exec(svg)?.[0];
  expect(element, String(tag)).toBeDefined();
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(element as string)?.[1];
  expect(value, `${name} of ${element}`).toBeDefined();
  return Number(value);
}

/** x of run time t on a chart spanning the 10 buckets (px). */
const xAt = (t: number) => PLOT.left + (t / (10 * MIN)) * PLOT.width;

describe('the series charts', () => {
  it('one chart per count with a non-zero bucket, in SERIES_NAMES order; empty counts skipped', () => {
    const charts = seriesCharts(input());
    expect(charts.map((c) => c.name)).toEqual(['attempts', 'conflicts_409']);
    for (const { name, svg } of charts) {
      expect(svg).toContain(`data-series="${name}"`);
      expect(svg).toMatch(new RegExp(`role="img" aria-labelledby="series-${name}-title series-${name}-desc"`));
      expect(svg).toMatch(new RegExp(`<title id="series-${name}-title">[^<]+</title>`));
      expect(svg).toMatch(/<desc id="[^"]+">[^<]*Shaded and labelled: incident slowdown from 3 min to 6 min\.[^<]*<\/desc>/);
    }
  });

  it('shades the incident window from its from to its to, labelled by name, on every chart', () => {
    for (const { svg } of seriesCharts(input())) {
      const rect = /<g class="incident" data-incident="slowdown" data-from-ms="180000" data-to-ms="360000">.*?<rect[^>]*>/;
      expect(attr(svg, rect, 'x')).toBeCloseTo(xAt(3 * MIN), 0);
      expect(attr(svg, rect, 'width')).toBeCloseTo(xAt(6 * MIN) - xAt(3 * MIN), 0);
      expect(attr(svg, rect, 'height')).toBe(PLOT.height);
      expect(svg).toMatch(/data-incident="slowdown"[^]*?<text[^>]*>slowdown<\/text>/);
    }
  });

  it('draws a 20-second pause on a 168-minute axis at least MIN_INCIDENT_PX wide, its label above the plot where no curve reaches', () => {
    const counts = new Float64Array(168 * NUM_SERIES).fill(0);
    for (let b = 0; b < 168; b++) counts[b * NUM_SERIES + SER.attempts] = 60_000; // 1000/s: the line at the plot's top
    const pause = { name: 'pause', from: 10 * MIN, to: 10 * MIN + 20_000 };
    for (const alerts of [[], [{ ...ALERT, metric: 'attempts' as SeriesName, firings: [], firing_count: 0 }]]) {
      const svg = seriesChart({ series: { step: MIN, buckets: 168, counts }, incidents: [pause], alerts, loadEnd: 120 * MIN }, 'attempts');
      const group = /<g class="incident" data-incident="pause"[^]*?<\/g>/.exec(svg)?.[0] ?? '';
      const top = plotTop(alerts.length, true);
      expect(attr(group, /<rect[^>]*>/, 'width')).toBeGreaterThanOrEqual(MIN_INCIDENT_PX);
      expect(attr(group, /<rect[^>]*>/, 'y')).toBe(top);
      expect(attr(group, /<text[^>]*>/, 'y')).toBeLessThan(top - 2); // above the plot, under any alert's row
      expect(attr(group, /<text[^>]*>/, 'y')).toBeGreaterThan(top - 18);
      // The line at 1000/s runs along the plot's top, under the label.
      expect(Math.min(...[.../<path class="line" d="([^"]+)"/.exec(svg)?.[1]?.matchAll(/ ([\d.]+)/g) ?? []].map((m) => Number(m[1])))).toBe(top);
    }
  });

  it('marks the firing on the chart of the alert\'s metric only, from its start to its end, and draws the threshold', () => {
    const s = series();
    // Above 5/s from bucket 3: fires at the end of bucket 3 (4 min), clears at the end of bucket 6 (7 min).
    expect(firings(s, ALERT)).toEqual([[4 * MIN, 7 * MIN]]);
    const svg = seriesChart(input(), 'conflicts_409');
    const band = /<g class="firing" data-alert="c409" data-start-ms="240000" data-end-ms="420000">.*?<rect[^>]*>/;
    expect(attr(svg, band, 'x')).toBeCloseTo(xAt(4 * MIN), 0);
    expect(attr(svg, band, 'width')).toBeCloseTo(xAt(7 * MIN) - xAt(4 * MIN), 0);
    expect(svg).toMatch(/<title>alert c409 fired: 4 min to 7 min<\/title>/);
    // The axis tops at 10/s (the 409s' peak), so 5/s is half-way up the plot (under the alert's row and the incident's label).
    const line = /<line class="threshold" data-threshold="c409"[^>]*>/;
    expect(attr(svg, line, 'y1')).toBeCloseTo(plotTop(1, true) + PLOT.height / 2, 1);
    expect(attr(svg, line, 'y2')).toBeCloseTo(plotTop(1, true) + PLOT.height / 2, 1);
    expect(svg).toContain('c409: above 5/s for 1 min');
    const other = seriesChart(input(), 'attempts');
    expect(other).not.toContain('data-alert=');
    expect(other).not.toContain('data-threshold=');
  });

  it('draws the rate per second as a step line: 10/s at the top of the axis, 0 at its foot', () => {
    const svg = seriesChart(input(), 'conflicts_409');
    const d = /<path class="line" d="([^"]+)"/.exec(svg)?.[1] ?? '';
    const ys = [...d.matchAll(/V([\d.]+)/g)].map((m) => Number(m[1]));
    const top = plotTop(1, true); // under the alert's row and the incident's label
    expect(plotTop(1, false)).toBe(PLOT.top);
    expect(ys).toEqual([top, top + PLOT.height]); // up at 3 min, down at 6 min
    expect(d.startsWith(`M${PLOT.left} ${top + PLOT.height}`)).toBe(true);
  });

  it('gives each alert of a chart a row of its own above the plot, named, in the order they are listed', () => {
    const s = series();
    const alerts = ['warn', 'critical', 'page'].map((name, k) => {
      const a = { ...ALERT, name, above: 2 + 3 * k };
      return { ...a, firings: firings(s, a), firing_count: firings(s, a).length };
    });
    const svg = seriesChart({ series: s, incidents: [], alerts, loadEnd: 10 * MIN }, 'conflicts_409');
    const strip = (name: string) => Number(new RegExp(`data-alert="${name}"[^]*?<rect x="[^"]*" y="([^"]*)" width="[^"]*" height="6"`).exec(svg)?.[1]);
    const band = (name: string) => Number(new RegExp(`data-alert="${name}"[^]*?<rect x="[^"]*" y="([^"]*)"`).exec(svg)?.[1]);
    const ys = alerts.map((a) => strip(a.name));
    expect(ys[1]! - ys[0]!).toBe(18);
    expect(ys[2]! - ys[1]!).toBe(18);
    for (const a of alerts) {
      expect(band(a.name)).toBeGreaterThanOrEqual(ys[2]! + 6); // the plot starts below the last row
      expect(svg).toContain(`>${a.name} fired:</text>`);
    }
  });

  it('keeps the threshold on the axis when it is above every bucket', () => {
    const s = series();
    const high = { ...ALERT, above: 40 };
    const svg = seriesChart({ series: s, incidents: [], alerts: [{ ...high, firings: firings(s, high), firing_count: 0 }], loadEnd: 10 * MIN }, 'conflicts_409');
    expect(firings(s, high)).toEqual([]);
    const y = attr(svg, /<line class="threshold"[^>]*>/, 'y1');
    expect(y).toBeGreaterThanOrEqual(PLOT.top);
    expect(svg).toContain('it never fired');
  });

  it('marks --at with a line at its time', () => {
    const svg = seriesChart(input(2.5 * MIN), 'attempts');
    expect(svg).toMatch(new RegExp(`<g class="at" data-at-ms="150000"><path d="M${xAt(2.5 * MIN)} `));
  });

  it('more buckets than pixels: columns of whole buckets, their means, lowest and highest', () => {
    const n = 2000;
    const counts = new Float64Array(n * NUM_SERIES);
    for (let b = 0; b < n; b++) counts[b * NUM_SERIES + SER.timeouts] = b % 2; // 0, 1, 0, 1 ... per 1 s bucket
    const cols = columns({ step: 1000, buckets: n, counts }, 'timeouts', 500);
    expect(cols).toHaveLength(500);
    expect(cols[0]).toEqual({ start: 0, end: 4000, min: 0, max: 1, mean: 0.5 });
    expect(cols.at(-1)?.end).toBe(n * 1000);
  });

  it('past MAX_FIRING_MARKS, firings less than a pixel apart are one band that says how many it holds', () => {
    const many: [number, number][] = Array.from({ length: 1000 }, (_, k) => [k * 10, k * 10 + 5]);
    const x = (ms: number) => ms / 100; // 100 ms a pixel: the gaps of 5 ms vanish
    const marks = firingMarks(many, x, 300);
    expect(marks.length).toBeLessThan(300);
    expect(marks.reduce((n, m) => n + m.count, 0)).toBe(1000);
    expect(firingMarks(many.slice(0, 300), x, 300)).toHaveLength(300); // at the limit: each its own
  });
});

describe('the axes', () => {
  it('run times in minutes and seconds', () => {
    expect([20 * MIN, 20 * MIN + 1500, 30_000, 250, 0].map(runTime)).toEqual(['20 min', '20 min 1.5 s', '30 s', '0.25 s', '0 s']);
  });

  it('time ticks on steps people count in', () => {
    expect(timeTicks(60 * MIN)).toEqual([0, 10, 20, 30, 40, 50, 60].map((m) => m * MIN));
    expect(timeTicks(10 * MIN)).toEqual([0, 2, 4, 6, 8, 10].map((m) => m * MIN));
    expect(timeTicks(30_000)).toEqual([0, 5, 10, 15, 20, 25, 30].map((s) => s * 1000));
  });

  it('a value axis whose top is a tick at or above the highest value', () => {
    expect(valueAxis(10)).toEqual({ top: 10, ticks: [0, 2.5, 5, 7.5, 10] });
    expect(valueAxis(78.2)).toEqual({ top: 80, ticks: [0, 20, 40, 60, 80] });
    expect(valueAxis(0.042)).toEqual({ top: 0.06, ticks: [0, 0.02, 0.04, 0.06] });
    expect(valueAxis(0)).toEqual({ top: 1, ticks: [0, 0.5, 1] });
  });
});

describe('the section "Over time"', () => {
  const scenario: WrittenScenario = {
    ...DEFAULT_SCENARIO,
    incidents: [{ ...latencyWindow(), name: 'slowdown', from: 3 * MIN, to: 6 * MIN }],
    alerts: [ALERT],
  } as WrittenScenario;

  it('says in words what is shaded and which counts stayed at 0, and tabulates the alert', () => {
    const s = series();
    const html = timeSection({ series: s, scenario, alerts: evaluateAlerts(s, scenario.alerts, scenario.incidents) });
    expect(html.startsWith('<h2>Over time</h2>\n')).toBe(true);
    expect(html).toContain('are the incident windows: <strong>slowdown</strong> from 3 min to 6 min (latency ×4)');
    expect(html).toContain('Counts that stayed at 0 the whole run have no chart: arrivals, executions, duplicates, mismatches_422, dedup_hits, timeouts, unknown_outcomes, lost, store_unavailable.');
    const row = /<tr data-alert-row="c409">(.*?)<\/tr>/.exec(html)?.[1] ?? '';
    // The firing starts at 4 min, 1 min after the incident's from; it belongs to it: no false alarm.
    expect(row).toBe('<td>c409</td><td>conflicts_409 above 5/s for 1 min, grace 30 min</td><td>1: 4 min to 7 min</td><td>slowdown: 1 min</td><td>0</td>');
  });

  it('has no table without alerts', () => {
    const html = timeSection({ series: series(), scenario: { ...scenario, alerts: [] }, alerts: undefined });
    expect(html).not.toContain('<table');
    expect(html).not.toContain('data-alert=');
  });
});

/** An incident window with every key unchanged but the latency. */
function latencyWindow(): WrittenScenario['incidents'][number] {
  return {
    name: 'w', from: 0, to: 1,
    service: { latency_multiplier: 4, error_rate: null, crash_probability: null },
    network: { request_loss: null, reply_loss: null },
    store: { down: null },
    runtime: { crash_probability: null },
  } as WrittenScenario['incidents'][number];
}

describe('--at: the actions nearest a time', () => {
  /** 100 groups arriving 1 s apart from the chunk's start, every tenth with a twin. */
  const plan: ChunkPlan = { index: 2, actions: 100, offset: 600_000, span: 99_000, opOffset: 600_000, opSpan: 99_000 };
  const actions: TracedAction[] = [];
  for (let g = 0; g < 100; g++) {
    const base = { group: g, groupArrival: g * 1000, calls: [], executions: [] };
    actions.push({ ...base, twin: false, arrival: 0, attempts: [{ call: 0, number: 1, sent: 0, ended: 5, outcome: 'ok', answeredBy: 'handler', status: 'ok', key: `intent:${g + 1}` }] });
    if (g % 10 === 0) actions.push({ ...base, twin: true, arrival: 20, attempts: [] });
  }

  it('takes the groups arriving nearest the time, twins with them, both sides of it', () => {
    const near = nearestActions(actions, plan, 600_000 + 50_400, 10);
    expect(near.groups).toBe(10);
    expect([...new Set(near.actions.map((a) => a.group))]).toEqual([46, 47, 48, 49, 50, 51, 52, 53, 54, 55]);
    expect(near.actions.filter((a) => a.twin).map((a) => a.group)).toEqual([50]);
    expect([near.from, near.to]).toEqual([646_000, 655_000]);
  });

  it('at the chunk\'s edges, from one side; never more groups than the chunk has', () => {
    expect(nearestActions(actions, plan, 0, 3).actions.map((a) => a.group)).toEqual([0, 0, 1, 2]);
    expect(nearestActions(actions, plan, 1e9, 3).actions.map((a) => a.group)).toEqual([97, 98, 99]);
    expect(nearestActions(actions, plan, 650_000, 1000).groups).toBe(100);
  });

  it('numbers the actions in the run, keys alike', () => {
    const [first] = numberedInRun(actions.slice(0, 1), plan);
    expect(first?.group).toBe(2 * CHUNK_ACTIONS);
    expect(first?.attempts[0]?.key).toBe(`intent:${2 * CHUNK_ACTIONS + 1}`);
    expect(actions[0]?.attempts[0]?.key).toBe('intent:1'); // the traced actions are not changed
  });

  it('shades the time after the load apart, from the load\'s end (mid-bucket) to the series\' end, and says so', () => {
    const svg = seriesChart({ ...input(), loadEnd: 8.5 * MIN }, 'attempts');
    const x = attr(svg, /<g class="after-load"[^>]*>[^]*?<rect[^>]*>/, 'x');
    expect(x).toBeCloseTo(PLOT.left + (8.5 / 10) * PLOT.width, 0);
    expect(svg).toContain('data-load-end-ms="510000"');
    expect(svg).toContain('the load has ended');
    expect(seriesChart(input(), 'attempts')).not.toContain('after-load'); // a load to the series' end: nothing to shade
  });
});
