/**
 * Effects from JSON lines: one object a line, its values text, numbers or null. The first
 * object's keys name the columns; a later object lacking one holds null there, and keys it has
 * beyond them are not read. Blank lines are skipped. A malformed line is refused at its number
 * (and the column, where one is at fault), never shown: business keys can be personal data.
 */
import { InputError } from '../scenario/errors.js';
import type { Line } from './lines.js';
import type { RawRows, RawValue } from './raw.js';
import type { RowLines } from './places.js';
import { columnName } from './csv-rows.js';

const FIX = 'Write one JSON object a line, such as {"business_key": "order-1", "at": "2026-01-01T00:00:01.250Z", "idempotency_key": null, "tool": "refund"}.';

const kindOf = (v: unknown): string => (Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v === 'object' ? 'an object' : typeof v === 'boolean' ? 'true or false' : 'a value');

function objectAt(text: string, where: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message quotes the text: not shown.
    throw new InputError({ source: where, line }, '', `line ${line} is not valid JSON`, FIX);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError({ source: where, line }, '', `line ${line} holds ${kindOf(value)}, not a JSON object`, FIX);
  }
  return value as Record<string, unknown>;
}

/** The rows of a JSON-lines text given a line at a time. */
export function jsonlRows(input: AsyncIterable<Line>, where: string): RawRows & RowLines {
  const it = input[Symbol.asyncIterator]();
  let names: string[] | undefined;
  let held: Record<string, unknown> | undefined;
  let last = 0;
  const next = async (): Promise<Record<string, unknown> | undefined> => {
    for (;;) {
      const got = await it.next();
      if (got.done) return undefined;
      if (got.value.text.trim() === '') continue;
      last = got.value.line;
      return objectAt(got.value.text, where, last);
    }
  };
  const columns = async (): Promise<string[]> => {
    if (names) return names;
    held = await next();
    if (!held) throw new InputError({ source: where }, '', 'is empty: no JSON object', FIX);
    names = Object.keys(held);
    return names;
  };
  const values = (o: Record<string, unknown>, cols: readonly string[]): RawValue[] => cols.map((name) => {
    const v = Object.hasOwn(o, name) ? o[name] : null;
    if (v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
    throw new InputError({ source: where, line: last }, '', `line ${last}, column ${columnName(name)} holds ${kindOf(v)}, not text, a number or null`, FIX);
  });
  return {
    where,
    columns,
    lineOfLast: () => last,
    async *rows(): AsyncGenerator<readonly RawValue[]> {
      const cols = await columns();
      if (held) {
        const first = held; // the line columns() read: `last` is still its
        held = undefined;
        yield values(first, cols);
      }
      for (let o = await next(); o; o = await next()) yield values(o, cols);
    },
    close: async () => { await it.return?.(); },
  };
}
