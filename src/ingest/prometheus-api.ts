/**
 * A histogram from the answer of Prometheus's HTTP API to an instant query (`/api/v1/query`): a
 * vector of samples with an `le` label each, such as `sum by (le) (increase(x_bucket[1d]))`
 * gives. The `+Inf` sample is the total; the samples come in any order and are sorted by `le`.
 */
import type { HistogramBucket, HistogramUnit } from '../model/latency/histogram-data.js';
import { MAX_HISTOGRAM_BUCKETS } from '../model/limits.js';
import { expositionNumber } from './exposition.js';
import { isObject, listOf, type Json } from './otlp-json.js';
import { labelsText } from './selector.js';
import { echoed, refuse, unitOfName, type FoundHistogram, type Source } from './source.js';

const QUERY_FIX = 'Ask for the buckets of one histogram, summed by le over a time range: --query \'sum by (le) (increase(http_request_duration_seconds_bucket[1d]))\'.';

/** The labels of a sample, as text (the answer's own; this is the user's server). */
function labelsOf(metric: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (isObject(metric)) for (const [k, v] of Object.entries(metric)) if (typeof v === 'string') out.set(k, v);
  return out;
}

/** The vector of a query's answer (JSON already parsed), or a refusal that says what came instead. */
function vectorOf(answer: unknown, src: Source): readonly Json[] {
  if (!isObject(answer) || typeof answer['status'] !== 'string') refuse(src, undefined, 'did not answer as Prometheus\'s HTTP API does (no status)', 'Give the address of a Prometheus server (or one that speaks its API), such as --prometheus http://127.0.0.1:9090.');
  if (answer['status'] !== 'success') {
    const said = typeof answer['error'] === 'string' ? `: ${echoed(src, answer['error'], 200)}` : '';
    refuse(src, undefined, `refused the query${said}`, QUERY_FIX);
  }
  const data = isObject(answer['data']) ? answer['data'] : {};
  if (data['resultType'] !== 'vector') {
    refuse(src, undefined, `answered a ${typeof data['resultType'] === 'string' ? echoed(src, data['resultType'], 20) : 'result'} rather than a vector`, `An instant query of buckets answers a vector (a range selector such as [1d] needs a function around it, as increase). ${QUERY_FIX}`);
  }
  return listOf(data['result']).filter(isObject);
}

/** The histogram of the answer: `unit` as given, else the metric's name suffix if the answer kept it, else seconds. */
export function queryHistogram(answer: unknown, src: Source, unit: HistogramUnit | undefined): FoundHistogram {
  const samples = vectorOf(answer, src);
  if (samples.length === 0) refuse(src, undefined, 'answered no samples', `The query matched no series (or none in its time range). ${QUERY_FIX}`);
  if (samples.length > MAX_HISTOGRAM_BUCKETS + 1) refuse(src, undefined, `answered ${samples.length.toLocaleString('en-US')} samples, more buckets than a histogram may hold`, QUERY_FIX);
  const read = samples.map((s) => ({ labels: labelsOf(s['metric']), value: listOf(s['value'])[1] }));
  const groups = [...new Set(read.map((s) => labelsText(s.labels, ['le'])))];
  if (read.some((s) => !s.labels.has('le'))) refuse(src, undefined, 'answered samples without an le label: they are not a histogram\'s buckets', QUERY_FIX);
  if (groups.length > 1) {
    refuse(src, undefined, `answered the buckets of ${groups.length} series (${groups.slice(0, 4).map((g) => echoed(src, g, 80)).join(', ')}${groups.length > 4 ? ', ...' : ''})`,
      'Sum them into one with sum by (le) (...), or choose one series with its labels in the query.');
  }
  let total: number | null = null;
  const buckets: HistogramBucket[] = [];
  for (const s of read) {
    const le = expositionNumber(s.labels.get('le') as string);
    const count = typeof s.value === 'string' ? expositionNumber(s.value) : undefined;
    if (le === undefined || Number.isNaN(le) || count === undefined) refuse(src, undefined, 'answered a bucket whose le or value is not a number', QUERY_FIX);
    if (le === Infinity) total = count;
    else buckets.push({ le, count });
  }
  buckets.sort((a, b) => a.le - b.le);
  const name = read[0]?.labels.get('__name__')?.replace(/_bucket$/, '') ?? '';
  const fromName = unitOfName(name);
  const [used, from] = unit !== undefined ? [unit, 'as given'] : fromName !== undefined ? [fromName, 'from the metric\'s name'] : ['s' as const, 'Prometheus\'s convention: seconds'];
  return { buckets, total, unit: used, unitFrom: from, name, labels: new Map([...(read[0]?.labels ?? [])].filter(([k]) => k !== 'le' && k !== '__name__')) };
}
