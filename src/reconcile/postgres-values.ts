/**
 * PostgreSQL's text of a value as a RawValue (src/reconcile/postgres.ts): times as Date (a
 * timestamp without time zone read as UTC, a date as its UTC midnight; infinity stays its
 * text), integers and floats as numbers (a bigint or numeric whole number past 2^53 as its
 * text, which a number would change), every other type as PostgreSQL's text (a boolean is t or
 * f, a uuid, json or interval as written). The session's DateStyle is ISO: a time's common shape
 * (`2026-01-01 00:00:01.25+00`) is read by hand, ten million of them being most of a large
 * query's reading; any other (a BC date, a five-digit year, a year before 1000) by node-pg's own.
 */
import pg from 'pg';
import type { RawValue } from './raw.js';

const byPg = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => unknown;

/** `text` as node-pg reads a time with its zone, or the text itself where that is no time (infinity). */
const dateOr = (text: string, withZone: string): RawValue => {
  const d = byPg(withZone);
  return d instanceof Date && Number.isFinite(d.getTime()) ? d : text;
};
/** A time written without a zone, read as UTC (before a BC era's mark). */
const utc = (text: string): string => (text.endsWith(' BC') ? `${text.slice(0, -3)}+00 BC` : `${text}+00`);

/** `n` decimal digits of `t` from `at`; NaN where one is not a digit. */
function digits(t: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = t.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return NaN;
    v = v * 10 + d;
  }
  return v;
}

/**
 * ms since the epoch of `YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM[:SS]]]` (no zone: UTC), as node-pg
 * reads it (a fraction of a ms dropped); NaN for any other shape.
 */
export function isoMs(t: string): number {
  if (t.length < 19 || t.charCodeAt(4) !== 45 || t.charCodeAt(7) !== 45 || t.charCodeAt(10) !== 32 || t.charCodeAt(13) !== 58 || t.charCodeAt(16) !== 58) return NaN;
  const year = digits(t, 0, 4);
  if (!(year >= 1000)) return NaN; // Date.UTC reads 0 to 99 as 1900 to 1999
  let fraction = 0;
  let i = 19;
  if (t.charCodeAt(i) === 46) {
    let scale = 100;
    for (i++; i < t.length && t.charCodeAt(i) >= 48 && t.charCodeAt(i) <= 57; i++, scale /= 10) fraction += (t.charCodeAt(i) - 48) * scale;
  }
  const ms = Date.UTC(year, digits(t, 5, 2) - 1, digits(t, 8, 2), digits(t, 11, 2), digits(t, 14, 2), digits(t, 17, 2), Math.trunc(fraction));
  if (i === t.length) return ms;
  const sign = t.charCodeAt(i) === 43 ? 1 : t.charCodeAt(i) === 45 ? -1 : 0;
  const rest = t.length - i;
  if (sign === 0 || (rest !== 3 && rest !== 6 && rest !== 9)) return NaN;
  const offset = digits(t, i + 1, 2) * 3600 + (rest > 3 ? digits(t, i + 4, 2) * 60 : 0) + (rest > 6 ? digits(t, i + 7, 2) : 0);
  if (rest > 3 && t.charCodeAt(i + 3) !== 58) return NaN;
  return ms - sign * offset * 1000;
}

const time = (t: string): RawValue => {
  const ms = isoMs(t);
  return Number.isNaN(ms) ? dateOr(t, t) : new Date(ms);
};
const timeWithoutZone = (t: string): RawValue => {
  const ms = isoMs(t);
  return Number.isNaN(ms) ? dateOr(t, utc(t)) : new Date(ms);
};
const date = (t: string): RawValue => timeWithoutZone(t.endsWith(' BC') ? `${t.slice(0, -3)} 00:00:00 BC` : `${t} 00:00:00`);

const finite = (text: string): RawValue => {
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
};
/** A bigint or numeric: a number, unless it is a whole number past 2^53. */
const wide = (text: string): RawValue => {
  const n = Number(text);
  return Number.isFinite(n) && (Number.isSafeInteger(n) || !/^-?\d+$/.test(text)) ? n : text;
};
const B = pg.types.builtins;
const PARSERS: ReadonlyMap<number, (text: string) => RawValue> = new Map([
  [B.TIMESTAMPTZ, time], [B.TIMESTAMP, timeWithoutZone], [B.DATE, date],
  [B.INT2, Number], [B.INT4, Number], [B.OID, Number],
  [B.FLOAT4, finite], [B.FLOAT8, finite], [B.INT8, wide], [B.NUMERIC, wide],
]);
const asText = (text: string): RawValue => text;

/** The client's type parsers (node-pg's `types`): every type not listed above stays text. */
export const VALUE_TYPES = {
  getTypeParser: (oid: number, format?: string) => (format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : PARSERS.get(oid) ?? asText),
} as pg.CustomTypesConfig;
