/**
 * The client and the agent of docs/model.md ("Client, model and runtime"), written once for
 * both clocks: attempts with a timeout, backoff with jitter, a deadline, re-plans (with
 * verify_before_replan) and replays after a worker crash, each action as its own task.
 */
import { createHash } from 'node:crypto';
import { backoffDelay, jittered, keyName, retryWait, shouldReplan, shouldReplay, withinDeadline } from '../model/policy.js';
import type { Scenario } from '../model/types.js';
import { sleepUntil, type Clock } from './clock.js';
import type { AttemptDraws, ProbeStream, StreamAction } from './stream.js';

export type CallKind = 'original' | 'replan' | 'replay';

/** What the client receives for an attempt; NO_REPLY when nothing comes back in time. */
export type Status = 'ok' | 'error' | 'conflict' | 'mismatch';
export const NO_REPLY = 'no-reply';
export type Received = Status | typeof NO_REPLY;

export interface AttemptRequest {
  action: StreamAction;
  kind: CallKind;
  /** The idempotency key, KEY_LENGTH characters or more; null with scope none. */
  key: string | null;
  /** SHA-256 (hex) of what idempotency.fingerprint covers. */
  fingerprint: string;
  draws: AttemptDraws;
}

/** The tool's server as the client sees it. */
export interface ToolServer {
  /**
   * Sends one attempt. Resolves with the reply when it arrives, or with NO_REPLY as soon as it
   * is known that none will (a lost request or reply, a crash): the client then waits out its timeout.
   */
  send(request: AttemptRequest): Promise<Received>;
  /** The read tool of verify_before_replan: has a side effect of the action committed? */
  executed(action: StreamAction): Promise<boolean>;
}

/** Per-action counts kept by the client. */
export interface ClientTally {
  attempts: number;
  /** Calls returned to the model failed with the last attempt timed out or answered 409. */
  unknown: number;
}

/** Keys are as long as a UUID (36 characters), as real clients send them: a readable part, then a hash. */
export const KEY_LENGTH = 36;

function padKey(readable: string): string {
  const hash = createHash('sha256').update(readable).digest('hex');
  return `${readable}:${hash}`.slice(0, Math.max(KEY_LENGTH, readable.length + 9));
}

/** The key of an attempt under `idempotency.scope` (docs/model.md's table, through model/policy.ts). */
export function keyFor(s: Scenario, a: StreamAction, call: number, attempt: number, text: string): string | null {
  const name = keyName(s.idempotency.scope, { action: a.id, group: a.group, call, attempt, text });
  return name === null ? null : padKey(name);
}

/** `full` covers the free text; `business` (and `none`, which is never compared) the business identity only. */
export function fingerprintFor(s: Scenario, a: StreamAction, text: string): string {
  const covered = s.idempotency.fingerprint === 'full' ? `${a.group}|${text}` : `${a.group}`;
  return createHash('sha256').update(covered).digest('hex');
}

/** Runs one action from its arrival to the end of its last call. */
export async function runAction(
  a: StreamAction, stream: ProbeStream, clock: Clock, server: ToolServer, tally: ClientTally, signal?: AbortSignal,
): Promise<void> {
  const { agent, runtime } = stream.scenario;
  let text = `${a.id}`; // each action's own free text: a twin's differs from its sibling's
  let kind: CallKind = 'original';
  let call = 0;
  let replans = 0;
  let replays = 0;
  let start = a.arrival;
  for (;;) {
    await sleepUntil(clock, start);
    if (signal?.aborted) return;
    const draws = stream.call(a.id, call);
    if (kind !== 'original' && draws.drift < agent.arg_drift_probability) text = `${a.id}.${call}`; // text never seen before
    const ended = await runCall(a, call, kind, text, start, stream, clock, server, tally, signal);
    let stepEnd = ended.end;
    if (!ended.success) {
      if (ended.unknown) tally.unknown++;
      if (shouldReplan(replans, agent.max_replans, agent.replan_probability, draws.replan)) {
        replans++;
        const next = ended.end + draws.replanDelay;
        await sleepUntil(clock, next);
        if (!(agent.verify_before_replan && await server.executed(a))) {
          kind = 'replan';
          call++;
          start = next;
          continue;
        }
        stepEnd = next; // the read tool found the action done: no re-plan
      }
    }
    if (shouldReplay(replays, runtime.max_replays, runtime.crash_probability, draws.crash)) {
      replays++;
      replans = 0;
      kind = 'replay';
      call++;
      start = stepEnd + draws.resumeDelay;
      continue;
    }
    return;
  }
}

/** The attempts of one call, first sent at `start`; when it ended, and how. */
async function runCall(
  a: StreamAction, call: number, kind: CallKind, text: string, start: number,
  stream: ProbeStream, clock: Clock, server: ToolServer, tally: ClientTally, signal?: AbortSignal,
): Promise<{ success: boolean; end: number; unknown: boolean }> {
  const s = stream.scenario;
  const { timeout, retries, deadline, backoff } = s.client;
  const fingerprint = fingerprintFor(s, a, text);
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) return { success: false, end: clock.now(), unknown: false };
    const sentAt = clock.now();
    const draws = stream.attempt(a.id, call, attempt);
    tally.attempts++;
    const request: AttemptRequest = { action: a, kind, key: keyFor(s, a, call, attempt, text), fingerprint, draws };
    const reply = await Promise.race([server.send(request), clock.sleep(timeout, true).then(() => NO_REPLY)]);
    let end = clock.now();
    if (reply === NO_REPLY) {
      end = sentAt + timeout;
      await sleepUntil(clock, end, true);
    }
    if (reply === 'ok') return { success: true, end, unknown: false };
    if (reply === 'mismatch') return { success: false, end, unknown: false }; // 422 is not retried
    const retry = attempt + 1;
    if (retry <= retries && !signal?.aborted) {
      const wait = jittered(backoffDelay(backoff, retry), backoff.jitter, draws.jitter);
      const next = end + retryWait(wait, reply === 'conflict', s.idempotency.conflict_retry_after ?? 0);
      if (withinDeadline(next, start, deadline)) {
        await sleepUntil(clock, next);
        continue;
      }
    }
    return { success: false, end, unknown: reply === NO_REPLY || reply === 'conflict' };
  }
}
