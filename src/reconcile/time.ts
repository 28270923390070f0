/**
 * An effect's time as a source gives it, in ms since the epoch: ISO 8601 (`2026-01-01T00:00:01.250Z`,
 * a space for the T as PostgreSQL writes it, an offset `+02`, `+0200` or `+02:00`; none is UTC), a
 * date alone (its midnight, UTC), epoch seconds or milliseconds (a number over 10^11 is ms: 10^11 s
 * is the year 5138, 10^11 ms 1973), or a database's Date. Years 1970 to 9999.
 */
import type { RawValue } from './raw.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const NUMBER = /^\d+(\.\d+)?$/;
/** 10000-01-01T00:00:00Z. */
const LAST_MS = 253_402_300_800_000;
/** Past this an epoch number is milliseconds. */
const MS_FROM = 1e11;

const inRange = (ms: number): number | undefined => (Number.isFinite(ms) && ms >= 0 && ms < LAST_MS ? ms : undefined);

function epoch(n: number): number | undefined {
  return Number.isFinite(n) && n >= 0 ? inRange(n > MS_FROM ? n : n * 1000) : undefined;
}

function isoTime(text: string): number | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const midnight = Date.UTC(year, month - 1, day);
  const check = new Date(midnight);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined; // 31 February
  const fraction = m[7] === undefined ? 0 : Number(`0.${m[7]}`) * 1000;
  let offset = 0;
  if (m[9] !== undefined) {
    const [h, min] = [Number(m[10]), Number(m[11] ?? 0)];
    if (h > 23 || min > 59) return undefined;
    offset = (m[9] === '-' ? -1 : 1) * (h * 60 + min) * 60_000;
  }
  return inRange(midnight + ((hour * 60 + minute) * 60 + second) * 1000 + fraction - offset);
}

/** The time `value` holds, in ms since the epoch; undefined when it holds none that reads. */
export function timeOf(value: RawValue): number | undefined {
  if (value === null) return undefined;
  if (value instanceof Date) return inRange(value.getTime());
  if (typeof value === 'number') return epoch(value);
  const text = value.trim();
  return NUMBER.test(text) ? epoch(Number(text)) : isoTime(text);
}
