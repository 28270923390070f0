/**
 * The checks of docs/model.md's "Inbound delivery" keys (`trigger`) that JSON Schema cannot
 * express, and the fixes for the values it refuses there.
 */
import { MAX_REDELIVERIES, MAX_SCHEDULE_ENTRIES } from '../model/limits.js';
import type { WrittenScenario } from '../model/types.js';
import { formatPath } from './document.js';
import { InputError, type Origin } from './errors.js';
import { TRIGGER_PRESETS } from './presets.js';
import { didYouMean } from './suggest.js';

type Path = readonly (string | number)[];

/** How a trigger names a provider's deadline, for the fixes. */
const PRESETS_NAMED = `a provider's preset (trigger: {preset: slack}; one of ${Object.keys(TRIGGER_PRESETS).join(', ')}: docs/triggers.md)`;

/** Refuses what the trigger keys cannot mean: a sender that gives up on every delivery at once. */
export function checkTrigger(s: WrittenScenario, locate: (p: Path) => Origin): void {
  if (s.trigger?.ack_timeout === 0) {
    const path = ['trigger', 'ack_timeout'];
    throw new InputError(locate(path), formatPath(path), 'is 0: the sender would give up on every delivery the moment it made it',
      `Give the sender's deadline above 0, such as 3s (Slack's) or 30s (SQS's visibility timeout), or name ${PRESETS_NAMED}.`);
  }
}

/** The fix for a key the schema found missing at `path`, when the trigger has a better one than "add it". */
export function missingKeyFix(path: Path, key: string): string | undefined {
  if (formatPath(path) !== 'trigger' || key !== 'ack_timeout') return undefined;
  return `A trigger needs the sender's deadline: write ack_timeout, such as 3s (Slack's) or 30s (SQS's visibility timeout), or name ${PRESETS_NAMED}.`;
}

/**
 * What to do instead of sweeping trigger.schedule whole: a list is no sweep's value (--vary splits
 * at commas; a sweep: block's values are one each). docs/sweeps.md and docs/triggers.md say the same.
 */
export const SCHEDULE_SWEEP_FIX = 'Sweep one of its waits where the scenario writes the schedule (--vary \'trigger.schedule[1]=1m,10m\'), '
  + 'or trigger.ack_timeout or trigger.redeliveries; vary whole trigger mappings in a sweep: block '
  + '(vary: {trigger: [{preset: slack}, {preset: slack, schedule: [0s, 10m]}]}); or write one scenario per schedule and run them side by side (idem-sim run a.yaml b.yaml).';

/** The fix for a value the schema refused at `path`, when a trigger key has a better one than "change the value". */
export function triggerFix(path: Path, value: unknown): string | undefined {
  const key = formatPath(path);
  if (key === 'trigger' && typeof value === 'string') {
    const preset = Object.hasOwn(TRIGGER_PRESETS, value) ? value : didYouMean(value, Object.keys(TRIGGER_PRESETS));
    return preset === undefined ? undefined : `A provider's preset is named inside the mapping: write trigger: {preset: ${preset}} (keys written beside it win).`;
  }
  if (key === 'trigger.schedule' && Array.isArray(value)) {
    return value.length === 0
      ? 'Give at least one wait, such as [0s] (delivered again as soon as the deadline passes); for no redelivery at all, set trigger.redeliveries: 0.'
      : `Give at most ${MAX_SCHEDULE_ENTRIES} waits, each a duration with its unit: the last one repeats for every later redelivery, so equal waits at the end are one entry.`;
  }
  if (key === 'trigger.schedule') return 'Write the waits as a list of durations, such as [0s, 1m, 5m] (one entry: [30s]).';
  // A sweep: block's values for the schedule, each a list: a list is no sweep's value.
  if (/^sweep\.vary\.trigger\.schedule\[\d+\]$/.test(key) && Array.isArray(value)) return `trigger.schedule is a list, which a sweep cannot vary. ${SCHEDULE_SWEEP_FIX}`;
  if (key === 'trigger.redeliveries' && typeof value === 'number' && value > MAX_REDELIVERIES) {
    return `Give at most ${MAX_REDELIVERIES} redeliveries. A queue that redelivers until its retention ends makes retention / ack window deliveries: 11520 for SQS's 4 days at 30s.`;
  }
  return undefined;
}

/**
 * The fix for a trigger.kind the schema refused when it names a provider's preset (`kind: sqs`):
 * the kind is webhook or queue, and the provider's values come from `preset`.
 */
export function triggerKindFix(path: Path, value: unknown): string | undefined {
  if (formatPath(path) !== 'trigger.kind' || typeof value !== 'string') return undefined;
  const preset = Object.hasOwn(TRIGGER_PRESETS, value) ? value : didYouMean(value, Object.keys(TRIGGER_PRESETS));
  if (preset === undefined) return undefined;
  const kind = String((TRIGGER_PRESETS[preset]?.values as { trigger: { kind: string } }).trigger.kind);
  return `A provider is named by its preset: write trigger: {preset: ${preset}} instead of kind (it sets kind ${kind}, the deadline and the redeliveries ${preset} documents; keys written beside it win), or give kind one of: queue, webhook.`;
}
