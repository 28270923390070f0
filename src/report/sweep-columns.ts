/**
 * What a sweep's reports give its points beyond the metrics every run has: whether some point is
 * coupled (a coupled run's metrics, the JSON's model version), the saturation readings, the
 * alerts' readings, the metric of a guard some point sets and a trigger's readings. Summed point by point in the grid's
 * order. A report written as its points finish (sweep-stream.ts) needs them before its first
 * point: `plannedShape` reads them from each point's scenario before any runs, by an empty run of
 * it, whose metrics and alerts have the fields a finished run of that scenario has; `checkShape`
 * holds each finished point to it.
 */
import type { SeriesCounts } from '../model/series.js';
import type { WrittenScenario } from '../model/types.js';
import { runAlerts, summary, type AlertSummary } from '../results/alerts.js';
import { coupledMetrics } from '../results/capacity.js';
import { ALL_METRIC_PATHS, METRICS, type MetricPath } from '../results/metric-registry.js';
import { readMetric } from '../results/metric-paths.js';
import { RunState, type Metrics } from '../results/metrics.js';
import { saturationColumns } from './saturation-text.js';
import { alertColumns, type AlertColumn } from './sweep-alerts.js';

/** What one point adds to the columns. */
export interface PointShape {
  coupled: boolean;
  /** Its saturation columns (saturation-text.ts). */
  saturation: string[];
  alerts: AlertColumn[];
  /** The metrics of a guard it sets (`only: 'guard'`) and of its trigger (`only: 'trigger'`): the CSV has their columns where some point reports them. */
  reported: MetricPath[];
}

/** The metrics only a run that sets their guard, or has a trigger, reports. */
const SET_ONLY_METRICS = ALL_METRIC_PATHS.filter((p) => METRICS[p].only === 'guard' || METRICS[p].only === 'trigger');

/** The shape of a finished point. */
export function pointShape(pt: { metrics: Metrics; alerts?: readonly AlertSummary[] | undefined }): PointShape {
  return {
    coupled: coupledMetrics(pt.metrics),
    saturation: saturationColumns([pt.metrics]),
    alerts: alertColumns([pt]),
    reported: SET_ONLY_METRICS.filter((p) => readMetric(pt.metrics, p).value !== null),
  };
}

/** A series of no buckets: what an empty run's alerts are judged on. */
const NO_SERIES: SeriesCounts = { step: 60_000, buckets: 0, counts: new Float64Array(0) };

/** The shape a point of `s` will have, before it runs: an empty run's. */
export function plannedShape(s: WrittenScenario): PointShape {
  return pointShape({ metrics: new RunState(1).finish(s), alerts: runAlerts(s, NO_SERIES)?.map(summary) });
}

/** A finished point's shape against the one planned for it: a difference is a bug (a report streamed would have lacked a column). */
export function checkShape(planned: PointShape, pt: { metrics: Metrics; alerts?: readonly AlertSummary[] | undefined }, where: string): void {
  const got = pointShape(pt);
  if (JSON.stringify(got) !== JSON.stringify(planned)) {
    throw new Error(`the point ${where} finished with other columns than its scenario foretold (${JSON.stringify(got)}, not ${JSON.stringify(planned)})`);
  }
}

/** The columns of the points added so far: each reading in the order the points first name it. */
export class SweepColumns {
  private anyCoupled = false;
  private readonly saturationSet = new Set<string>();
  private readonly alertMap = new Map<string, AlertColumn>();
  private readonly reportedSet = new Set<MetricPath>();

  /** The columns of `points`, as they finished. */
  static of(points: readonly { metrics: Metrics; alerts?: readonly AlertSummary[] | undefined }[]): SweepColumns {
    const columns = new SweepColumns();
    for (const pt of points) columns.add(pointShape(pt));
    return columns;
  }

  add(shape: PointShape): void {
    this.anyCoupled ||= shape.coupled;
    for (const c of shape.saturation) this.saturationSet.add(c);
    for (const a of shape.alerts) if (!this.alertMap.has(a.path)) this.alertMap.set(a.path, a);
    for (const p of shape.reported) this.reportedSet.add(p);
  }

  /** Whether some point is coupled. */
  get coupled(): boolean { return this.anyCoupled; }
  /** The saturation's columns: those of saturationColumns over every point. */
  get saturation(): string[] { return [...this.saturationSet]; }
  /** The alerts' columns: those of alertColumns over every point. */
  get alerts(): AlertColumn[] { return [...this.alertMap.values()]; }
  /** Whether some point reports `path`, a metric not every run has. */
  readonly reports = (path: MetricPath): boolean => this.reportedSet.has(path);
}
