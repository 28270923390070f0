/**
 * Warnings about a scenario's latency that only its loaded data can give: a histogram whose
 * `+Inf` bucket holds observations, which are drawn at the highest finite bound (as Prometheus's
 * histogram_quantile places them) while they were longer: the tail decides timeouts.
 */
import type { LatencySpec } from '../model/latency.js';
import { aboveEveryBound, finiteBuckets } from '../model/latency/histogram-data.js';
import { formatDuration } from '../scenario/duration.js';
import type { Origin } from '../scenario/errors.js';
import { formatPath } from '../scenario/document.js';
import type { ScenarioWarning } from '../scenario/warnings.js';

type Path = readonly (string | number)[];

/** The share as a person reads it: 26.3%, 0.042%. */
export const percent = (share: number): string => `${+(share * 100).toPrecision(3)}%`;

/** The warnings of a loaded latency (a mixture's components each), at `path`. */
export function latencyDataWarnings(l: LatencySpec, path: Path, locate?: (p: Path) => Origin): ScenarioWarning[] {
  if (l.dist === 'mixture') return l.components.flatMap((c, i) => latencyDataWarnings(c, [...path, 'components', i], locate));
  if (l.dist !== 'histogram') return [];
  const share = aboveEveryBound(l.values);
  if (share === 0) return [];
  const { finite } = finiteBuckets(l.values);
  const top = formatDuration((finite[finite.length - 1] as { le: number }).le);
  const at = [...path, l.file !== null ? 'file' : l.total !== null ? 'total' : 'buckets'];
  return [{
    ...(locate ? { origin: locate(at) } : {}), keyPath: formatPath(at),
    problem: `${percent(share)} of the histogram's observations lie above its highest bound, ${top} (its +Inf bucket), and are drawn at ${top}, as histogram_quantile places them: they were longer, and a client timeout at or above ${top} sees none of them time out`,
    fix: `Add buckets above ${top} to the histogram where it is measured, or read the timeouts at ${top} and above as at least ${percent(share)} of attempts more than the run says.`,
  }];
}
