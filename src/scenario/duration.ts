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

/** The fix for a bare duration: both readings (`2` -> "write 2s or 2ms"). */
export function bareDurationFix(value: number | string): string {
  const n = String(value).trim();
  return `A duration needs its unit (ms, s, m, h or d); only 0 may stand alone: write ${n}s or ${n}ms, whichever you mean.`;
}
