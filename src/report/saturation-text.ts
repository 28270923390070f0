/**
 * A coupled run's saturation in words (docs/model.md, "Saturation"; docs/capacity.md): what its
 * first lines say, the run table's rows, and the note an alert's missing reading gets when the
 * service was saturated all the same, so that a storm never reads as health. One home for the
 * run table, the HTML report and the sweep's cells. Pure.
 */
import type { Metrics } from '../results/metrics.js';
import { episodeBlame, type RecoveryStatus } from '../results/saturation.js';
import { assertNever } from '../model/enums.js';
import type { WrittenScenario } from '../model/types.js';
import type { AlertRow } from './alert-rows.js';
import { duration, num } from './format.js';
import { escapeHtml } from './html.js';
import type { ScenarioRun } from './types.js';

/** Episodes listed by name before "and N more". */
const LISTED = 3;

/** An episode `[a, b]` as the reports write it. */
const span = ([a, b]: readonly [number, number]): string => `from ${duration(a)} to ${duration(b)}`;

/**
 * The overload episodes in one phrase: "none (stable)", or each listed. None beside an incident not
 * recovered from (its episode lies within its 30 minutes, or the run ended first) says so: "stable"
 * alone beside "did not recover" read as health.
 */
export function overloadText(m: Metrics): string {
  const episodes = m.overload_episodes;
  if (episodes === undefined || episodes === null) return '–';
  const unrecovered = Object.entries(m.recovered ?? {}).filter(([, r]) => r === false).map(([name]) => name);
  if (episodes.length === 0 && unrecovered.length > 0) return `none outside incidents, but not recovered from the ${unrecovered.join(', the ')}`;
  if (episodes.length === 0) return 'none (stable)';
  const listed = episodes.slice(0, LISTED).map(([a, b]) => `${duration(a)} to ${duration(b)}`).join(', ');
  return `${episodes.length}: ${listed}${episodes.length > LISTED ? `, and ${episodes.length - LISTED} more` : ''}`;
}

/** When the backlog of the incident `name` of `s` cleared, in words; – where the run has no such reading. */
export function backlogText(m: Metrics, s: WrittenScenario, name: string): string {
  const cleared = m.backlog_cleared_ms?.[name];
  const w = s.incidents.find((x) => x.name === name);
  if (cleared === undefined || w === undefined) return '–';
  const recovered = m.recovered?.[name];
  if (recovered === false) return `did not recover before the load ended (backlog cleared ${duration(w.to + cleared - (m.load_end_ms ?? 0))} after the load ended)`;
  if (cleared === 0) return 'no backlog at its end (no worker was held)';
  const words = `backlog cleared ${duration(cleared)} after it ended`;
  if (recovered === null) return `${words} (the window reaches the load's end)`;
  return m.recovery?.[name] === 'stormed_after' ? `${words}, but the storm it set off outlived it by more than 30 minutes (an overload, not a recovery)` : words;
}

/** The table's cell of an incident's backlog: short, the first lines having the whole words. */
function backlogCell(m: Metrics, s: WrittenScenario, name: string): string {
  const cleared = m.backlog_cleared_ms?.[name];
  const w = s.incidents.find((x) => x.name === name);
  if (cleared === undefined || w === undefined) return '–';
  if (m.recovered?.[name] === false) return `did not recover (${duration(w.to + cleared - (m.load_end_ms ?? 0))} after the load)`;
  if (cleared === 0) return '0 (no backlog)';
  if (m.recovered?.[name] === null) return `${duration(cleared)} (window reaches the load's end)`;
  return m.recovery?.[name] === 'stormed_after' ? `${duration(cleared)} (a storm outliving it: overload)` : duration(cleared);
}

/** The workers the words blame: the base count. */
const workers = (s: WrittenScenario): string => {
  const n = s.service.capacity?.workers ?? 0;
  return `${n} worker${n === 1 ? '' : 's'}`;
};

/** Why an overload episode `[a, b]` is no incident's, in words (results/saturation.ts `episodeBlame`). */
export function blame(s: WrittenScenario, e: readonly [number, number]): string {
  const blamed = episodeBlame(s.incidents, e);
  switch (blamed.kind) {
    case 'none': return blamed.afterSome ? 'with no incident (after every incident before it and its 30 minutes)' : 'with no incident';
    case 'before': return `beginning ${duration(blamed.incident.from - e[0])} before the ${blamed.incident.name}`;
    case 'outliving': return `outliving the ${blamed.incident.name} by more than 30 minutes`;
    case 'between': return 'a minute or more of it between incidents and their 30 minutes';
    default: return assertNever(blamed);
  }
}

/**
 * Whether the run shows that the offered load with its retries exceeds the workers over an
 * overload episode `[a, b]`: the first attempts alone reach them (peak_offered_utilisation >= 1),
 * retries or re-plans add load (more than 1 attempt an action), or the episode outlives the load.
 * Else it is a busy period that chance brings at few workers and long service times.
 */
export function overloadShown(m: Metrics, [, b]: readonly [number, number]): boolean {
  return (m.peak_offered_utilisation ?? 0) >= 1 || m.attempts_per_action.value > 1 || b > (m.load_end_ms ?? Infinity);
}

/** An overload episode in words: the fact, and why where the run shows it. */
function episodeText(m: Metrics, s: WrittenScenario, e: readonly [number, number]): string {
  if (overloadShown(m, e)) return `saturated ${span(e)} ${blame(s, e)}: the offered load with its retries exceeds ${workers(s)}`;
  const offered = m.offered_utilisation === null || m.offered_utilisation === undefined ? '' : ` at ${(m.offered_utilisation * 100).toFixed(0)}% offered utilisation`;
  return `every worker busy ${span(e)} ${blame(s, e)}: a busy period of ${duration(e[1] - e[0])}${offered}, with no retries adding load; with few workers and long service times such periods are normal: gate on backlog_cleared_ms or saturated_share rather than stable`;
}

/**
 * What a run's first lines say of its saturation: each overload episode (a storm with no incident
 * to blame) and each incident's recovery; none for a run without service.capacity.
 */
export function saturationLines(m: Metrics, s: WrittenScenario): string[] {
  if (m.stable === undefined || m.stable === null) return [];
  const episodes = (m.overload_episodes ?? []).slice(0, LISTED).map((e) => episodeText(m, s, e));
  const more = (m.overload_episodes?.length ?? 0) > LISTED ? [`and ${(m.overload_episodes?.length ?? 0) - LISTED} more overload episodes (the JSON's overload_episodes lists them)`] : [];
  return [...episodes, ...more, ...s.incidents.map((w) => `${w.name}: ${backlogText(m, s, w.name)}`)];
}

/** A coupled run's saturation in words as a paragraph of HTML, leading the report's page and the lab's totals: '' for any other run. */
export function saturationParagraph(m: Metrics, s: WrittenScenario): string {
  const lines = saturationLines(m, s);
  return lines.length === 0 ? '' : `<p class="saturation"><strong>${m.stable === false ? 'Overloaded' : 'Saturation'}:</strong> ${lines.map(escapeHtml).join('<br>')}</p>\n`;
}

/**
 * What an alert's missing reading for `incident` (not detected, no firing) must add when the
 * service stormed all the same: that the incident's backlog outlived the load, else the run's
 * first overload episode; null for a run that recovered and was stable (its first lines say
 * how long the backlog took).
 */
export function saturatedNote(m: Metrics, s: WrittenScenario, incident: string): string | null {
  if (m.recovered?.[incident] === false) return `yet saturated: ${backlogText(m, s, incident)}`;
  const first = m.overload_episodes?.[0];
  return first ? `yet saturated ${span(first)} (an overload episode)` : null;
}

/** `none` (an alert's missing reading), followed by the saturation note where there is one. */
export function missingReading(none: string, m: Metrics, s: WrittenScenario, incident: string): string {
  const note = saturatedNote(m, s, incident);
  return note === null ? none : `${none}, ${note}`;
}

/**
 * An alert's recovery after `incident` (a number) in words: the time, qualified where the
 * incident's backlog outlived the load (the firing ended with the load, not with the storm).
 */
export function recoveryReading(ms: number, m: Metrics, incident: string): string {
  return m.recovered?.[incident] === false ? `${duration(ms)} (the load ended; the backlog had not cleared)` : duration(ms);
}

/**
 * An alert's false alarms in words: the count (the alerts' number, unchanged), with the overload
 * episode a false alarm's firing overlaps, where one does: such a firing caught a real overload.
 */
export function falseAlarmText(count: number, firings: readonly (readonly [number, number])[], grace: number, m: Metrics, s: WrittenScenario): string {
  if (count === 0) return num(count);
  const owned = (start: number) => s.incidents.some((w) => w.from <= start && start < w.to + grace);
  const overload = (m.overload_episodes ?? []).find(([a, b]) => firings.some(([f, g]) => !owned(f) && f < b && a < g));
  return overload ? `${num(count)}, during the overload ${span(overload)}` : num(count);
}

/** The run table's rows of the saturation (after the capacity metrics): the overload episodes and each incident's backlog. */
export function saturationRows(runs: readonly ScenarioRun[]): AlertRow[] {
  const measured = runs.filter((r) => r.metrics.stable !== undefined && r.metrics.stable !== null);
  if (measured.length === 0) return [];
  const incidents = [...new Set(measured.flatMap((r) => Object.keys(r.metrics.backlog_cleared_ms ?? {})))];
  return [
    ['Saturation (no worker free: exact, docs/capacity.md)'],
    ['overload episodes (1 min+ saturated outside incidents)', (r) => overloadText(r.metrics)],
    ...incidents.map((name): AlertRow => [`backlog cleared after ${name}`, (r) => backlogCell(r.metrics, r.scenario, name)]),
  ];
}

/**
 * The CSV's saturation columns for runs or points of `metrics` (those with service.capacity):
 * `stable`, `overload_episodes` and, per incident, `backlog_cleared_ms.INCIDENT` and
 * `recovered.INCIDENT`, as `expect:` names them, and `recovery.INCIDENT`, the status word
 * (docs/csv.md).
 */
export function saturationColumns(metrics: readonly Metrics[]): string[] {
  const measured = metrics.filter((m) => m.stable !== undefined && m.stable !== null);
  if (measured.length === 0) return [];
  const incidents = [...new Set(measured.flatMap((m) => Object.keys(m.backlog_cleared_ms ?? {})))];
  return ['stable', 'overload_episodes', ...incidents.flatMap((n) => [`backlog_cleared_ms.${n}`, `recovered.${n}`, `recovery.${n}`])];
}

/** What `recovery.INCIDENT` says of a run or point without that reading: never empty, so that no filter reads it as recovered. */
export const NO_RECOVERY = { capacity: 'no_capacity', incident: 'no_incident' } as const;

/** An incident's recovery status (results/saturation.ts), or why the run has none. */
export type RecoveryWord = RecoveryStatus | (typeof NO_RECOVERY)[keyof typeof NO_RECOVERY];
export function recoveryWord(m: Metrics, incident: string): RecoveryWord {
  if (m.recovery === undefined || m.recovery === null) return NO_RECOVERY.capacity;
  return Object.hasOwn(m.recovery, incident) ? m.recovery[incident] as RecoveryStatus : NO_RECOVERY.incident;
}

/**
 * A saturation column's cell: true or false, the episodes as JSON ([[start, end], ...], ms), a
 * time in ms (empty where there is none), or the recovery's status word (never empty).
 */
export function saturationCell(m: Metrics, column: string): string | number {
  const flag = (v: boolean | null | undefined) => (v === null || v === undefined ? '' : String(v));
  if (column === 'stable') return flag(m.stable);
  if (column === 'overload_episodes') return m.overload_episodes ? JSON.stringify(m.overload_episodes.map(([a, b]) => [round(a), round(b)])) : '';
  const dot = column.indexOf('.');
  const name = column.slice(dot + 1);
  if (column.startsWith('recovery.')) return recoveryWord(m, name);
  if (column.startsWith('recovered.')) return flag(m.recovered && Object.hasOwn(m.recovered, name) ? m.recovered[name] : null);
  const v = m.backlog_cleared_ms && Object.hasOwn(m.backlog_cleared_ms, name) ? m.backlog_cleared_ms[name] : undefined;
  return v === undefined ? '' : round(v);
}

/** 12 significant digits, as every CSV number. */
const round = (x: number) => Number(x.toPrecision(12));
