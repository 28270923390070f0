/** `--json`: every metric under docs/model.md's names, with the resolved scenario, seed and version. */
import { agentsJson } from './agent.js';
import { contractVersion, isCoupled } from '../model/capacity.js';
import { echoed } from '../model/clock.js';
import { writtenLatency } from '../model/latency.js';
import { arrivalSpan } from '../model/clock.js';
import { SERIES_NAMES, seriesJson, type SeriesBucket, type SeriesCounts, type SeriesJson } from '../model/series.js';
import { listedSeries } from '../results/capacity.js';
import { hasTrigger } from '../results/delivery.js';
import type { WrittenScenario } from '../model/types.js';
import type { RunInfo, ScenarioRun } from './types.js';

/** The scenario as written, in ms: the empirical values are data, not settings (the file name identifies them). */
export function writtenScenario(s: WrittenScenario): WrittenScenario {
  return { ...s, service: { ...s.service, latency: writtenLatency(s.service.latency) } };
}

/** The scenario as outputs print it: written, without the keys of "Time" when it uses none (`echoed`). */
export function resolvedScenario(s: WrittenScenario): Partial<WrittenScenario> {
  return echoed(writtenScenario(s));
}

/** 12 significant digits: drops float noise (16334.999999999998) and keeps every real digit. */
export function roundNoise(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) ? Number(value.toPrecision(12)) : value;
}

/** The series as JSON, each bucket with the counts the run lists (results/capacity.ts: a coupled run's own counts only for it). */
function listedSeriesJson(series: SeriesCounts, s: WrittenScenario): SeriesJson {
  const json = seriesJson(series, arrivalSpan(s));
  const names = listedSeries(s);
  if (names.length === SERIES_NAMES.length) return json;
  const buckets = json.buckets.map((b) => ({ start_ms: b.start_ms, load_ms: b.load_ms, ...Object.fromEntries(names.map((n) => [n, b[n]])) }) as SeriesBucket);
  return { ...json, buckets };
}

export function renderJson(runs: readonly ScenarioRun[], info: RunInfo): string {
  const doc = {
    tool: 'idem-sim',
    version: info.version,
    // A trigger's rules are version 4's too (docs/model.md, "Inbound delivery").
    model: contractVersion(runs.some((r) => isCoupled(r.scenario) || hasTrigger(r.scenario))),
    time_unit: 'ms',
    replay: info.replay,
    results: runs.map((r) => ({
      name: r.name,
      file: r.file,
      seed: r.seed,
      scenario: echoed(r.scenario),
      warnings: r.warnings,
      ...(r.precision ? { precision: r.precision } : {}),
      metrics: r.metrics,
      ...(r.series ? { series: listedSeriesJson(r.series, r.scenario) } : {}),
      ...(r.alerts ? { alerts: r.alerts } : {}),
    })),
    ...(info.agents && info.agents.length > 0 ? { agents: agentsJson(info.agents) } : {}),
  };
  return `${JSON.stringify(doc, roundNoise, 2)}\n`;
}
