/** What both tracers (trace.ts, trace-coupled.ts) write the same way: statuses, call kinds, key names and which executions are duplicates. */
import { FRESH_KEY, NO_KEY } from './attempt.js';
import { SCOPE_KEY_NAME, type Scope } from '../model/enums.js';
import { KEY_IDENTITY } from '../model/policy.js';
import type { CallKind, TracedAction, TracedExecution } from './trace.js';

/** Engine reply codes (NO_REPLY = -1, OK, ERR_5XX, CONFLICT_409, MISMATCH_422, STORE_503, SHED_503) shifted by one. */
export const STATUS = [null, 'ok', '5xx', '409', '422', '503', '503'] as const;
/** Engine call kinds (calls.ts: ORIGINAL, REPLAN, REPLAY). */
export const KINDS: readonly CallKind[] = ['original', 'replan', 'replay'];

/**
 * A readable key: scope, action number (`group` + 1, as the timeline's labels), and the
 * engine's `key` within the group; `actor` is 0 for the primary, 1 for its twin, and `attempt`
 * names the attempt (`call.number`) for a key of its own.
 */
export function keyText(scope: Scope, group: number, actor: number, key: number, attempt: string): string | null {
  if (key === NO_KEY) return null;
  const action = group + 1;
  const name = SCOPE_KEY_NAME[scope];
  if (key === FRESH_KEY) return `${name}:${action}.${actor}.${attempt}`; // a key per attempt
  return `${name}:${action}${KEY_IDENTITY[scope] === 'group' ? '' : `.${key}`}`; // the business identity: one key per group
}

/**
 * Every execution after an action's first is a duplicate, as in docs/model.md: the first in time;
 * with a trigger, the first of the earliest delivery whose run executed (the runs of one action
 * are traced apart: the same group, twin or not).
 */
export function markDuplicates(actions: readonly TracedAction[]): void {
  const byAction = new Map<string, { run: TracedAction; e: TracedExecution }[]>();
  for (const run of actions) {
    const id = `${run.group}:${run.twin ? 1 : 0}`;
    const list = byAction.get(id) ?? [];
    for (const e of run.executions) list.push({ run, e });
    byAction.set(id, list);
  }
  for (const list of byAction.values()) {
    // The earliest delivery first, then time; at a tie the one traced first.
    const before = (x: { run: TracedAction; e: TracedExecution }, y: { run: TracedAction; e: TracedExecution }) =>
      (x.run.delivery ?? 0) < (y.run.delivery ?? 0) || ((x.run.delivery ?? 0) === (y.run.delivery ?? 0) && x.e.at < y.e.at);
    const first = list.reduce<{ run: TracedAction; e: TracedExecution } | null>((best, x) => (best === null || before(x, best) ? x : best), null);
    for (const x of list) x.e.duplicate = x !== first;
  }
}
