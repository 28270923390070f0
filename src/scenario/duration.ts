/** Milliseconds per unit accepted in scenario durations. */
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration written as `250ms`, `2s`, `1.5m`, `1h`, `7d`, or `0`: every other number needs its
 * unit (docs/model.md v2), since users write `timeout: 2` meaning seconds and got 2 ms.
 */
export const DURATION_PATTERN = '^\\s*([0-9]+(\\.[0-9]+)?\\s*(ms|s|m|h|d)|0+(\\.0+)?)\\s*$';
const DURATION_RE = new RegExp(DURATION_PATTERN);

/** Parses a validated duration (0, a number of ms from the engine's side, or a string matching DURATION_PATTERN) into ms. */
export function parseDuration(value: number | string): number {
  if (typeof value === 'number') return value;
  const m = DURATION_RE.exec(value);
  if (!m) throw new RangeError(`invalid duration "${value}"`);
  const unit = m[3] ?? 'ms'; // only 0 has none
  return Number.parseFloat(value) * (UNIT_MS[unit] ?? 1);
}

/** Formats ms for people: the largest unit that keeps the number short (`90000` -> `1.5m`). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return 'none';
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit] ?? 1;
    if (ms >= size && Number.isInteger((ms / size) * 100)) return `${+(ms / size).toFixed(2)}${unit}`;
  }
  return `${+ms.toFixed(3)}ms`;
}

/** A number written without its unit (`2`, `"2"`, `1.5`): anything but 0 is refused. */
export function isBareDuration(value: unknown): value is number | string {
  if (typeof value === 'number') return value !== 0 && Number.isFinite(value); // .nan and .inf are no duration with or without a unit
  return typeof value === 'string' && /^\s*[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?\s*$/.test(value) && Number(value) !== 0;
}

/** Units as people also write them, for a suggestion: a unit in another case is found in any case. */
const UNIT_WORDS: Readonly<Record<string, string>> = {
  msec: 'ms', msecs: 'ms', millisecond: 'ms', milliseconds: 'ms', sec: 's', secs: 's', second: 's', seconds: 's',
  min: 'm', mins: 'm', minute: 'm', minutes: 'm', hr: 'h', hrs: 'h', hour: 'h', hours: 'h', day: 'd', days: 'd',
};

/** A duration whose number is right and whose unit is spelt otherwise (`2S`, `24H`, `5 mins`), spelt right (`2s`, `24h`, `5m`). */
export function durationSpelling(text: string): string | undefined {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]{1,12})\s*$/.exec(text);
  if (!m) return undefined;
  const word = (m[2] as string).toLowerCase();
  const unit = Object.hasOwn(UNIT_MS, word) ? word : Object.hasOwn(UNIT_WORDS, word) ? UNIT_WORDS[word] : undefined;
  return unit === undefined || `${m[1]}${unit}` === text ? undefined : `${m[1]}${unit}`;
}

/** The fix for a value that is no duration when only its unit's spelling was wrong (its right spelling); else ''. */
export function durationSpellingHint(text: unknown): string {
  const right = typeof text === 'string' ? durationSpelling(text) : undefined;
  return right === undefined ? '' : `Did you mean \`${right}\`? A unit is one of ms, s, m, h and d, in lower case.`;
}

/**
 * The fix for a bare duration: both readings (`2` -> "write 2s or 2ms"); for a key whose default
 * is a minute or more (`long`: a retention, a resume delay), the long units (`24` -> "24h, 24m or 24s").
 */
export function bareDurationFix(value: number | string, long = false): string {
  const n = String(value).trim();
  return `A duration needs its unit (ms, s, m, h or d); only 0 may stand alone: write ${long ? `${n}h, ${n}m or ${n}s` : `${n}s or ${n}ms`}, whichever you mean.`;
}
