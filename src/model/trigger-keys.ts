/**
 * The keys of `trigger` (docs/model.md, "Inbound delivery", version 4), declared as every other
 * section's are (model/params.ts): shape.ts puts them after `runtime`, and the section resolves to
 * `Trigger | null` (trigger.ts, the type the engines read; shape.ts checks the two agree). The
 * providers' presets (`trigger.preset`) are scenario/presets.ts's TRIGGER_PRESETS.
 */
import { MAX_REDELIVERIES, MAX_SCHEDULE_ENTRIES } from './limits.js';
import { choice, count, durations, optional, optionalDuration, positiveDuration, probability } from './params.js';
import { ACKS, DEDUPES, RUN_IDS, TRIGGER_KINDS } from './trigger.js';

export const TRIGGER = optional('the delivery that starts each step, which its sender makes again when no acknowledgement reaches it in time (docs/triggers.md); none: each action is delivered once', {
  kind: choice(TRIGGER_KINDS, 'webhook', 'what delivers the step: a queue\'s message or a webhook; it selects presets and words, both kinds mean the same'),
  ack_timeout: positiveDuration(undefined, 'the sender\'s deadline after a delivery (a webhook\'s response timeout, a queue\'s visibility timeout or ack deadline): no acknowledgement by then and it delivers again, > 0; required unless trigger.preset gives it'),
  ack: choice(ACKS, 'after_step', 'when the consumer acknowledges: when its step ends, succeeded or failed (at least once), or on receipt, before the step starts (at most once: a consumer that dies then loses the action)'),
  redeliveries: count(3, 'deliveries after the first at most, up to 100000; after the last the sender gives up and the action is dead-lettered (SQS\'s maxReceiveCount is redeliveries + 1)', 0, MAX_REDELIVERIES),
  schedule: durations([0], 'the wait after each missed deadline before the next delivery, one entry per redelivery, the last repeating; 0: redelivered as soon as the deadline passes', 1, MAX_SCHEDULE_ENTRIES),
  ack_loss: probability(0, 'chance an acknowledgement is lost on its way to the sender, which delivers again'),
  consumer_crash: probability(0, 'chance the consumer dies before it acknowledges (after_step), or right after (on_receipt: that delivery starts no run)'),
  run_id: choice(RUN_IDS, 'per_delivery', 'where the run id that intent keys derive from comes from: minted per delivery, or derived from the message id, so that every delivery shares the key'),
  extend_up_to: optionalDuration('the consumer extends its lease while its step runs, up to this long after receipt (Pub/Sub\'s client libraries, SQS visibility heartbeats): the deadline is the longer of this and ack_timeout'),
  dedupe: choice(DEDUPES, 'none', 'by_message: the consumer (or a runtime keying its runs by the message id) starts no run for a message that already started one, and acknowledges that delivery on receipt'),
});
