/**
 * The duplicates-by-source bar, drawn as plain SVG (the report's chart is Vega-Lite, rendered
 * in Node; the page redraws this one at every run): one bar per source (a trigger's redeliveries
 * only where the run has a trigger) with its 95% interval
 * as a whisker, in the report's colours; the figure's list beside it gives the values in words.
 * With no duplicate from any source, no whiskers (each would span the axis and read as the most
 * there could be): empty bars on an axis from 0 to 1, each row saying 0 and its upper bound.
 */
import type { Metrics } from '../results/metrics.js';
import { escapeHtml, FONT_STACK } from '../report/html.js';
import { estimateText, num } from '../report/format.js';
import { duplicateSources, noDuplicates } from '../report/duplicate-sources.js';
import { capitalised } from '../report/metric-text.js';
import { metricTitle } from '../results/metric-registry.js';

const LABEL_W = 118, BAR_W = 200, TEXT_W = 16, ROW_H = 26, TOP = 4, AXIS_H = 22;

const f = (x: number) => (Math.round(x * 10) / 10).toString();

export function breakdownSvg(metrics: Pick<Metrics, 'duplicates_per_1000'>): string {
  const rows = duplicateSources(metrics);
  const none = noDuplicates(metrics);
  const top = Math.max(...rows.map((r) => r.e.ci95[1]), ...rows.map((r) => r.e.value));
  const max = top > 0 && Number.isFinite(top) && !none ? top : 1;
  const x = (v: number) => LABEL_W + (Math.max(0, Math.min(v, max)) / max) * BAR_W;
  const width = LABEL_W + BAR_W + TEXT_W, height = TOP + rows.length * ROW_H + AXIS_H;
  const bars = rows.map((r, k) => {
    const y = TOP + k * ROW_H;
    const mid = y + ROW_H / 2;
    const [lo, hi] = r.e.ci95;
    return `<text x="${LABEL_W - 6}" y="${mid + 4}" text-anchor="end">${escapeHtml(r.label)}</text>`
      + `<rect x="${LABEL_W}" y="${f(y + 4)}" width="${f(x(r.e.value) - LABEL_W)}" height="${ROW_H - 8}" fill="#d1495b"/>`
      + (none
        ? `<text x="${LABEL_W + 4}" y="${mid + 4}">${escapeHtml(estimateText(r.e))}</text>`
        : `<path d="M${f(x(lo))} ${mid}H${f(x(hi))}M${f(x(lo))} ${mid - 4}v8M${f(x(hi))} ${mid - 4}v8" stroke="#1b1f24" fill="none"/>`);
  });
  const axisY = TOP + rows.length * ROW_H;
  const ticks = [0, 0.5, 1].map((t) => `<text x="${f(LABEL_W + t * BAR_W)}" y="${axisY + 15}" text-anchor="middle" fill="#57606a">${escapeHtml(num(t * max))}</text>`);
  const described = rows.map((r) => `${r.label} ${estimateText(r.e)}`).join('; ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT_STACK}" font-size="11" role="img" aria-label="${escapeHtml(capitalised(metricTitle('duplicates_per_1000')))} by source: ${escapeHtml(described)}">
<path d="M${LABEL_W} ${TOP}V${axisY}H${LABEL_W + BAR_W}" stroke="#d0d7de" fill="none"/>${bars.join('')}${ticks.join('')}
</svg>`;
}
