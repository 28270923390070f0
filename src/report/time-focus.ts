/**
 * `report --at TIME`: the action timeline centred on a time of the run (without --at, on the
 * start of the first incident, if any). The chunk whose time span holds it is traced (the
 * run's own chunk: same plan, same stream), and the actions arriving nearest it are the ones
 * the timeline samples its rows from.
 */
import { CHUNK_ACTIONS, runPlans, type ChunkPlan } from '../engine/plan.js';
import type { TracedAction } from '../engine/trace.js';
import type { Scenario } from '../model/types.js';
import { bareDurationFix, DURATION_PATTERN, formatDuration, isBareDuration, parseDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { escapeHtml } from './html.js';
import { clock } from './timeline-rows.js';
import { clipped } from '../scenario/printable.js';

/** `--at TIME`: a duration from the run's start, with its unit (undefined: not given). */
export function atOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const source = { source: `--at ${text}` };
  if (isBareDuration(text)) throw new InputError(source, '', `"${clipped(text, 80)}" has no unit`, bareDurationFix(text));
  if (!new RegExp(DURATION_PATTERN).test(text)) {
    throw new InputError(source, '', `expected a time from the run's start with its unit, got "${String(text).slice(0, 40)}"`, 'Give --at as a duration such as 20m, 90s or 1h (an incident\'s from, to look at its start).');
  }
  return parseDuration(text);
}

/** Where the action timeline is centred: a time of the run (ms) and the chunk whose arrivals span it. */
export interface Focus {
  at: number;
  plan: ChunkPlan;
  /** Without --at: the incident whose start it is. */
  incident?: string;
}

/**
 * The timeline's centre for `report` (`scenario` with its primaries: `withPrimaries`): --at
 * when given; else, in a scenario with incidents, the start of the first one (the earliest
 * `from`), where a reader looks first; else none (the run's first chunk, from its start).
 */
export function timelineFocus(scenario: Scenario, seed: string, atText: string | undefined): Focus | undefined {
  const at = atOption(atText);
  if (at !== undefined) return { at, plan: chunkAt(scenario, seed, at, atText as string) };
  const first = scenario.incidents.reduce<Scenario['incidents'][number] | undefined>((a, w) => (a === undefined || w.from < a.from ? w : a), undefined);
  if (!first) return undefined;
  // An incident starts before the run's expected end (scenario/time-checks.ts); should the last
  // arrival come earlier, the last chunk is the nearest.
  const { holding, last } = chunksAround(scenario, seed, first.from);
  return { at: first.from, plan: holding ?? last, incident: first.name };
}

/** What the timeline's note adds after its time when the centre was not asked for (HTML). */
export function focusWords(focus: Focus): string {
  return focus.incident === undefined ? '' : `, when the first incident, ${escapeHtml(focus.incident)}, starts (the centre without --at; --at TIME moves it)`;
}

/** The chunk of the run whose arrivals span `at` (none past the last arrival), and the last chunk. */
function chunksAround(scenario: Scenario, seed: string, at: number): { holding: ChunkPlan | undefined; last: ChunkPlan } {
  let holding: ChunkPlan | undefined;
  let last: ChunkPlan | undefined;
  for (const plan of runPlans(scenario, seed)) {
    if (holding === undefined && at <= plan.offset + plan.span) holding = plan;
    last = plan;
  }
  if (!last) throw new Error('a run has at least one chunk');
  return { holding, last };
}

/**
 * The chunk of the run (`scenario` with its primaries: `withPrimaries`) whose arrivals span
 * `at`: chunks follow each other without gaps, from 0 to the last arrival. A time past the
 * run's end (its last arrival, or load.duration) is refused before anything is simulated.
 */
export function chunkAt(scenario: Scenario, seed: string, at: number, text: string): ChunkPlan {
  const { holding, last } = chunksAround(scenario, seed, at);
  const end = Math.max(last.offset + last.span, scenario.load.duration ?? 0);
  if (at > end) {
    const d = scenario.load.duration;
    const span = d !== null ? `its primaries arrive in the first ${formatDuration(d)} (load.duration)` : `its last primary action arrives at ${clock(end)}`;
    const w = scenario.incidents[0];
    const example = w ? `, such as --at ${formatDuration(w.from)} (the start of ${w.name})` : '';
    throw new InputError({ source: `--at ${text}` }, '', `is past the run's end: ${span}, and the timeline shows actions by their arrival`,
      `Give --at a time from 0 to ${formatDuration(Math.floor(end / 1000) * 1000)}${example}, or make the run longer (${d !== null ? 'load.duration' : 'more --actions'}).`);
  }
  return holding ?? last;
}

/** Which of a traced chunk's actions the timeline samples from: those of the `groups` groups arriving nearest `at`, and their span. */
export interface NearSelection {
  actions: TracedAction[];
  /** Arrivals of the first and last group chosen, ms of the run. */
  from: number;
  to: number;
  groups: number;
}

/** The `groups` groups (an action and its twin) of the chunk whose arrivals are nearest `at`, in arrival order. */
export function nearestActions(actions: readonly TracedAction[], plan: ChunkPlan, at: number, groups: number): NearSelection {
  const arrivals = new Map<number, number>();
  for (const a of actions) if (!arrivals.has(a.group)) arrivals.set(a.group, plan.offset + a.groupArrival);
  const order = [...arrivals.keys()].sort((x, y) => x - y);
  // Arrivals rise with the group index: widen a window [lo, hi) around the first at or after `at`.
  let hi = order.findIndex((g) => (arrivals.get(g) as number) >= at);
  if (hi < 0) hi = order.length;
  let lo = hi;
  while (hi - lo < Math.min(groups, order.length)) {
    const before = lo > 0 ? at - (arrivals.get(order[lo - 1] as number) as number) : Infinity;
    const after = hi < order.length ? (arrivals.get(order[hi] as number) as number) - at : Infinity;
    if (before <= after) lo--; else hi++;
  }
  const chosen = new Set(order.slice(lo, hi));
  const first = order[lo], last = order[hi - 1];
  return {
    actions: actions.filter((a) => chosen.has(a.group)),
    from: first === undefined ? at : (arrivals.get(first) as number),
    to: last === undefined ? at : (arrivals.get(last) as number),
    groups: chosen.size,
  };
}

/**
 * The actions numbered as actions of the run rather than of their chunk (chunk k's first is
 * action k·CHUNK_ACTIONS + 1), in their labels, stories and key names alike.
 */
export function numberedInRun(actions: readonly TracedAction[], plan: ChunkPlan): TracedAction[] {
  const shift = plan.index * CHUNK_ACTIONS;
  if (shift === 0) return [...actions];
  return actions.map((a) => ({
    ...a,
    group: a.group + shift,
    attempts: a.attempts.map((t) => (t.key === null ? t : { ...t, key: t.key.replace(/^([^:]*):(\d+)/, (_, scope: string, n: string) => `${scope}:${Number(n) + shift}`) })),
  }));
}
