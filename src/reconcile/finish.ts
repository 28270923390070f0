/** The readings made of a tally once every effect is counted: per tool, and overall as the tools' sums. */
import { poissonInterval } from './poisson.js';
import { DIAGNOSES, GAP_BINS, type Bucket, type Diagnosis, type Readings } from './readings.js';
import type { Tally, ToolTally } from './tally.js';

const DAY_MS = 86_400_000;

/** The counts a reading is made of: one tool's, or the sums of all. */
interface Counts {
  effects: number;
  duplicates: number;
  firstMs: number;
  lastMs: number;
  diagnosis: Record<Diagnosis, number>;
  gaps: number[];
  bucketEffects: number[];
  bucketDiagnosis: Record<Diagnosis, number[]>;
}

function sums(tools: readonly ToolTally[]): Counts {
  const length = tools[0]?.bucketEffects.length ?? 0;
  const add = (pick: (t: ToolTally) => readonly number[], n: number) => Array.from({ length: n }, (_, i) => tools.reduce((sum, t) => sum + (pick(t)[i] ?? 0), 0));
  return {
    effects: tools.reduce((sum, t) => sum + t.effects, 0),
    duplicates: tools.reduce((sum, t) => sum + t.duplicates, 0),
    firstMs: Math.min(...tools.map((t) => t.firstMs)),
    lastMs: Math.max(...tools.map((t) => t.lastMs)),
    diagnosis: Object.fromEntries(DIAGNOSES.map((d) => [d, tools.reduce((sum, t) => sum + t.diagnosis[d], 0)])) as Record<Diagnosis, number>,
    gaps: add((t) => t.gaps, GAP_BINS.length),
    bucketEffects: add((t) => t.bucketEffects, length),
    bucketDiagnosis: Object.fromEntries(DIAGNOSES.map((d) => [d, add((t) => t.bucketDiagnosis[d], length)])) as Record<Diagnosis, number[]>,
  };
}

function series(c: Counts, originMs: number, stepMs: number): Bucket[] {
  return c.bucketEffects.map((effects, i) => {
    const diagnosis = Object.fromEntries(DIAGNOSES.map((d) => [d, c.bucketDiagnosis[d][i] ?? 0])) as Record<Diagnosis, number>;
    return { startMs: originMs + i * stepMs, effects, duplicates: DIAGNOSES.reduce((sum, d) => sum + diagnosis[d], 0), diagnosis };
  });
}

function readings(name: string | null, c: Counts, top: Readings['topKeys'], originMs: number, stepMs: number): Readings {
  const seen = c.effects > 0;
  const days = seen && c.lastMs > c.firstMs ? (c.lastMs - c.firstMs) / DAY_MS : null;
  const interval = poissonInterval(c.duplicates);
  return {
    name,
    effects: c.effects,
    businessKeys: c.effects - c.duplicates,
    duplicates: c.duplicates,
    per1000: seen ? { value: (1000 * c.duplicates) / c.effects, low: (1000 * interval.low) / c.effects, high: (1000 * interval.high) / c.effects } : null,
    effectsPerDay: days === null ? null : c.effects / days,
    duplicatesPerDay: days === null ? null : c.duplicates / days,
    firstMs: seen ? c.firstMs : null,
    lastMs: seen ? c.lastMs : null,
    diagnosis: c.diagnosis,
    gaps: c.gaps,
    topKeys: top,
    series: series(c, originMs, stepMs),
  };
}

/** Each tool's readings, in the order first seen, and all of them together. */
export function finish(tally: Tally, stepMs: number, showKeys: boolean): { overall: Readings; tools: Readings[] } {
  const tools = [...tally.tools.values()];
  const names = tools.map((t) => t.name);
  const origin = tally.originMs();
  return {
    overall: readings(null, sums(tools), tally.keys.top(names, undefined, showKeys), origin, stepMs),
    tools: tools.map((t) => readings(t.name, t, tally.keys.top(names, t.index, showKeys), origin, stepMs)),
  };
}
