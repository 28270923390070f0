/**
 * Which traced actions the timeline shows, and each one's story in words. A chunk has
 * thousands of actions and most are quiet (one attempt, one reply, one execution), so the
 * sample keeps every action that had something happen to it, up to a limit, and a few
 * quiet ones for scale; the page says how over-represented the eventful ones are.
 */
import { MAX_TRACED_WORK } from '../engine/runaway.js';
import type { TracedAction, TracedAttempt } from '../engine/trace.js';
import type { GuardStop } from '../model/guards.js';
import { duration, num } from './format.js';

export interface TimelineRow {
  action: TracedAction;
  /** "#12" or "#12 twin". */
  label: string;
  /** What happened, e.g. "duplicate", "409", "re-planned"; empty for a quiet action. */
  tags: string[];
  story: string;
}

export interface TimelineSample {
  /** A row per traced run: an action redelivered by a trigger has one per delivery's run. */
  rows: TimelineRow[];
  /** Actions traced (a primary and its twin two, however many runs each had), and how many of them were eventful. */
  simulated: number;
  eventful: number;
  /** Actions shown: eventful, quiet, and both (each action's rows are all shown). */
  shownEventful: number;
  shownQuiet: number;
  shown: number;
  /** Why no action is traced (the chunk makes too many attempts to trace), in place of the sample's words; absent for a sample. */
  omitted?: string;
}

/** A caption's words for a timeline of no row (`untraced`). */
export const UNTRACED_CAPTION = 'no action drawn: too many attempts to trace (see the note)';

/**
 * A timeline of no row, for a chunk whose trace would keep more than MAX_TRACED_WORK attempts and
 * deliveries (engine/trace.ts `traceActions`: null): the report and the lab say so in its place.
 */
export function untraced(): TimelineSample {
  const limit = MAX_TRACED_WORK;
  return {
    rows: [], simulated: 0, eventful: 0, shownEventful: 0, shownQuiet: 0, shown: 0,
    omitted: `No action is drawn: the actions the timeline traces make more than ${limit.toLocaleString('en-US')} attempts (with their deliveries or calls), more than a trace keeps (each one is held; docs/security-and-limits.md). The run's numbers above are the whole run's; lower the retries, re-plans or replays to see its actions here.`,
  };
}

export interface SampleLimits {
  /** Most rows given to eventful actions (twins count as rows). */
  eventfulRows: number;
  /** Rows given to quiet actions, spread evenly over the chunk. */
  quietRows: number;
}

export const DEFAULT_LIMITS: SampleLimits = { eventfulRows: 48, quietRows: 16 };

export function actionTags(a: TracedAction): string[] {
  const tags: string[] = [];
  const count = (n: number, tag: string) => { if (n > 0) tags.push(n > 1 ? `${tag} ×${n}` : tag); };
  count(a.executions.filter((e) => e.duplicate).length, 'duplicate');
  if (a.executions.length === 0) tags.push('never executed');
  count(a.attempts.filter((t) => t.status === '409').length, '409');
  count(a.attempts.filter((t) => t.status === '422').length, '422');
  count(a.attempts.filter((t) => t.answeredBy === 'store' && (t.status === 'ok' || t.status === '5xx')).length, 'from key store');
  count(a.calls.filter((c) => c.kind === 'replan').length, 're-plan');
  count(a.calls.filter((c) => c.kind === 'replay').length, 'crash replay');
  capacityTags(a, count);
  if (tags.length === 0 && a.attempts.length > a.calls.length) tags.push('retried');
  if (tags.length === 0 && a.attempts.some((t) => t.outcome !== 'ok')) tags.push('failed');
  if (a.twin) tags.push('twin');
  if ((a.delivery ?? 0) > 0) tags.push(`redelivery ${a.delivery}`);
  return tags;
}

/** What capacity did to an action (docs/model.md, "Capacity"; none in a run without it). */
function capacityTags(a: TracedAction, count: (n: number, tag: string) => void): void {
  count(a.attempts.filter((t) => t.answeredBy === 'queue' && t.status === '503').length, 'shed');
  count(a.attempts.filter((t) => t.outcome === 'expired').length, 'expired');
  count(a.attempts.filter((t) => (t.waitMs ?? 0) > 0).length, 'queued');
  count(a.calls.filter((c) => c.stopped === 'breaker').length, 'breaker open');
  count(a.calls.filter((c) => c.stopped === 'budget').length, 'budget empty');
  count(a.calls.filter((c) => c.stopped === 'throttle').length, 'throttled');
}


/** What a group is shown for: the first that applies; each kind gets an equal share of the rows. */
const CATEGORIES: ((a: TracedAction) => boolean)[] = [
  (a) => a.executions.some((e) => e.duplicate),
  (a) => (a.delivery ?? 0) > 0, // a run a redelivery started (a trigger)
  (a) => a.attempts.some((t) => t.answeredBy === 'queue'), // shed or expired (capacity)
  (a) => a.calls.some((c) => c.stopped !== undefined), // a client guard (capacity)
  (a) => a.attempts.some((t) => t.status === '409' || t.status === '422'),
  (a) => a.attempts.some((t) => t.answeredBy === 'store'),
  (a) => a.calls.length > 1,
  (a) => a.executions.length === 0,
  (a) => a.twin,
  () => true,
];

/**
 * The indices 0..n-1 in an order whose every prefix is spread over the range (the van der
 * Corput sequence in base 2, scaled to n), so a category's first picks cover the whole chunk.
 */
export function spreadOrder(n: number): number[] {
  if (n <= 0) return [];
  const bits = Math.max(1, Math.ceil(Math.log2(Math.max(2, n))));
  const seen = new Uint8Array(n);
  const order: number[] = [];
  for (let j = 0; j < 2 ** bits; j++) {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((j >> b) & 1) << (bits - 1 - b);
    const k = Math.floor((r * n) / 2 ** bits);
    if (!seen[k]) { seen[k] = 1; order.push(k); }
  }
  return order;
}

/** Picks the rows of the timeline from a traced chunk; a group's twin is shown with its primary. */
export function sampleRows(actions: readonly TracedAction[], runStart: number, timeout: number, limits: SampleLimits = DEFAULT_LIMITS): TimelineSample {
  const groups = new Map<number, TracedAction[]>();
  for (const a of actions) {
    const g = groups.get(a.group);
    if (g) g.push(a); else groups.set(a.group, [a]);
  }
  const buckets: TracedAction[][][] = CATEGORIES.map(() => []);
  const quiet: TracedAction[][] = [];
  for (const g of groups.values()) {
    if (!g.some((a) => actionTags(a).length > 0)) { quiet.push(g); continue; }
    buckets[CATEGORIES.findIndex((test) => g.some(test))]?.push(g);
  }

  // Round robin over the categories, each taking its next group in spread order.
  const chosen: TracedAction[][] = [];
  const orders = buckets.map((b) => spreadOrder(b.length));
  const next = buckets.map(() => 0);
  let rows = 0;
  let shownEventful = 0;
  for (let progress = true; progress;) {
    progress = false;
    buckets.forEach((bucket, c) => {
      const order = orders[c] as number[];
      while ((next[c] as number) < order.length) {
        const g = bucket[order[next[c]!++] as number] as TracedAction[];
        if (rows + g.length > limits.eventfulRows) continue;
        chosen.push(g);
        rows += g.length;
        shownEventful += actionCount(g);
        progress = true;
        break;
      }
    });
  }
  const quietCount = Math.min(limits.quietRows, quiet.length);
  for (let k = 0; k < quietCount; k++) chosen.push(quiet[Math.floor(((k + 0.5) * quiet.length) / quietCount)] as TracedAction[]);

  chosen.sort((x, y) => (x[0] as TracedAction).group - (y[0] as TracedAction).group);
  return {
    rows: chosen.flatMap((group) => group.map((action) => {
      const tags = actionTags(action);
      // A quiet primary is shown for its twin; a group's other rows may be its redeliveries' runs, no twin.
      if (tags.length === 0 && !action.twin && group.some((a) => a.twin)) tags.push('has a twin');
      const delivery = (action.delivery ?? 0) > 0 ? ` delivery ${(action.delivery ?? 0) + 1}` : '';
      return { action, label: `#${action.group + 1}${action.twin ? ' twin' : ''}${delivery}`, tags, story: actionStory(action, runStart, timeout) };
    })),
    simulated: actionCount(actions),
    eventful: buckets.reduce((n, b) => n + b.reduce((m, g) => m + actionCount(g), 0), 0),
    shownEventful,
    shownQuiet: quietCount,
    shown: shownEventful + quietCount,
  };
}

/** ", a row for each of their N runs" when a trigger's redeliveries gave actions more runs than one; else nothing. */
export function runsWords(sample: TimelineSample): string {
  return sample.rows.length > sample.shown ? `, a row for each of their ${num(sample.rows.length)} runs` : '';
}

/**
 * The actions among traced runs: a primary and its twin are two, and with a trigger each
 * delivery's run is traced apart (TracedAction.delivery) but is still its action's.
 */
export function actionCount(runs: readonly TracedAction[]): number {
  return new Set(runs.map((a) => 2 * a.group + (a.twin ? 1 : 0))).size;
}

const KIND_WORDS = { original: 'the original call', replan: 'a model re-plan', replay: 'a crash replay' } as const;
/**
 * A time in a story, to the millisecond: a replay's attempts minutes after arrival are
 * seconds apart, which three significant digits would print as one instant.
 */
export function clock(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  if (t < 1000) return `${t} ms`;
  if (t < 60_000) return `${(t / 1000).toFixed(3)} s`;
  const m = Math.floor(t / 60_000);
  return `${m} min ${((t - m * 60_000) / 1000).toFixed(3)} s`;
}
const at = clock;

function attemptWords(t: TracedAttempt, timeout: number): string {
  const waited = `; the client gave up waiting at ${at(t.ended)} (timeout ${duration(timeout)})`;
  const lost = t.outcome === 'reply_lost' ? `, but the reply was lost${waited}` : '';
  // Under capacity: the wait for a worker before the server's answer (none in a run without it).
  const queued = t.waitMs ? `it waited ${duration(t.waitMs)} for a worker, then ` : '';
  switch (t.answeredBy) {
    case 'nobody': return `the request was lost on the way${waited}`;
    case 'queue': return queueWords(t, waited, lost);
    case 'store': {
      // The answer came too late for the client when it waited past the timeout (or the fast reply is longer).
      const end = lost || (t.outcome === 'timeout' ? waited : ` at ${at(t.ended)}`);
      if (t.status === '409') return `${queued}the key was still in progress: 409${end}`;
      if (t.status === '422') return `${queued}the key came with different arguments: 422${end}`;
      if (t.status === '503') return `${queued}the key store was down: 503, nothing executed${end}`;
      return `${queued}answered from the key store with the stored ${t.status === 'ok' ? 'success' : '5xx'}, no execution${end}`;
    }
    case 'handler': {
      const ran = `${queued}the handler ran ${duration(t.handlerMs ?? 0)}`;
      if (t.waitMs !== undefined && t.sent + t.waitMs >= t.ended) {
        return `it waited ${duration(t.waitMs)} for a worker, past the timeout${waited}; then the handler ran ${duration(t.handlerMs ?? 0)} anyway${t.crashed ? ' and crashed' : ''}: work nobody waited for`;
      }
      if (t.crashed) return `${ran} and crashed before replying${waited}`;
      const reply = t.status === 'ok' ? 'success' : '5xx error';
      if (t.outcome === 'timeout') return `${ran}, longer than the timeout${queued ? ' in all' : ''}${waited}`;
      return `${ran} and replied ${reply}${lost || ` at ${at(t.ended)}`}`;
    }
  }
}

/** A request no worker took: shed by a full queue, or dropped expired (docs/model.md, "Capacity"). */
function queueWords(t: TracedAttempt, waited: string, lost: string): string {
  if (t.outcome === 'expired') {
    return `it waited for a worker past the timeout${waited}; the worker that reached it at ${at(t.sent + (t.waitMs ?? 0))} dropped it unrun (drop_expired)`;
  }
  return `the queue was full: shed with a 503, nothing executed${lost || (t.outcome === 'timeout' ? waited : ` at ${at(t.ended)}`)}`;
}

/** Why a call sent no further attempt, when a guard stopped it. */
const STOPPED_WORDS = {
  breaker: (sent: boolean) => `  The circuit breaker was open: ${sent ? 'the next attempt' : 'the attempt'} was not sent.`,
  budget: () => '  The retry budget had too few tokens left: no retry.',
  throttle: () => '  The retry throttle\'s counter was at or below half its most: no retry.',
} as const satisfies Record<GuardStop, (sent: boolean) => string>;

/** The action's events in words, times from the group's arrival. */
export function actionStory(a: TracedAction, runStart: number, timeout: number): string {
  const arrived = clock(runStart + a.groupArrival + a.arrival);
  const lines = [(a.delivery ?? 0) > 0
    ? `Delivery ${(a.delivery ?? 0) + 1} of ${a.twin ? 'the twin of ' : ''}action #${a.group + 1} (redelivered: no acknowledgement of the delivery before it reached the sender in time): its run started ${arrived} into the run, ${at(a.arrival)} after ${a.twin ? 'the sibling\'s' : 'the action\'s'} arrival, from which the times below count.`
    : a.twin
      ? `The twin of action #${a.group + 1} (the same business action, sent again): arrived ${arrived} into the run, ${at(a.arrival)} after its sibling. Times below are from its sibling's arrival.`
      : `Action #${a.group + 1}, arrived ${arrived} into the run. Times below are from its arrival.`];
  a.calls.forEach((c, k) => {
    lines.push(`Call ${k + 1}, ${KIND_WORDS[c.kind]}, at ${at(c.start)}:`);
    for (const t of a.attempts.filter((x) => x.call === k)) {
      lines.push(`  attempt ${t.number} at ${at(t.sent)}, ${t.key === null ? 'no key' : `key ${t.key}`}: ${attemptWords(t, timeout)}.`);
    }
    for (const e of a.executions.filter((x) => x.call === k)) lines.push(`  side effect at ${at(e.at)}${e.duplicate ? ': a DUPLICATE' : ''}.`);
    if (c.stopped) lines.push(STOPPED_WORDS[c.stopped](a.attempts.some((x) => x.call === k)));
    lines.push(`  The tool returned ${c.result === 'success' ? 'success' : c.result === 'unknown' ? 'an unknown outcome (timed out or 409)' : 'a failure'} to the model at ${at(c.end)}.`);
  });
  const dups = a.executions.filter((e) => e.duplicate).length;
  lines.push(a.executions.length === 0 ? 'The action never executed.' : `Executed ${a.executions.length} time${a.executions.length > 1 ? 's' : ''}${dups > 0 ? `: ${dups} duplicate${dups > 1 ? 's' : ''}` : ''}.`);
  return lines.join('\n');
}
