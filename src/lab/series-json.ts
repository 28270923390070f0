/**
 * The page's series as `idem-sim run --series STEP --json` writes it (`results[0].series`): every
 * bucket with the counts the run lists (a coupled run's own counts only for it). Light enough for
 * the page's script, which writes it only when asked (a series of thousands of buckets is a
 * megabyte of text).
 */
import { seriesJson, type SeriesBucket, type SeriesCounts, type SeriesJson, type SeriesName } from '../model/series.js';

export function listedSeriesJson(series: SeriesCounts, loadEnd: number, listed: readonly SeriesName[]): SeriesJson {
  const json = seriesJson(series, loadEnd);
  return {
    ...json,
    buckets: json.buckets.map((b) => ({ start_ms: b.start_ms, load_ms: b.load_ms, ...Object.fromEntries(listed.map((n) => [n, b[n]])) }) as SeriesBucket),
  };
}
