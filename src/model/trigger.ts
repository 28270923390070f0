/**
 * Inbound delivery (docs/model.md, "Inbound delivery", version 4): the step is started by a
 * message or a webhook that its sender delivers again when no acknowledgement reaches it in
 * time. The resolved `trigger` section as the engines read it; its keys are declared in
 * trigger-keys.ts (`TRIGGER`, in shape.ts as `trigger`), whose resolved value is this type.
 */

/** What delivers the step: descriptive (it selects presets and words); both kinds mean the same. */
export const TRIGGER_KINDS = ['queue', 'webhook'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/** When the consumer acknowledges: once its step ended, or as it receives the delivery. */
export const ACKS = ['after_step', 'on_receipt'] as const;
export type Ack = (typeof ACKS)[number];

/** Where the run id comes from: minted per delivery, or derived from the message id. */
export const RUN_IDS = ['per_delivery', 'from_message'] as const;
export type RunId = (typeof RUN_IDS)[number];

/** Whether the consumer starts one run per message id (a workflow id from it, an event id kept). */
export const DEDUPES = ['none', 'by_message'] as const;
export type Dedupe = (typeof DEDUPES)[number];

/** The resolved `trigger` (times in ms). */
export interface Trigger {
  kind: TriggerKind;
  ack_timeout: number;
  ack: Ack;
  redeliveries: number;
  /** The waits after each missed deadline before the next delivery; the last repeats; at least one entry. */
  schedule: number[];
  ack_loss: number;
  consumer_crash: number;
  run_id: RunId;
  /** The lease extension's total from receipt, or null (none). */
  extend_up_to: number | null;
  dedupe: Dedupe;
}

/** How long after its receipt delivery k's deadline falls: the ack timeout, or the lease extension when longer. */
export function ackWindow(t: Trigger): number {
  return Math.max(t.ack_timeout, t.extend_up_to ?? 0);
}

/** A scenario's trigger, or null without one (a scenario as outputs echo it leaves the key out then: model/clock.ts `echoed`). */
export function triggerOf(s: object): Trigger | null {
  return (s as { trigger?: Trigger | null }).trigger ?? null;
}

/**
 * The latest a delivery of an action can start after its arrival (0 without a trigger): each
 * delivery's deadline a window after it, the next delivery a schedule's wait after that deadline,
 * `redeliveries` times. What the series must reach beyond an undelivered action's own calls.
 */
export function deliveryReach(t: Trigger | null): number {
  if (t === null || t.redeliveries === 0) return 0;
  const s = t.schedule;
  const listed = Math.min(t.redeliveries, s.length - 1);
  let waits = 0;
  for (let k = 0; k < listed; k++) waits += s[k] as number;
  waits += (t.redeliveries - listed) * (s[s.length - 1] as number); // the last entry repeats
  return t.redeliveries * ackWindow(t) + waits;
}

/** When each redelivery of an action starts after its first delivery, at the earliest (every delivery unacknowledged): at most `most` of them. */
export function redeliveryTimes(t: Trigger, most = 5): number[] {
  const times: number[] = [];
  let at = 0;
  for (let k = 0; k < Math.min(t.redeliveries, most); k++) {
    at += ackWindow(t) + (t.schedule[Math.min(k, t.schedule.length - 1)] as number);
    times.push(at);
  }
  return times;
}
