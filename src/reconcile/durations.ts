/**
 * The durations `reconcile` is given (--window, --retention, --step), as everywhere: with their
 * unit (250ms, 2s, 5m, 1h, 7d), at most 3650d; a bare number is refused with both readings of it.
 */
import { MAX_DURATION_MS } from '../model/limits.js';
import { DURATION_PATTERN, durationSpellingHint, parseDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { clipped } from '../scenario/printable.js';

const DURATION = new RegExp(DURATION_PATTERN);

/** `flag TEXT` in ms; 0 only where `zero` (a retention of none: every key expires at once). */
export function durationOption(flag: '--window' | '--retention' | '--step', text: string, zero = false): number {
  const refuse = (problem: string, fix: string): never => {
    throw new InputError({ source: `${flag} ${clipped(text, 80)}` }, '', problem, fix);
  };
  const n = text.trim();
  if (/^[0-9]*\.?[0-9]+$/.test(n) && Number(n) !== 0) {
    refuse('the duration has no unit', `Write the unit: ${n}h for hours, ${n}m for minutes, ${n}s for seconds (or ${n}ms if you mean milliseconds).`);
  }
  if (!DURATION.test(text)) refuse(`"${clipped(text, 80)}" is not a duration`, durationSpellingHint(text) || 'Write it as 30s, 10m, 1h or 1d.');
  const ms = parseDuration(text);
  if (ms === 0 && !zero) refuse('must be longer than 0', 'Write it as 30s, 10m, 1h or 1d.');
  if (ms > MAX_DURATION_MS) refuse('is over the limit of 3650d (10 years)', 'Give at most 3650d.');
  return ms;
}

/** A duration in words for a message, to three significant digits in its largest unit: `1.82 h`, `250 ms`. */
export function spokenDuration(ms: number): string {
  const units: readonly [number, string][] = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'min'], [1000, 's']];
  for (const [size, unit] of units) if (ms >= size) return `${Number((ms / size).toPrecision(3))} ${unit}`;
  return `${Number(ms.toPrecision(3))} ms`;
}
