/**
 * The reporters of `sweep` (and of `merge` for a sweep's parts): a sweep's points in, the
 * report's text out. A new format is a module with a render function, its entry in formats.ts
 * (its name, its words in `--help`, the option that asks for it if `--format` does not) and one
 * here; a format that can write each point as it finishes gives `stream` too (sweep-stream.ts).
 */
import type { ChalkInstance } from 'chalk';
import type { SweepMetric } from '../sweeps/metric.js';
import { csvWriter, renderCsv } from './sweep-csv.js';
import { jsonWriter, renderSweepJson } from './sweep-json.js';
import { headOf, keptWriter, memorySink, shownFields, type SweepHead, type SweepSink, type SweepWriter } from './sweep-stream.js';
import { renderSweepTable, type SweepReport } from './sweep.js';
import type { SweepFormat } from './formats.js';

export { SWEEP_FORMATS, type SweepFormat } from './formats.js';

export interface SweepReporter {
  /** The whole report; `metric` is the one a heat map or chart shows, `style` colours a terminal's text. */
  render(report: SweepReport, metric: SweepMetric, style: ChalkInstance): string | Promise<string>;
  /** Writes the report to `sink` as its points come, keeping none; without it, the points are kept slim and `render` draws them after the last. */
  stream?: (head: SweepHead, sink: SweepSink) => SweepWriter;
}

const charts = () => import('./sweep-html.js'); // loads vega only for charts

/** A reporter for each format of formats.ts (SWEEP_FORMAT_INFO) and no other, in its order. */
export const SWEEP_REPORTERS: Readonly<Record<SweepFormat, SweepReporter>> = {
  table: { render: renderSweepTable },
  csv: { render: renderCsv, stream: csvWriter },
  json: { render: renderSweepJson, stream: jsonWriter },
  html: { render: async (r, metric) => (await charts()).renderSweepHtml(r, metric) },
  svg: { render: async (r, metric) => (await charts()).renderSweepSvg(r, metric) },
};

/** The sweep's report in `format`, written to `sink` as the points are given to it, in the grid's order. */
export function sweepWriter(format: SweepFormat, head: SweepHead, metric: SweepMetric, style: ChalkInstance, sink: SweepSink): SweepWriter {
  const reporter = SWEEP_REPORTERS[format];
  return reporter.stream?.(head, sink) ?? keptWriter(head, shownFields(metric, head.find), async (r) => sink.write(await reporter.render(r, metric, style)));
}

/** The sweep's report in `format`, whole. */
export async function renderSweep(report: SweepReport, format: SweepFormat, metric: SweepMetric, style: ChalkInstance): Promise<string> {
  const parts: string[] = [];
  const writer = sweepWriter(format, headOf(report), metric, style, memorySink(parts));
  for (const pt of report.points) writer.point(pt);
  await writer.end();
  return parts.join('');
}
