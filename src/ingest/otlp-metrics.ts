/**
 * A histogram from an OpenTelemetry metrics export (OTLP/JSON): an explicit-bounds histogram
 * (bucket i holds the observations in (bounds[i-1], bounds[i]], the last above every bound) or
 * an exponential one (bucket k holds (base^k, base^(k+1)], base = 2^(2^-scale), and a zero
 * bucket), made cumulative as Prometheus counts. A series is the metric with its resource's and
 * its point's attributes; its points are summed (delta temporality) or the latest taken (cumulative).
 */
import type { HistogramBucket, HistogramUnit } from '../model/latency/histogram-data.js';
import { MAX_HISTOGRAM_BUCKETS } from '../model/limits.js';
import { MAX_SERIES } from './limits.js';
import { attributes, isObject, listOf, nanosOf, numberOf, objectsOf, otlpDocuments, type Json } from './otlp-json.js';
import { labelsText, selects, type Selector } from './selector.js';
import { histogramName, namesText, refuse, selectorExample, unitOfWord, UNITS_TEXT, type FoundHistogram, type Source } from './source.js';

/** One point, as the cumulative buckets it gives (bounds in the metric's unit) and its total. */
interface Point { readonly time: bigint; readonly buckets: readonly HistogramBucket[]; readonly total: number; readonly shape: string }
interface Series { readonly name: string; readonly unit: string; readonly labels: ReadonlyMap<string, string>; readonly delta: boolean; readonly points: Point[] }

const WHAT = 'an OpenTelemetry metrics export (resourceMetrics, with a histogram or exponentialHistogram)';
const counts = (v: unknown): number[] | undefined => {
  const out = listOf(v).map(numberOf);
  return out.every((c): c is number => c !== undefined && c >= 0) ? out as number[] : undefined;
};
function bad(src: Source, what: string): never {
  return refuse(src, undefined, `has a histogram point whose ${what}`, `Give ${WHAT}, as an OTLP exporter writes it.`);
}

/** Appends a cumulative bucket; a bound not above the last one adds its count to it (an overlapping zero bucket). */
function push(out: HistogramBucket[], le: number, count: number): void {
  const last = out[out.length - 1];
  if (last !== undefined && !(le > last.le)) last.count = count;
  else out.push({ le, count });
}

function explicitPoint(p: Json, src: Source): Omit<Point, 'time'> {
  const bounds = listOf(p['explicitBounds']).map(numberOf);
  const c = counts(p['bucketCounts']);
  if (bounds.some((b) => b === undefined)) bad(src, 'explicitBounds are not numbers');
  if (c === undefined || (c.length !== 0 && c.length !== bounds.length + 1)) bad(src, 'bucketCounts are not one more count than explicitBounds');
  const out: HistogramBucket[] = [];
  let cumulative = 0;
  bounds.forEach((le, i) => out.push({ le: le as number, count: (cumulative += (c as number[])[i] ?? 0) }));
  return { buckets: out, total: (c as number[]).reduce((s, x) => s + x, 0), shape: `explicit:${bounds.join(',')}` };
}

function exponentialPoint(p: Json, src: Source): Omit<Point, 'time'> {
  const scale = numberOf(p['scale'] ?? 0);
  if (scale === undefined || !Number.isInteger(scale) || scale < -10 || scale > 20) bad(src, 'scale is not a whole number from -10 to 20');
  const positive = isObject(p['positive']) ? p['positive'] : {};
  const offset = numberOf(positive['offset'] ?? 0);
  const c = counts(positive['bucketCounts']);
  const zero = numberOf(p['zeroCount'] ?? 0);
  const threshold = numberOf(p['zeroThreshold'] ?? 0);
  if (offset === undefined || !Number.isInteger(offset) || c === undefined || zero === undefined || zero < 0 || threshold === undefined || threshold < 0) bad(src, 'buckets are not counts');
  if (c.length > MAX_HISTOGRAM_BUCKETS) bad(src, `buckets are more than ${MAX_HISTOGRAM_BUCKETS.toLocaleString('en-US')}`);
  const negative = counts(isObject(p['negative']) ? p['negative']['bucketCounts'] : []) ?? [];
  if (negative.some((x) => x > 0)) refuse(src, undefined, 'has a histogram of negative values (negative buckets with counts)', 'A latency is never negative: choose the histogram of a duration.');
  // Bounds 2^(k * 2^-scale) (the specification's base^k), written so that no power overflows before it must.
  const bound = (k: number): number => 2 ** (k / 2 ** (scale as number));
  const out: HistogramBucket[] = [{ le: threshold as number, count: zero as number }];
  push(out, bound(offset as number), zero as number);
  let cumulative = zero as number;
  (c as number[]).forEach((x, i) => push(out, bound((offset as number) + i + 1), (cumulative += x)));
  return { buckets: out, total: cumulative, shape: `exponential:${scale}:${offset}:${c.length}:${threshold}` };
}

/** Every histogram series of the documents, of the selector's metric if one is given. */
function collect(docs: readonly unknown[], src: Source, metric: Selector | undefined): Map<string, Series> {
  const all = new Map<string, Series>();
  for (const doc of docs) {
    for (const rm of objectsOf(isObject(doc) ? doc['resourceMetrics'] : undefined)) {
      const resource = attributes(isObject(rm['resource']) ? rm['resource']['attributes'] : undefined);
      for (const sm of objectsOf(rm['scopeMetrics'])) {
        for (const m of objectsOf(sm['metrics'])) {
          const name = m['name'];
          const kind = isObject(m['histogram']) ? 'histogram' : isObject(m['exponentialHistogram']) ? 'exponentialHistogram' : undefined;
          if (typeof name !== 'string' || kind === undefined || (metric !== undefined && name !== metric.name)) continue;
          const h = m[kind] as Json;
          const temporality = h['aggregationTemporality'];
          const delta = temporality === 1 || temporality === 'AGGREGATION_TEMPORALITY_DELTA';
          for (const p of objectsOf(h['dataPoints'])) {
            const labels = attributes(p['attributes'], new Map(resource));
            const key = `${name}\u0000${labelsText(labels)}`;
            let s = all.get(key);
            if (s === undefined) {
              if (all.size === MAX_SERIES) refuse(src, undefined, `holds more than ${MAX_SERIES.toLocaleString('en-US')} histogram series`, `Choose the histogram and its attributes ${src.how('metric')}.`);
              all.set(key, s = { name, unit: typeof m['unit'] === 'string' ? m['unit'] : '', labels, delta, points: [] });
            }
            s.points.push({ time: nanosOf(p['timeUnixNano']) ?? 0n, ...(kind === 'histogram' ? explicitPoint(p, src) : exponentialPoint(p, src)) });
          }
        }
      }
    }
  }
  return all;
}

/** A series' points as one: the latest of cumulative points, the sum of delta ones (of one shape). */
function merged(s: Series, src: Source): Point {
  if (!s.delta) return s.points.reduce((a, b) => (b.time >= a.time ? b : a));
  const first = s.points[0] as Point;
  if (s.points.some((p) => p.shape !== first.shape)) {
    refuse(src, undefined, 'has delta points of the histogram with different buckets', 'Export it with cumulative temporality, or with the same buckets (or scale) in every point.');
  }
  const buckets = first.buckets.map((b, i) => ({ le: b.le, count: s.points.reduce((sum, p) => sum + (p.buckets[i]?.count ?? 0), 0) }));
  return { ...first, buckets, total: s.points.reduce((sum, p) => sum + p.total, 0) };
}

/** The histogram of an OTLP metrics export: `unit` as written wins, then the metric's unit, then seconds. */
export function otlpHistogram(text: string, src: Source, metric: Selector | undefined, unit: HistogramUnit | undefined): FoundHistogram {
  const all = collect(otlpDocuments(text, src, WHAT), src, metric);
  const names = [...new Set([...all.values()].map((s) => s.name))];
  if (names.length === 0) refuse(src, undefined, metric ? `holds no histogram named ${metric.name}` : 'holds no histogram', metric ? `Check the name ${src.how('metric')}.` : `Give ${WHAT}.`);
  if (names.length > 1) refuse(src, undefined, `holds ${namesText(src, names, 'histogram')}`, `Choose one ${src.how('metric')}.`);
  const matching = [...all.values()].filter((s) => selects(metric, s.labels));
  if (matching.length !== 1) {
    const sets = src.showNames ? `: ${matching.slice(0, 8).map((s) => labelsText(s.labels)).join(', ')}` : '';
    refuse(src, undefined, `has ${matching.length === 0 ? 'no series' : `${matching.length} series`} of ${histogramName(src, names[0] as string, metric?.name)} with the attributes asked for${sets}`,
      `Name attributes that choose one series ${src.how('metric')}, such as ${selectorExample(src, names[0] as string, metric?.name, '{http.route="/pay"}')}.`);
  }
  const s = matching[0] as Series;
  const own = s.unit === '' ? undefined : unitOfWord(s.unit);
  if (unit === undefined && s.unit !== '' && own === undefined) {
    refuse(src, undefined, 'the histogram\'s unit is not one of time', `Give the unit of its bounds ${src.how('unit')} (${UNITS_TEXT}).`);
  }
  const point = merged(s, src);
  const [used, from] = unit !== undefined ? [unit, 'as given'] : own !== undefined ? [own, 'the metric\'s unit'] : ['s' as const, 'no unit in the export: seconds, as OpenTelemetry\'s conventions for durations'];
  return { buckets: point.buckets, total: point.total, unit: used, unitFrom: from, name: s.name, labels: s.labels };
}
