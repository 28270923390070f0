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

/** Every execution after an action's first (in time) is a duplicate, as in docs/model.md. */
export function markDuplicates(actions: readonly TracedAction[]): void {
  for (const action of actions) {
    const first = action.executions.reduce((best, e, k, all) => (e.at < (all[best] as TracedExecution).at ? k : best), 0);
    action.executions.forEach((e, k) => { e.duplicate = k !== first; });
  }
}
