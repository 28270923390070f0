/**
 * `run --series STEP --format csv`: one row per bucket of each run's series (docs/model.md,
 * "Time"), counts as integers, for spreadsheets and plotting. docs/csv.md lists the columns
 * (a unit test holds the two together).
 */
import { arrivalSpan } from '../model/clock.js';
import { loadCovered, LOAD_MS_MEANING, NUM_SERIES, SER, SERIES_MEANINGS, SERIES_NAMES, type SeriesName } from '../model/series.js';
import { listedSeries } from '../results/capacity.js';
import { csvText, type CsvColumn } from './csv.js';
import type { RunInfo, ScenarioRun } from './types.js';

/** Every column, in order; a count only coupled runs list (results/capacity.ts) only when one of the runs is. */
export const SERIES_COLUMNS: readonly CsvColumn[] = [
  { name: 'run', unit: '', description: 'the scenario\'s name (its file name without extension, or lab-defaults)' },
  { name: 'start_ms', unit: 'ms', description: 'the start of the bucket, from the start of the run; it ends one step later' },
  ...SERIES_NAMES.map((n) => ({ name: n, unit: 'count', description: SERIES_MEANINGS[n] })),
  { name: 'step_ms', unit: 'ms', description: 'the bucket\'s length (--series)' },
  { name: 'load_ms', unit: 'ms', description: LOAD_MS_MEANING },
  { name: 'seed', unit: '', description: 'the seed of the run' },
  { name: 'idem_sim_version', unit: '', description: 'the idem-sim version that wrote the file' },
];

export function renderSeriesCsv(runs: readonly ScenarioRun[], info: RunInfo): string {
  // The counts any run lists, in SERIES_NAMES order; a run that does not list one has an empty cell.
  const names = SERIES_NAMES.filter((n) => runs.some((r) => listedSeries(r.scenario).includes(n)));
  const rows = runs.flatMap((r) => {
    const s = r.series;
    if (!s) return [];
    const own = new Set<SeriesName>(listedSeries(r.scenario));
    const loadEnd = arrivalSpan(r.scenario);
    return Array.from({ length: s.buckets }, (_, b) => [
      r.name, b * s.step, ...names.map((n) => (own.has(n) ? s.counts[b * NUM_SERIES + SER[n]] : '')), s.step, loadCovered(s.step, b, loadEnd), r.seed, info.version,
    ]);
  });
  const listed = new Set<string>(names);
  return csvText(rows, SERIES_COLUMNS.filter((c) => !(SERIES_NAMES as readonly string[]).includes(c.name) || listed.has(c.name)).map((c) => c.name));
}
