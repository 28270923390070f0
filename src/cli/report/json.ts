/** `--json`: every metric under docs/model.md's names, with the resolved scenario, seed and version. */
import { CONTRACT_VERSION } from '../../model/shape.js';
import { writtenLatency } from '../../model/latency.js';
import type { WrittenScenario } from '../../model/types.js';
import type { RunInfo, ScenarioRun } from './types.js';

/** The scenario as written, in ms: the empirical values are data, not settings (the file name identifies them). */
export function resolvedScenario(s: WrittenScenario): WrittenScenario {
  return { ...s, service: { ...s.service, latency: writtenLatency(s.service.latency) } };
}

/** 12 significant digits: drops float noise (16334.999999999998) and keeps every real digit. */
export function roundNoise(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) ? Number(value.toPrecision(12)) : value;
}

export function renderJson(runs: readonly ScenarioRun[], info: RunInfo): string {
  const doc = {
    tool: 'idem-sim',
    version: info.version,
    model: CONTRACT_VERSION,
    time_unit: 'ms',
    replay: info.replay,
    results: runs.map((r) => ({
      name: r.name,
      file: r.file,
      seed: r.seed,
      scenario: resolvedScenario(r.scenario),
      warnings: r.warnings,
      ...(r.precision ? { precision: r.precision } : {}),
      metrics: r.metrics,
    })),
  };
  return `${JSON.stringify(doc, roundNoise, 2)}\n`;
}
