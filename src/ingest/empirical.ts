/** An empirical latency file (`dist: empirical`, `file:`): one latency in ms per line, read as untrusted input. Pure. */
import { MAX_DURATION_MS } from '../model/limits.js';
import { InputError } from '../scenario/errors.js';

/** The most observations an empirical latency file may hold: a million, of about 16 characters a line. */
export const MAX_EMPIRICAL_VALUES = 1_000_000;

/** A latency as a data file may write it: decimal, with an exponent if need be. */
const DECIMAL = /^[+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/;

/**
 * One latency in ms per line; blank lines and `#` comments are skipped. An error gives the
 * line's number and length, never its text: a data file named by a hostile scenario may hold
 * secrets, and errors go into CI logs.
 */
export function parseLatencies(text: string, source: string, keyPath: string): number[] {
  const values: number[] = [];
  let line = 0;
  for (let at = 0; at <= text.length; line++) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const raw = text.slice(at, end);
    at = end + 1;
    const t = raw.replace(/#.*/, '').trim();
    if (t === '') continue;
    // Decimal only: Number() would also read 0x1F, 0b11 and 0o7 as milliseconds.
    const v = DECIMAL.test(t) ? Number(t) : NaN;
    if (!Number.isFinite(v) || v < 0 || v > MAX_DURATION_MS) {
      throw new InputError({ source, line: line + 1, col: 1 }, keyPath, `line ${line + 1} (${raw.replace(/\r$/, '').length} characters) is not a latency in ms`,
        `Write one number from 0 to ${MAX_DURATION_MS} (10 years) per line, in milliseconds, nothing else; a # starts a comment.`);
    }
    if (values.length === MAX_EMPIRICAL_VALUES) {
      throw new InputError({ source, line: line + 1, col: 1 }, keyPath, `the empirical latency file holds more than ${MAX_EMPIRICAL_VALUES.toLocaleString('en-US')} values, the limit`,
        'Sample the observations down to at most a million; the distribution needs far fewer.');
    }
    values.push(v);
  }
  if (values.length === 0) {
    throw new InputError({ source }, keyPath, 'the empirical latency file holds no values', 'Put at least one latency in ms per line.');
  }
  return values;
}
