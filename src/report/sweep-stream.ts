/**
 * A sweep's report written as its points finish, in the grid's order (docs/sweeps.md, "Memory"):
 * CSV and JSON write each point's text as it comes and keep none of it; a table, HTML and SVG,
 * which lay out or chart every point together, keep each point's params and only the readings
 * they show (`slimPoint`), and are drawn after the last. The text goes to a `SweepSink`; the
 * columns the points will have are known before the first (sweep-columns.ts).
 */
import type { Metrics } from '../results/metrics.js';
import type { FindCondition } from '../sweeps/find.js';
import type { SweepMetric } from '../sweeps/metric.js';
import { SweepColumns } from './sweep-columns.js';
import { CAPACITY_SUMMARY, sweepMetrics, TRIGGER_SUMMARY, type SweepPointResult, type SweepReport } from './sweep.js';

/** What a report knows before its points: everything but them, and the columns they will have. */
export type SweepHead = Omit<SweepReport, 'points'> & { columns: SweepColumns };

/** Where a report's text goes, in order. */
export interface SweepSink {
  write(text: string): void;
  /** A place for text that must wait (the JSON's points, while the --find answers that come before them wait for the last point). */
  spool(): Spool;
}

/** Text kept aside in order, to be written later. */
export interface Spool {
  write(text: string): void;
  /** Gives what was kept, in order and in pieces, to `to`; the spool is then given up. */
  drain(to: (text: string) => void): void;
}

/** A report being written: a point at a time, in the grid's order, then the rest. */
export interface SweepWriter {
  point(pt: SweepPointResult): void;
  end(): void | Promise<void>;
}

/** A writer whose end is written at once (CSV, JSON). */
export interface PromptWriter extends SweepWriter {
  end(): void;
}

/** A sink that keeps the text in memory: a whole report as one string (`merge`, the tests). */
export function memorySink(parts: string[]): SweepSink {
  return {
    write: (text) => { parts.push(text); },
    spool: () => {
      const kept: string[] = [];
      return { write: (text) => { kept.push(text); }, drain: (to) => { for (const text of kept.splice(0)) to(text); } };
    },
  };
}

/** A whole report's head: its columns from its points. */
export function headOf({ points, ...rest }: SweepReport): SweepHead {
  return { ...rest, columns: SweepColumns.of(points) };
}

/** A whole report through a writer that ends at once (CSV, JSON). */
export function wholeText(r: SweepReport, stream: (head: SweepHead, sink: SweepSink) => PromptWriter): string {
  const parts: string[] = [];
  const writer = stream(headOf(r), memorySink(parts));
  for (const pt of r.points) writer.point(pt);
  writer.end();
  return parts.join('');
}

/** The top-level field of Metrics that a reading's path names (`call_latency_ms.p95`: call_latency_ms; an alert's reading: none). */
const fieldOf = (path: string): string => path.split('.')[0] ?? path;

/**
 * The fields of a point's metrics that the table, the page and the SVG read, for `metric` and the
 * --find conditions: each shown metric's (sweep.ts sweepMetrics, a coupled point's CAPACITY_SUMMARY,
 * a triggered point's TRIGGER_SUMMARY), the frontier's, the page's header's (primary_actions),
 * whether the point is coupled (shed_per_1000) or triggered (deliveries_per_action) and an
 * incident's backlog and recovery. A test renders each format from whole
 * points and from slim ones.
 */
export function shownFields(metric: SweepMetric, find: readonly FindCondition[] = []): ReadonlySet<string> {
  const paths = [...sweepMetrics(metric), ...CAPACITY_SUMMARY, ...TRIGGER_SUMMARY, ...find.map((c) => c.path)];
  return new Set([...paths.map(fieldOf), 'primary_actions', 'duplicates_per_1000', 'key_store_mb', 'shed_per_1000', 'deliveries_per_action', 'backlog_cleared_ms', 'recovered', 'recovery', 'stable']);
}

/**
 * A point with only the `fields` of its metrics: what a report that keeps its points until the
 * last keeps. Its metrics are typed whole, and hold only what those reports read (`shownFields`).
 */
export function slimPoint(pt: SweepPointResult, fields: ReadonlySet<string>): SweepPointResult {
  const metrics = Object.fromEntries(Object.entries(pt.metrics).filter(([k]) => fields.has(k))) as unknown as Metrics;
  return { params: pt.params, metrics, ...(pt.precision ? { precision: pt.precision } : {}), ...(pt.alerts ? { alerts: pt.alerts } : {}) };
}

/** A writer that keeps each point slim and `draw`s them all after the last (a table, HTML, SVG). */
export function keptWriter(head: SweepHead, fields: ReadonlySet<string>, draw: (r: SweepReport) => Promise<void>): SweepWriter {
  const points: SweepPointResult[] = [];
  const { columns: _, ...report } = head;
  return {
    point: (pt) => { points.push(slimPoint(pt, fields)); },
    end: () => draw({ ...report, points }),
  };
}
