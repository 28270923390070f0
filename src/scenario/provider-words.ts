/**
 * The words senders and their client libraries use for what `trigger` models (docs/triggers.md):
 * a user who knows SQS writes `visibility_timeout`, one who knows Pub/Sub `ack_deadline_seconds`,
 * and an unknown key named so is pointed at the trigger key that models it rather than at a key it
 * merely resembles. No word here is the last key of a key path of the model or the schema
 * (test/provider-words.test.ts): a key of the model written in the wrong place is suggest-home.ts's.
 */
import { TRIGGER_PRESETS } from './presets.js';
import { keysBelow } from './unmodelled.js';

/** Where the trigger's keys and each provider's words are explained. */
export const TRIGGER_DOC = 'docs/triggers.md';

export interface ProviderWord {
  /** Key names that mean it, matched in any case with `_` and `-` ignored. */
  readonly keys: readonly string[];
  /** The key path of the model that holds it. */
  readonly path: string;
  /** What the word is, whose it is and how it becomes the key's value, in a few words. */
  readonly note: string;
}

export const PROVIDER_WORDS: readonly ProviderWord[] = [
  {
    keys: ['consumer', 'consumers', 'webhook', 'webhooks', 'message', 'messages', 'event', 'events', 'delivery', 'redelivery', 'inbound', 'at_least_once'],
    path: 'trigger',
    note: 'the delivery that starts each step, which its sender makes again when no acknowledgement reaches it in time',
  },
  {
    keys: ['visibility_timeout', 'visibility', 'visibility_timeout_seconds'],
    path: 'trigger.ack_timeout',
    note: 'SQS\'s visibility timeout',
  },
  {
    keys: ['ack_deadline', 'ack_deadline_seconds', 'ack_deadline_secs', 'ack_timeout_seconds'],
    path: 'trigger.ack_timeout',
    note: 'Pub/Sub\'s ack deadline',
  },
  {
    keys: ['response_timeout', 'webhook_timeout', 'delivery_timeout'],
    path: 'trigger.ack_timeout',
    note: 'a webhook sender\'s response timeout',
  },
  {
    keys: ['max_receive_count', 'receive_count'],
    path: 'trigger.redeliveries',
    note: 'SQS\'s maxReceiveCount less 1',
  },
  {
    keys: ['max_delivery_attempts', 'delivery_attempts', 'max_deliveries'],
    path: 'trigger.redeliveries',
    note: 'the delivery attempts less 1 (Pub/Sub\'s max_delivery_attempts)',
  },
  {
    keys: ['dead_letter', 'dead_letter_queue', 'dead_letter_topic', 'dead_letter_policy', 'dlq', 'redrive_policy'],
    path: 'trigger.redeliveries',
    note: 'the deliveries after the first before the sender gives up; dead_lettered_per_1000 reads the actions it gave up on',
  },
  {
    keys: ['max_extension', 'max_extension_minutes', 'max_lease_duration', 'max_ack_extension_period', 'lease_extension', 'heartbeat', 'visibility_heartbeat'],
    path: 'trigger.extend_up_to',
    note: 'how long after receipt the consumer keeps extending its lease (Pub/Sub\'s client libraries, SQS heartbeats)',
  },
  {
    keys: ['message_id', 'event_id', 'delivery_id', 'dedupe_by_message', 'idempotency_by_message', 'message_dedupe', 'message_deduplication'],
    path: 'trigger.dedupe',
    note: '`by_message`: no second run for a message id; or `trigger.run_id: from_message`, intent keys derived from it',
  },
];

const folded = (key: string): string => key.toLowerCase().replace(/[_-]/g, '');

/** A sender's name (`sqs:`, `slack:`) is its preset's. */
const presetWords = (): ProviderWord[] => Object.keys(TRIGGER_PRESETS).map((name) => ({
  keys: [name], path: 'trigger.preset', note: `\`trigger: {preset: ${name}}\`, the sender's documented values`,
}));

let byKey: Map<string, ProviderWord> | undefined;

/** What a key names (in any case, `_` and `-` ignored) in a provider's words, if anything. */
export function providerWord(key: string): ProviderWord | undefined {
  byKey ??= new Map([...PROVIDER_WORDS, ...presetWords()].flatMap((w) => w.keys.map((k) => [folded(k), w] as const)));
  return byKey.get(folded(key));
}

/**
 * The start of the fix for an unknown key `key` under `parent` (a key path, '' at the top level)
 * that is, or holds below it in `value`, a provider's word for what `trigger` models: each word
 * (at most three) and its key path, then the page; '' when none is (or only `trigger` itself,
 * written inside it).
 */
export function providerWordsHint(key: string, parent: string, value?: unknown): string {
  const seen = new Set<ProviderWord>();
  const found: string[] = [];
  for (const k of [key, ...keysBelow(value)]) {
    const w = providerWord(k);
    if (w === undefined || seen.has(w) || (w.path === 'trigger' && (parent === 'trigger' || parent.startsWith('trigger.')))) continue;
    seen.add(w);
    found.push(`\`${k}\` is modelled by \`${w.path}\` (${w.note})`);
    if (found.length === 3) break;
  }
  return found.length === 0 ? '' : `${found.join('; ')}: see ${TRIGGER_DOC}. `;
}
