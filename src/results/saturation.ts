/**
 * The saturation readings of a coupled run (docs/model.md, "Saturation"): from the engine's exact
 * episodes (engine/coupled/saturation.ts) to what a run reports, and their paths for `expect:`:
 * `stable`, `backlog_cleared_ms.INCIDENT` (ms) and `recovered.INCIDENT` (true or false). The
 * shares (`saturated_share`, the offered utilisations) are metrics of the registry; these are not
 * numbers of one name, so they have their paths here, as alerts' readings do (alert-paths.ts).
 */
import type { SaturationOutput } from '../engine/chunk-output.js';
import { INCIDENT_REACH_MS, OVERLOAD_MS } from '../engine/coupled/saturation.js';
import { namePattern } from '../model/params.js';
import { offeredUtilisation } from '../model/offered.js';
import type { WrittenScenario } from '../model/types.js';

/** What a coupled run reports of its saturation; every one null without `service.capacity`. */
export interface SaturationReadings {
  /** T, the load's end (ms): the readings count time inside [0, T), and an episode past it did not recover. */
  load_end_ms: number;
  /** Saturated time inside the load over its length. */
  saturated_share: number | null;
  /** From the scenario: first attempts' share of the workers, at the mean rate and at the highest. */
  offered_utilisation: number | null;
  peak_offered_utilisation: number | null;
  /** Per incident: ms from its `to` to the end of the episode holding it (0: not saturated at `to`); {} without incidents. */
  backlog_cleared_ms: Record<string, number> | null;
  /** Per incident: false when that episode outlived the load, null for a window whose `to` is at or after the load's end. */
  recovered: Record<string, boolean | null> | null;
  /** Every episode with a minute or more outside every incident's `[from, to + 30m)`: `[start, end]`, ms. */
  overload_episodes: [number, number][] | null;
  /** No overload episode. */
  stable: boolean | null;
  /** Per incident: its recovery in one word (RECOVERY_STATUSES), the one a filter can read safely. */
  recovery: Record<string, RecoveryStatus> | null;
}

/**
 * An incident's recovery in one word, so that no filter takes a storm for health:
 * `stormed_before` when an overload episode began a minute or more before the incident's `from`
 * (the service was storming by itself: the backlog is not the incident's to judge by), else
 * `not_recovered` (`recovered: false`), `at_load_end` (`recovered: null`: the window reaches the
 * load's end), `stormed_after` when an overload episode is blamed on outliving this incident by
 * more than 30 minutes (`episodeBlame`: the backlog cleared before the load ended, so `recovered`
 * is true, but the storm it set off outlived it: an overload, docs/model-decisions.md), or `recovered`.
 */
export const RECOVERY_STATUSES = ['recovered', 'not_recovered', 'stormed_before', 'stormed_after', 'at_load_end'] as const;
export type RecoveryStatus = (typeof RECOVERY_STATUSES)[number];

/** An incident window as the attribution reads it. */
type Window = Readonly<{ name: string; from: number; to: number }>;

/**
 * Which incident an overload episode `[a, b]` is the fault of, by the part of it outside every
 * incident's reach `[from, to + 30m)` (the one home of this: the reports' words, saturation-text.ts
 * `blame`, and `recoveryStatus`): among the incidents it meets, it began a minute or more before the
 * first (`before`), or it outlived the last to end by more than 30 minutes (`outliving`); else a
 * minute or more of it lies between incidents (`between`), or it meets none (`none`).
 */
export type EpisodeBlame = { kind: 'before' | 'outliving'; incident: Window } | { kind: 'between' } | { kind: 'none'; afterSome: boolean };
export function episodeBlame(incidents: readonly Window[], [a, b]: readonly [number, number]): EpisodeBlame {
  const met = incidents.filter((w) => w.from < b && a < w.to + INCIDENT_REACH_MS);
  if (met.length === 0) return { kind: 'none', afterSome: incidents.some((w) => w.from <= a) };
  const first = met.reduce((x, y) => (y.from < x.from ? y : x));
  if (first.from - a >= OVERLOAD_MS) return { kind: 'before', incident: first };
  const last = met.reduce((x, y) => (y.to > x.to ? y : x));
  return b > last.to + INCIDENT_REACH_MS ? { kind: 'outliving', incident: last } : { kind: 'between' };
}

/** The status of incident `w` of `incidents`, given its `recovered` and the run's overload episodes. */
export function recoveryStatus(w: Window, incidents: readonly Window[], recovered: boolean | null, overload: readonly (readonly [number, number])[]): RecoveryStatus {
  if (overload.some(([a]) => a <= w.from - OVERLOAD_MS)) return 'stormed_before';
  if (recovered === false) return 'not_recovered';
  if (recovered === null) return 'at_load_end';
  return overload.some((e) => { const blamed = episodeBlame(incidents, e); return blamed.kind === 'outliving' && blamed.incident.name === w.name; }) ? 'stormed_after' : 'recovered';
}

/** The readings that are no metric of the registry (not one number of a fixed name). */
export const SATURATION_FIELDS = ['backlog_cleared_ms', 'recovered', 'overload_episodes', 'stable', 'recovery'] as const;
export type SaturationField = (typeof SATURATION_FIELDS)[number];

const NONE: Omit<SaturationReadings, 'load_end_ms'> = {
  saturated_share: null, offered_utilisation: null, peak_offered_utilisation: null,
  backlog_cleared_ms: null, recovered: null, overload_episodes: null, stable: null, recovery: null,
};

/**
 * A coupled run's readings from its engine's `data` (absent only for a run of no block), the
 * load's end `loadMs` and the scenario (its incidents' names and times; the offered figures when
 * the engine did not give them).
 */
export function saturationReadings(s: WrittenScenario, data: SaturationOutput | undefined, loadMs: number): SaturationReadings {
  if (s.service.capacity === null) return { load_end_ms: loadMs, ...NONE };
  const offered = data?.offered ?? offeredUtilisation(s);
  const names = s.incidents.map((w) => w.name);
  if (data !== undefined && data.clearedMs.length !== names.length) data = undefined; // not this scenario's (a part checked alone)
  const cleared = data?.clearedMs ?? names.map(() => 0);
  const overload = data?.overload ?? [];
  const recovered = s.incidents.map((w, i) => (w.to >= loadMs ? null : data?.pastLoad[i] !== true));
  return {
    load_end_ms: loadMs,
    saturated_share: data !== undefined && loadMs > 0 ? data.saturatedMs / loadMs : null,
    offered_utilisation: offered?.offered_utilisation ?? null,
    peak_offered_utilisation: offered?.peak_offered_utilisation ?? null,
    backlog_cleared_ms: Object.fromEntries(names.map((n, i) => [n, cleared[i] as number])),
    recovered: Object.fromEntries(s.incidents.map((w, i) => [w.name, recovered[i] as boolean | null])),
    overload_episodes: overload.map(([a, b]) => [a, b]),
    stable: overload.length === 0,
    recovery: Object.fromEntries(s.incidents.map((w, i) => [w.name, recoveryStatus(w, s.incidents, recovered[i] as boolean | null, overload)])),
  };
}

/** A saturation reading `expect:` may name. */
export type SaturationPath = 'stable' | `backlog_cleared_ms.${string}` | `recovered.${string}`;

/** The per-incident readings' paths, as `expect:` may write them (names as model/params.ts's NAME_PATTERN allows). */
export const BACKLOG_PATH_PATTERN = `^backlog_cleared_ms\\.${namePattern('$')}$`;
export const RECOVERED_PATH_PATTERN = `^recovered\\.${namePattern('$')}$`;

export function isSaturationPath(path: string): path is SaturationPath {
  return path === 'stable' || new RegExp(BACKLOG_PATH_PATTERN).test(path) || new RegExp(RECOVERED_PATH_PATTERN).test(path);
}

/** Readings that are true or false (`expect:` writes `stable: true`): checked as 1 and 0. */
export function isFlagPath(path: string): boolean {
  return path === 'stable' || path.startsWith('recovered.');
}

/** What a path asks: the reading and, for a per-incident one, the incident. */
export function saturationQuery(path: SaturationPath): { reading: SaturationField; incident?: string } {
  if (path === 'stable') return { reading: 'stable' };
  const dot = path.indexOf('.');
  return { reading: path.slice(0, dot) as SaturationField, incident: path.slice(dot + 1) };
}

/** The value at `path` (a flag as 1 or 0), or null where the run has none. */
export function readSaturation(m: Partial<SaturationReadings>, path: SaturationPath): number | null {
  const q = saturationQuery(path);
  if (q.reading === 'stable') return m.stable == null ? null : Number(m.stable);
  const byIncident = (q.reading === 'recovered' ? m.recovered : m.backlog_cleared_ms) as Record<string, number | boolean | null> | null | undefined;
  const v = byIncident != null && Object.hasOwn(byIncident, q.incident as string) ? byIncident[q.incident as string] : null;
  return v === null || v === undefined ? null : Number(v);
}
