/**
 * A histogram from Prometheus's text exposition (a saved scrape, or a live `/metrics`): the
 * `NAME_bucket{...,le="..."}` samples of one series, its `+Inf` bucket (or `NAME_count`) as the
 * total. The metric and its labels choose the series; errors name lines, never their text
 * (unless the input is the user's own: Source.showNames).
 */
import type { HistogramBucket, HistogramUnit } from '../model/latency/histogram-data.js';
import { MAX_HISTOGRAM_BUCKETS } from '../model/limits.js';
import { MAX_SERIES } from './limits.js';
import { readLine, expositionNumber, type Sample } from './exposition.js';
import { labelsText, selects, type Selector } from './selector.js';
import { histogramName, namesText, refuse, selectorExample, unitOfName, unitOfWord, UNITS_TEXT, type FoundHistogram, type Source } from './source.js';

interface Series {
  readonly name: string;
  readonly labels: ReadonlyMap<string, string>;
  readonly buckets: (HistogramBucket & { line: number })[];
  /** The line of each bound read, to find one given twice. */
  readonly seen: Map<number, number>;
  inf?: { count: number; line: number };
  count?: { count: number; line: number };
}

const FORMAT_FIX = 'Give a Prometheus text exposition (what /metrics serves: lines such as latency_seconds_bucket{le="0.5"} 11), or format: otlp for an OpenTelemetry JSON export.';

/** The series key: name and labels but le. */
const keyOf = (name: string, labels: ReadonlyMap<string, string>): string =>
  `${name}\u0000${[...labels].filter(([k]) => k !== 'le').sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}\u0000${v}`).join('\u0000')}`;

/** Every histogram series of the text (of the selector's metric, if one is given), and the UNIT lines. */
function scan(text: string, src: Source, metric: Selector | undefined): { series: Map<string, Series>; units: Map<string, string> } {
  const series = new Map<string, Series>();
  const units = new Map<string, string>();
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = readLine(lines[n] as string);
    if (line === undefined) refuse(src, n + 1, `line ${n + 1} (${(lines[n] as string).length} characters) is not a line of the Prometheus text format`, FORMAT_FIX);
    if (line === 'eof') break;
    if (typeof line === 'string') continue;
    if ('kind' in line) { if (line.kind === 'UNIT') units.set(line.name, line.word); continue; }
    const m = /^(.*)_(bucket|count)$/.exec(line.name);
    if (!m || (metric !== undefined && m[1] !== metric.name)) continue;
    add(series, m[1] as string, m[2] as 'bucket' | 'count', line, n + 1, src);
  }
  return { series, units };
}

function add(all: Map<string, Series>, name: string, kind: 'bucket' | 'count', sample: Sample, line: number, src: Source): void {
  const le = sample.labels.get('le');
  if (kind === 'bucket' && le === undefined) return; // a metric that merely ends in _bucket
  const labels = new Map([...sample.labels].filter(([k]) => k !== 'le'));
  const key = keyOf(name, labels);
  let s = all.get(key);
  if (s === undefined) {
    if (all.size === MAX_SERIES) refuse(src, line, `holds more than ${MAX_SERIES.toLocaleString('en-US')} histogram series, the most read from one input`, `Choose the histogram and its labels ${src.how('metric')}.`);
    all.set(key, s = { name, labels, buckets: [], seen: new Map() });
  }
  if (kind === 'count') { s.count = { count: sample.value, line }; return; }
  const bound = expositionNumber(le as string);
  if (bound === undefined || Number.isNaN(bound)) refuse(src, line, `line ${line}'s le is not a number`, 'Each bucket\'s le is a number or +Inf.');
  if (bound === Infinity) {
    if (s.inf) refuse(src, line, `the +Inf bucket of this series is given twice (lines ${s.inf.line} and ${line})`, 'Give each bucket of a series once.');
    s.inf = { count: sample.value, line };
    return;
  }
  const twin = s.seen.get(bound);
  if (twin !== undefined) refuse(src, line, `the bucket le=${bound} of this series is given twice (lines ${twin} and ${line})`, 'Give each bucket of a series once.');
  if (s.buckets.length === MAX_HISTOGRAM_BUCKETS) {
    refuse(src, line, `the series has more than ${MAX_HISTOGRAM_BUCKETS.toLocaleString('en-US')} buckets, the most a histogram may hold`, 'Merge neighbouring buckets: a few dozen describe a latency well.');
  }
  s.seen.set(bound, line);
  s.buckets.push({ le: bound, count: sample.value, line });
}

/** The one series the selector (or the text, when it holds one histogram) names. */
function chosen(all: Map<string, Series>, src: Source, metric: Selector | undefined): Series {
  const withBuckets = [...all.values()].filter((s) => s.buckets.length > 0 || s.inf !== undefined);
  const names = [...new Set(withBuckets.map((s) => s.name))];
  if (names.length === 0) {
    refuse(src, undefined, metric ? `holds no histogram named ${metric.name}` : 'holds no histogram (no NAME_bucket lines with an le label)',
      metric ? `Check the name (without _bucket), ${src.how('metric')}.` : FORMAT_FIX);
  }
  if (names.length > 1) refuse(src, undefined, `holds ${namesText(src, names, 'histogram')}`, `Choose one ${src.how('metric')}.`);
  const matching = withBuckets.filter((s) => selects(metric, s.labels));
  if (matching.length === 1) return matching[0] as Series;
  const lines = matching.map((s) => s.buckets[0]?.line ?? s.inf?.line);
  const sets = src.showNames ? `: ${namesText(src, matching.map((s) => labelsText(s.labels)), 'label set').replace(/^\d+ label sets: /, '')}` : ` (first lines ${lines.slice(0, 8).join(', ')})`;
  const name = histogramName(src, names[0] as string, metric?.name);
  return refuse(src, undefined, matching.length === 0 ? `has no series of ${name} with the labels asked for` : `has ${matching.length} series of ${name} with the labels asked for${sets}`,
    `Name labels that choose one series ${src.how('metric')}, such as ${selectorExample(src, names[0] as string, metric?.name, '{method="GET"}')}; to join series, sum them in Prometheus (sum by (le) (...)) and read that.`);
}

/** The histogram of a text exposition: `unit` as written wins, then the file's `# UNIT` line, then the name's suffix, then seconds. */
export function expositionHistogram(text: string, src: Source, metric: Selector | undefined, unit: HistogramUnit | undefined): FoundHistogram {
  const { series, units } = scan(text, src, metric);
  const s = chosen(series, src, metric);
  const unitWord = units.get(s.name);
  const fromLine = unitWord === undefined ? undefined : unitOfWord(unitWord);
  if (unit === undefined && unitWord !== undefined && fromLine === undefined) {
    refuse(src, undefined, 'the histogram\'s # UNIT line names a unit that is not one of time', `Give its unit ${src.how('unit')} (${UNITS_TEXT}).`);
  }
  const fromName = unitOfName(s.name);
  const [used, from] = unit !== undefined ? [unit, 'as given']
    : fromLine !== undefined ? [fromLine, 'from the # UNIT line'] : fromName !== undefined ? [fromName, 'from the metric\'s name']
    : ['s' as const, 'Prometheus\'s convention: seconds'];
  return {
    buckets: s.buckets.map(({ le, count }) => ({ le, count })),
    total: s.inf?.count ?? s.count?.count ?? null,
    unit: used, unitFrom: from,
    lines: s.buckets.map((b) => b.line),
    ...(s.inf ?? s.count ? { totalLine: (s.inf ?? s.count)?.line as number } : {}),
    name: s.name, labels: s.labels,
  };
}
