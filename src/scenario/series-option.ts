/** `--series STEP`, the step of a run's series, read as a command line gives it. */
import { MAX_DURATION_MS } from '../model/limits.js';
import { DURATION_PATTERN, durationSpellingHint, formatDuration, isBareDuration, bareDurationFix, parseDuration } from './duration.js';
import { InputError } from './errors.js';
import { clipped } from './printable.js';

/** `--series STEP`: a duration above 0 with its unit (undefined: no series asked for). */
export function seriesOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const source = { source: `--series ${text}` };
  if (isBareDuration(text)) throw new InputError(source, '', `"${clipped(text, 80)}" has no unit`, bareDurationFix(text));
  if (!new RegExp(DURATION_PATTERN).test(text)) throw new InputError(source, '', `"${clipped(text, 80)}" is not a duration`, durationSpellingHint(text) || 'Give the series\' bucket as a duration such as 1m, 10s or 5m (a number, then ms, s, m, h or d).');
  const step = parseDuration(text);
  if (step > MAX_DURATION_MS) throw new InputError(source, '', `is longer than the longest duration the model takes, ${formatDuration(MAX_DURATION_MS)} (10 years)`, 'Give the series\' bucket as a duration such as 1m, 10s or 5m.');
  if (!(step > 0)) throw new InputError(source, '', 'is 0: a series needs buckets of some length', 'Give the series\' bucket as a duration such as 1m, 10s or 5m.');
  return step;
}
