/**
 * A run's results on the page: every metric in its element (`data-metric` names it, and
 * `data-value` holds its number as `run --json` writes it), the duplicates-by-source bar, the
 * key-store figure, warnings, the timeline and its story panel, and the download.
 */
import type { Metrics } from '../../results/metrics.js';
import { formatDuration } from '../../scenario/duration.js';
import { breakdownSvg } from '../breakdown.js';
import { metricText, metricValue } from '../metric-text.js';
import type { RunResult } from '../protocol.js';
import { listedSeriesJson } from '../series-json.js';
import type { TimeView } from '../time-view.js';
import type { StoryPanel } from './story.js';

const $ = (id: string) => document.getElementById(id) as HTMLElement;

/** Whether `metrics` hold `path` (a quantile of no samples, null, included): each part of it their own field. */
function reports(metrics: object, path: string): boolean {
  let node: unknown = metrics;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return true;
}

/** Headline cards that turn red when their metric is above 0: what no design should have. */
const ZERO_IS_GOOD: ReadonlySet<string> = new Set(['duplicates_per_1000', 'lost_per_1000']);

export class ResultsView {
  private download: string | undefined;
  private time: TimeView | null = null;

  constructor(private readonly story: StoryPanel) {
    $('download').addEventListener('click', () => this.save());
    $('series-details').addEventListener('toggle', () => this.writeSeries());
  }

  render(r: RunResult): void {
    const metrics = r.metrics as unknown as Metrics;
    // A row of a metric only some runs report (a coupled run's capacity readings, a trigger's) shows when the run has it.
    for (const row of document.querySelectorAll<HTMLElement>('[data-only]')) {
      const path = row.querySelector<HTMLElement>('[data-metric]')?.dataset['metric'] ?? '';
      row.hidden = !reports(r.metrics, path);
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-metric]')) {
      const path = el.dataset['metric'] ?? '';
      el.dataset['value'] = JSON.stringify(metricValue(metrics, path));
      el.textContent = metricText(metrics, path);
      if (ZERO_IS_GOOD.has(path)) el.closest('.card')?.classList.toggle('bad', (metricValue(metrics, path) ?? 0) > 0);
    }
    // The narrow window's bar at the foot of the knobs (a copy for the eye, hidden from screen readers).
    for (const el of document.querySelectorAll<HTMLElement>('[data-summary]')) {
      const path = el.dataset['summary'] ?? '';
      if (path !== 'status') el.textContent = metricText(metrics, path);
    }
    $('metrics-json').textContent = JSON.stringify(r.metrics, null, 2);
    $('saturation').innerHTML = r.saturation;
    $('breakdown').innerHTML = breakdownSvg(metrics);
    $('keystore-note').textContent = r.keyStoreNote;
    const warnings = $('warnings');
    warnings.hidden = r.warnings.length === 0;
    warnings.replaceChildren(...r.warnings.map((w) => Object.assign(document.createElement('p'), { textContent: `warning: ${w}` })));
    this.renderTime(r.time);
    $('sample-note').textContent = r.sampleNote;
    this.story.reset(r.stories);
    $('timeline').innerHTML = r.timeline;
    if (this.download) URL.revokeObjectURL(this.download);
    this.download = URL.createObjectURL(new Blob([r.yaml], { type: 'application/yaml' }));
    $('status').dataset['elapsedMs'] = String(r.elapsedMs);
  }

  /** The run over time: its charts and what they show. */
  private renderTime(time: TimeView | null): void {
    this.time = time;
    $('time-note').textContent = time?.note ?? 'The run outlasted the buckets the page counts its series in, so it has no chart here: idem-sim run --series with a longer step counts it.';
    $('time-charts').innerHTML = time ? time.charts.join('\n') : '';
    $('time-alerts').innerHTML = time?.alerts ?? '';
    $('series-step').textContent = time ? formatDuration(time.step) : 'STEP';
    this.writeSeries();
  }

  /** The series as JSON, written only while its details are open (thousands of buckets make a megabyte). */
  private writeSeries(): void {
    const open = ($('series-details') as HTMLDetailsElement).open;
    const t = this.time;
    $('series-json').textContent = open && t ? JSON.stringify(listedSeriesJson(t.series, t.loadEnd, t.listed), null, 2) : '';
  }

  /** The scenario as a file, saved by the browser. */
  private save(): void {
    if (!this.download) return;
    const a = Object.assign(document.createElement('a'), { href: this.download, download: 'scenario.yaml' });
    document.body.append(a);
    a.click();
    a.remove();
  }
}
