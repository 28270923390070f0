/**
 * Settings of docs/model.md's "Inbound delivery" (`trigger`) that have no effect under the
 * scenario's others, as warnings: each rule is the model's own reading of when a key is never
 * consulted. Only keys the file (or --set, or an agent's defaults:) wrote are warned of, and not
 * one written with its default value; a preset's values are the provider's, not the user's.
 */
import type { Trigger } from '../model/trigger.js';
import { MAX_REDELIVERIES } from '../model/limits.js';
import { TRIGGER } from '../model/trigger-keys.js';
import type { WrittenScenario } from '../model/types.js';
import { valueAt } from './document.js';
import { formatDuration, parseDuration } from './duration.js';
import { TRIGGER_PRESETS } from './presets.js';
import type { Origin } from './errors.js';
import type { ScenarioWarning } from './warnings.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;
type Locate = (p: Path, keyNode?: boolean) => Origin;
type Key = keyof Trigger;

export interface TriggerRule {
  /** Whether the rule holds for a scenario with a trigger. */
  when(t: Trigger, s: WrittenScenario): boolean;
  /** Why, after "has no effect: ". */
  because(t: Trigger, s: WrittenScenario): string;
  keys: readonly Key[];
  fix: string;
}

/** Under `on_receipt`, every delivery is acknowledged at its receipt, before its deadline: only a lost acknowledgement brings another. */
const acksInTime = (t: Trigger): boolean => t.ack === 'on_receipt' && t.ack_loss === 0;

/** The rules, in the order their reason is preferred; a key is warned of once, with the first rule that holds. */
export const TRIGGER_RULES: readonly TriggerRule[] = [
  {
    when: acksInTime,
    because: () => 'trigger.ack is on_receipt and trigger.ack_loss is 0, so every delivery is acknowledged as it is received and no action is delivered twice',
    keys: ['redeliveries', 'schedule', 'extend_up_to', 'run_id', 'dedupe'],
    fix: 'Remove it, or acknowledge after the step (trigger.ack: after_step) or give the acknowledgements a chance of loss (trigger.ack_loss) if it should count.',
  },
  {
    when: (t) => t.redeliveries === 0,
    because: () => 'trigger.redeliveries is 0, so no action is delivered a second time',
    keys: ['schedule', 'run_id', 'dedupe'],
    fix: 'Remove it, or allow redeliveries (trigger.redeliveries) if it should count.',
  },
  {
    when: (t) => t.dedupe === 'by_message',
    because: () => 'trigger.dedupe is by_message, so an action starts one run at most and no other delivery\'s run shares or misses its key',
    keys: ['run_id'],
    fix: 'Remove it, or set trigger.dedupe: none to see what the run id does without deduplication.',
  },
  {
    when: (_t, s) => s.idempotency.scope !== 'intent',
    because: (_t, s) => `idempotency.scope is ${s.idempotency.scope}, and only intent keys are derived from the run id`,
    keys: ['run_id'],
    fix: 'Remove it, or set idempotency.scope: intent to key each step by its run id.',
  },
  {
    when: (t) => t.extend_up_to !== null && t.extend_up_to <= t.ack_timeout,
    because: (t) => `it is not longer than trigger.ack_timeout (${formatDuration(t.ack_timeout)}), so every deadline stays ack_timeout after its delivery`,
    keys: ['extend_up_to'],
    fix: 'Give the lease extension\'s whole length from receipt, longer than ack_timeout (Pub/Sub\'s client libraries extend up to 60m), or remove it.',
  },
];

/** The default of a trigger key, as it resolves (undefined: none, the key must be written). */
const defaultOf = (key: Key): unknown => {
  const p = TRIGGER.params[key];
  return p.kind === 'optional_duration' ? null : p.default;
};

/** Warnings on the trigger keys the scenario's own text wrote (`document`: before presets). */
export function triggerWarnings(document: Raw, s: WrittenScenario, locate: Locate): ScenarioWarning[] {
  const t = s.trigger;
  if (t === null) return [];
  const written = (key: Key) => valueAt(document, ['trigger', key]) !== undefined && JSON.stringify(t[key]) !== JSON.stringify(defaultOf(key));
  const out: ScenarioWarning[] = [];
  const warn = (key: Key, problem: string, fix: string) => out.push({ origin: locate(['trigger', key], true), keyPath: `trigger.${key}`, problem, fix });
  for (const key of Object.keys(TRIGGER.params) as Key[]) {
    if (!written(key)) continue;
    const rule = TRIGGER_RULES.find((r) => r.keys.includes(key) && r.when(t, s));
    if (rule) warn(key, `has no effect: ${rule.because(t, s)}`, rule.fix);
    else if (key === 'schedule' && t.schedule.length > t.redeliveries) {
      warn(key, `holds ${t.schedule.length} waits, but trigger.redeliveries is ${t.redeliveries}, so the waits after the first ${t.redeliveries} are never used`,
        'Remove the waits past the last redelivery, or allow more redeliveries (trigger.redeliveries).');
    }
  }
  const stale = staleRedeliveries(document, t);
  if (stale) out.push({ origin: locate(['trigger', 'preset'], true), keyPath: 'trigger.preset', ...stale });
  return out;
}

/** The window a delivery has before the sender delivers again (docs/model.md: `max(ack_timeout, extend_up_to)`). */
const windowOf = (t: Pick<Trigger, 'ack_timeout' | 'extend_up_to'>): number => Math.max(t.ack_timeout, t.extend_up_to ?? 0);

/**
 * The redeliveries that keep a message delivered for `retention` (ms) from its first delivery:
 * the deliveries that start before it expires, the first not counted, at most MAX_REDELIVERIES.
 * Under `schedule: [0s]` it is `ceil(retention / window) - 1`.
 */
export function redeliveriesWithin(retention: number, t: Pick<Trigger, 'ack_timeout' | 'extend_up_to' | 'schedule'>): number {
  const window = windowOf(t);
  let at = 0;
  let deliveries = 0;
  while (at < retention && deliveries <= MAX_REDELIVERIES) {
    at += window + (t.schedule[Math.min(deliveries, t.schedule.length - 1)] ?? 0);
    deliveries++;
  }
  return Math.min(Math.max(0, deliveries - 1), MAX_REDELIVERIES);
}

/**
 * A preset whose redeliveries stand for a retention (`retention` in TRIGGER_PRESETS: sqs, pubsub)
 * keeps its count when ack_timeout or extend_up_to is written beside it, though the count was
 * worked out for the preset's own window: the problem, and the count that keeps the retention.
 */
function staleRedeliveries(document: Raw, t: Trigger): { problem: string; fix: string } | undefined {
  const name = valueAt(document, ['trigger', 'preset']);
  const preset = typeof name === 'string' && Object.hasOwn(TRIGGER_PRESETS, name) ? TRIGGER_PRESETS[name] : undefined;
  if (preset?.retention === undefined || valueAt(document, ['trigger', 'redeliveries']) !== undefined) return undefined;
  const written = (['ack_timeout', 'extend_up_to'] as const).filter((k) => valueAt(document, ['trigger', k]) !== undefined);
  const retention = parseDuration(preset.retention);
  const keeps = redeliveriesWithin(retention, t);
  if (written.length === 0 || keeps === t.redeliveries) return undefined;
  const own = (preset.values as { trigger: Record<string, string | null> }).trigger;
  const ownWindow = formatDuration(windowOf({ ack_timeout: parseDuration(own['ack_timeout'] as string), extend_up_to: own['extend_up_to'] ? parseDuration(own['extend_up_to']) : null }));
  const keys = written.map((k) => `trigger.${k} (${t[k] === null ? 'none' : formatDuration(t[k])})`).join(' and ');
  return {
    problem: `keeps trigger.redeliveries: ${t.redeliveries}, which stands for ${preset.retention} of retention in the preset's own windows of ${ownWindow}, but ${keys} written beside it make${written.length === 1 ? 's' : ''} each window ${formatDuration(windowOf(t))}, so the count no longer stands for that retention`,
    fix: `Write trigger.redeliveries: ${keeps} beside the preset (the deliveries that start within ${preset.retention} of retention in windows of ${formatDuration(windowOf(t))}, less the first${keeps === MAX_REDELIVERIES ? `, held to the limit of ${MAX_REDELIVERIES}` : ''}), or the count for your own queue's retention.`,
  };
}
