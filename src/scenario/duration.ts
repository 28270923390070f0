/** Milliseconds per unit accepted in scenario durations. */
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration written as `250ms`, `2s`, `1.5m`, `1h`, `7d`; a bare number means milliseconds. */
export const DURATION_PATTERN = '^\\s*[0-9]+(\\.[0-9]+)?\\s*(ms|s|m|h|d)?\\s*$';
const DURATION_RE = new RegExp(DURATION_PATTERN);

/** Parses a validated duration (number of ms or a string matching DURATION_PATTERN) into ms. */
export function parseDuration(value: number | string): number {
  if (typeof value === 'number') return value;
  const m = DURATION_RE.exec(value);
  if (!m) throw new RangeError(`invalid duration "${value}"`);
  const unit = m[2] ?? 'ms';
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
