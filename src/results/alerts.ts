/**
 * Alerts evaluated on a run's series (docs/model.md, "Time"). An alert fires at the end of the
 * bucket that completes a run of consecutive buckets above its rate lasting at least `for`
 * (ceil(for/Δ) buckets, at least one), and clears at the end of the first bucket at or below
 * it; one still firing when the series ends closes there. A firing belongs to the latest
 * incident whose window, extended by the alert's grace, holds its start.
 */
import { isCoupled } from '../model/capacity.js';
import { NUM_SERIES, SER, type SeriesCounts } from '../model/series.js';
import type { WrittenScenario } from '../model/types.js';

/** Buckets of alerts evaluated without a series asked for. */
export const ALERT_STEP_MS = 60_000;

/**
 * The series step of a run: the one asked for, else one minute when the scenario has alerts (to
 * judge them) or incidents (their quiet time's baselines, results/quiet.ts), else none.
 */
export function seriesStepOf(scenario: WrittenScenario, asked: number | undefined): number | null {
  return asked ?? (scenario.alerts.length > 0 || scenario.incidents.length > 0 ? ALERT_STEP_MS : null);
}

type Alert = WrittenScenario['alerts'][number];
type Incident = WrittenScenario['incidents'][number];

/**
 * Firings an alert's result lists, the first in time (docs/model-decisions.md): a noisy alert
 * on 100,000 buckets fires up to 50,000 times, and 100 such alerts listed whole made a 236 MB
 * JSON and, kept for every point of a sweep, ran a 512 MB heap out. Counts, delays and false
 * alarms are of every firing.
 */
export const MAX_LISTED_FIRINGS = 1000;

/** What a sweep's point keeps of an alert: its readings, not its firings. */
export interface AlertSummary {
  name: string;
  /** How many times it fired. */
  firing_count: number;
  /** Per incident: from its `from` to the first firing that belongs to it (ms), or null if none does. */
  detection_delay_ms: Record<string, number | null>;
  /**
   * Coupled runs only (docs/model.md, "Capacity"), per incident: from its `to` to the end of the
   * last firing that belongs to it (ms; 0 if that ended before `to`), or null if none does.
   */
  recovery_ms?: Record<string, number | null>;
  /** Firings that belong to no incident. */
  false_alarms: number;
}

/** `results[i].alerts[j]` in JSON. */
export interface AlertResult extends AlertSummary {
  /** The firings as [start, end] in ms of the run, in time order: every one, up to MAX_LISTED_FIRINGS. */
  firings: [number, number][];
}

/** An alert's result without its list of firings. */
export function summary({ firings: _, ...rest }: AlertResult): AlertSummary {
  return rest;
}

/** The scenario's alerts judged on the run's series, or undefined when it has none. */
export function runAlerts(scenario: WrittenScenario, series: SeriesCounts): AlertResult[] | undefined {
  return scenario.alerts.length > 0 ? evaluateAlerts(series, scenario.alerts, scenario.incidents, isCoupled(scenario)) : undefined;
}

/** `recovery`: give each alert's recovery_ms (coupled runs; the others' results stay as they were). */
export function evaluateAlerts(series: SeriesCounts, alerts: readonly Alert[], incidents: readonly Incident[], recovery = false): AlertResult[] {
  return alerts.map((a) => judge(a, firings(series, a), incidents, recovery));
}

/** The firings of one alert on the series. */
export function firings(series: SeriesCounts, a: Alert): [number, number][] {
  const { step, buckets, counts } = series;
  const m = SER[a.metric];
  const need = Math.max(1, Math.ceil(a.for / step));
  const limit = (a.above * step) / 1000; // the rate per second as a count per bucket
  const out: [number, number][] = [];
  let above = 0;
  let start: number | null = null;
  for (let b = 0; b < buckets; b++) {
    const end = (b + 1) * step;
    if ((counts[b * NUM_SERIES + m] as number) > limit) {
      above++;
      if (start === null && above >= need) start = end;
    } else {
      above = 0;
      if (start !== null) { out.push([start, end]); start = null; }
    }
  }
  if (start !== null) out.push([start, Math.max(start, buckets * step)]);
  return out;
}

/**
 * Which incident each firing belongs to (the one with the latest `from` among those whose window
 * and grace hold its start; ties: the one listed last), the detection delays, the recoveries
 * (`max(0, end of the last firing that belongs to it - to)`) and the false alarms.
 */
function judge(a: Alert, fired: [number, number][], incidents: readonly Incident[], withRecovery: boolean): AlertResult {
  const delay: Record<string, number | null> = Object.fromEntries(incidents.map((w) => [w.name, null]));
  const recovery: Record<string, number | null> = { ...delay };
  let falseAlarms = 0;
  for (const [start, end] of fired) {
    let owner: Incident | undefined;
    for (const w of incidents) if (w.from <= start && start < w.to + a.grace && (!owner || w.from >= owner.from)) owner = w;
    if (!owner) { falseAlarms++; continue; }
    if (delay[owner.name] === null) delay[owner.name] = start - owner.from;
    recovery[owner.name] = Math.max(0, end - owner.to); // firings are in time order: the last one that belongs stays
  }
  return {
    name: a.name, firing_count: fired.length, firings: fired.slice(0, MAX_LISTED_FIRINGS), detection_delay_ms: delay,
    ...(withRecovery ? { recovery_ms: recovery } : {}), false_alarms: falseAlarms,
  };
}
