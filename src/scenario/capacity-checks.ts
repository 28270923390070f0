/**
 * The checks of docs/model.md's "Capacity" keys that JSON Schema cannot express, and the fixes
 * for the values it refuses there.
 */
import type { Optional } from '../model/params.js';
import { paramAt } from '../model/shape.js';
import type { WrittenScenario } from '../model/types.js';
import { formatPath } from './document.js';
import { InputError, type Origin } from './errors.js';
import { optionalForms } from './schema.js';
import { didYouMean } from './suggest.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;

/** Refuses what the capacity keys cannot mean: a window's workers without a capacity, a breaker that opens on no failure or counts no outcome. */
export function checkCapacity(s: WrittenScenario, locate: (p: Path) => Origin): void {
  const fail = (path: Path, problem: string, fix: string): never => {
    throw new InputError(locate(path), formatPath(path), problem, fix);
  };
  if (s.service.capacity === null) {
    const i = s.incidents.findIndex((w) => w.service.capacity.workers !== null);
    if (i >= 0) {
      fail(['incidents', i, 'service', 'capacity', 'workers'], 'sets how many handlers may run, but service.capacity is none: the service has unlimited capacity, so there is no worker count to change',
        'Give the service its workers (such as service: {capacity: {workers: 40}}), or remove it.');
    }
  }
  const breaker = s.client.breaker;
  if (breaker?.failure_rate === 0) {
    fail(['client', 'breaker', 'failure_rate'], 'is 0: the breaker would open on every window of min_calls outcomes, failed or not',
      'Give a share of failures above 0 and at most 1, such as 0.5.');
  }
  if (breaker?.window === 0) fail(['client', 'breaker', 'window'], 'is 0: the window would never hold an outcome', 'Give a window above 0, such as 10s.');
}

/** The fix for a value the schema refused at `path`, when a capacity key has a better one than "change the value". */
export function capacityFix(path: Path, value: unknown): string | undefined {
  const key = formatPath(path);
  const p = paramAt(key);
  if (p?.kind === 'optional' && typeof value === 'string') return presetFix(p, value);
  if (key === 'service.capacity.workers' && typeof value === 'number' && value < 1) {
    return 'A service needs at least 1 worker (at most 10^6); for a pause in which no handler starts, set workers: 0 in an incident window (incidents[].service.capacity.workers).';
  }
  if (key === 'service.capacity.queue' && typeof value === 'number') {
    return 'Give the waiting places as a whole number from 0 (no waiting room: a request that finds every worker busy is shed) to 10^9, or unbounded.';
  }
  return undefined;
}

function presetFix(p: Optional, value: string): string {
  const guess = didYouMean(value, ['none', ...Object.keys(p.presets)]);
  return `${guess ? `Did you mean \`${guess}\`? ` : ''}Write ${optionalForms(p)}.`;
}

/**
 * The mapping a `--set` of a key inside an optional section writes into, when the section is
 * written as `none` (or null) or as a preset's name: an empty mapping (the section's defaults
 * then fill the rest) or the preset's values. `--set service.capacity.workers=8` on a scenario
 * without a capacity thus gives one with 8 workers and the other keys' defaults.
 */
export function openedSection(path: Path, value: unknown): Raw | undefined {
  const p = paramAt(formatPath(path));
  if (p?.kind !== 'optional') return undefined;
  if (value === null || value === 'none') return {};
  if (typeof value === 'string' && Object.hasOwn(p.presets, value)) return { ...p.presets[value]?.values };
  return undefined;
}
