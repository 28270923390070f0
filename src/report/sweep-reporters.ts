/**
 * The reporters of `sweep` (and of `merge` for a sweep's parts): a sweep's points in, the
 * report's text out. A new format is a module with a render function, its entry in formats.ts
 * (its name, its words in `--help`, the option that asks for it if `--format` does not) and one here.
 */
import type { ChalkInstance } from 'chalk';
import type { SweepMetric } from '../sweeps/metric.js';
import { renderCsv } from './csv.js';
import { renderSweepJson, renderSweepTable, type SweepReport } from './sweep.js';
import type { SweepFormat } from './formats.js';

export { SWEEP_FORMATS, type SweepFormat } from './formats.js';

export interface SweepReporter {
  /** The whole report; `metric` is the one a heat map or chart shows, `style` colours a terminal's text. */
  render(report: SweepReport, metric: SweepMetric, style: ChalkInstance): string | Promise<string>;
}

const charts = () => import('./sweep-html.js'); // loads vega only for charts

/** A reporter for each format of formats.ts (SWEEP_FORMAT_INFO) and no other, in its order. */
export const SWEEP_REPORTERS: Readonly<Record<SweepFormat, SweepReporter>> = {
  table: { render: renderSweepTable },
  csv: { render: renderCsv },
  json: { render: renderSweepJson },
  html: { render: async (r, metric) => (await charts()).renderSweepHtml(r, metric) },
  svg: { render: async (r, metric) => (await charts()).renderSweepSvg(r, metric) },
};

/** The sweep's report in `format`. */
export async function renderSweep(report: SweepReport, format: SweepFormat, metric: SweepMetric, style: ChalkInstance): Promise<string> {
  return SWEEP_REPORTERS[format].render(report, metric, style);
}
