/**
 * `sweep --format csv` (and `merge --format csv`): a header, then a row per point, each written
 * as its point finishes (sweep-stream.ts). The columns are csv.ts's, with the saturation's, the
 * alerts' and --find's from the points' shapes (sweep-columns.ts); docs/csv.md lists them.
 */
import { METRICS } from '../results/metric-registry.js';
import { readMetric } from '../results/metric-paths.js';
import { isDurationKey } from '../scenario/schema.js';
import { csvColumns, csvMetricPaths, csvText, TRAILING_COLUMNS } from './csv.js';
import { saturationCell } from './saturation-text.js';
import { alertValue } from './sweep-alerts.js';
import { found } from './sweep-find.js';
import { wholeText, type PromptWriter, type SweepHead, type SweepSink } from './sweep-stream.js';
import type { SweepPointResult, SweepReport } from './sweep.js';

/** 12 significant digits: no float noise in spreadsheets. */
const round = (x: number) => Number(x.toPrecision(12));

/**
 * A varied key's cell, as resolved: a duration in ms, a mapping as JSON. Under an `_ms` column
 * only numbers: `none` (no lease) is an empty cell, which spreadsheets and pandas read as missing.
 */
function paramCell(path: string, v: string | number | boolean | null | undefined): string | number | boolean {
  if (v === null || v === undefined) return '';
  return isDurationKey(path) && typeof v !== 'number' ? '' : v;
}

/** The CSV, written to `sink` a row at a time. */
export function csvWriter(head: SweepHead, sink: SweepSink): PromptWriter {
  const { columns, paths } = head;
  const find = head.find?.length ? head.find : undefined;
  const metrics = csvMetricPaths(columns.coupled, columns.reports);
  const { saturation, alerts } = columns;
  const names = csvColumns(paths, columns.coupled, columns.reports).map((c) => c.name);
  // The saturation's and an alert's readings go before the run information, as `expect:` names them (a missed incident's delay: an empty cell);
  // then, with --find, whether the point meets its conditions (report/sweep-find.ts).
  names.splice(names.length - TRAILING_COLUMNS.length, 0, ...saturation, ...alerts.map((a) => a.path), ...(find ? ['found'] : []));
  sink.write(csvText([], names));
  const row = (pt: SweepPointResult) => [
    ...paths.map((p) => paramCell(p, pt.params[p])),
    ...metrics.flatMap((p) => {
      const m = readMetric(pt.metrics, p);
      const v = m.value === null ? '' : round(m.value);
      if (METRICS[p].kind !== 'estimate') return [v];
      return m.ci95 ? [v, round(m.ci95[0]), round(m.ci95[1])] : [v, '', ''];
    }),
    ...saturation.map((c) => saturationCell(pt.metrics, c)),
    ...alerts.map((a) => alertValue(pt, a.path) ?? ''),
    ...(find ? [String(found(pt, find))] : []),
    head.seed, head.version,
  ];
  return {
    point: (pt) => sink.write(csvText([row(pt)], names, false)),
    end: () => {},
  };
}

export function renderCsv(r: SweepReport): string {
  return wholeText(r, csvWriter);
}
