/**
 * The reporters of `sweep` (and of `merge` for a sweep's parts): a sweep's points in, the
 * report's text out. A new format is a module with a render function and one entry here;
 * `--format`'s choices are this table's keys, but for those asked for by an option of their own.
 */
import type { ChalkInstance } from 'chalk';
import type { MetricPath } from '../results/metric-paths.js';
import { renderCsv } from './csv.js';
import { renderSweepJson, renderSweepTable, type SweepReport } from './sweep.js';

export interface SweepReporter {
  /** The option that asks for this format, when `--format NAME` does not. */
  readonly option?: string;
  /** The whole report; `metric` is the one a heat map or chart shows, `style` colours a terminal's text. */
  render(report: SweepReport, metric: MetricPath, style: ChalkInstance): string | Promise<string>;
}

const charts = () => import('./sweep-html.js'); // loads vega only for charts

/** The table as given, its keys kept as the type of the formats and each value typed as a reporter. */
const registry = <F extends string>(reporters: Record<F, SweepReporter>) => reporters;

export const SWEEP_REPORTERS = registry({
  table: { render: renderSweepTable },
  csv: { render: renderCsv },
  json: { render: renderSweepJson },
  html: { render: async (r, metric) => (await charts()).renderSweepHtml(r, metric) },
  svg: { option: '--svg', render: async (r, metric) => (await charts()).renderSweepSvg(r, metric) },
});

export type SweepFormat = keyof typeof SWEEP_REPORTERS;

/** The choices of `--format`, default first. */
export const SWEEP_FORMATS = (Object.keys(SWEEP_REPORTERS) as SweepFormat[]).filter((f) => SWEEP_REPORTERS[f].option === undefined);

/** The sweep's report in `format`. */
export async function renderSweep(report: SweepReport, format: SweepFormat, metric: MetricPath, style: ChalkInstance): Promise<string> {
  return SWEEP_REPORTERS[format].render(report, metric, style);
}
