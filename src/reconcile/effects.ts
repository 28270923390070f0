/**
 * A source's rows read as effects: each row's business key, time, idempotency key and tool
 * from the columns found (columns.ts). A row whose business key or time is missing or does not
 * read is refused at its line (or its row) and column, with the fix; its values are never shown,
 * only a value's length: business keys can be personal data. At most MAX_ROWS rows.
 */
import { InputError } from '../scenario/errors.js';
import { columnName } from './csv-rows.js';
import { COLUMN_OPTIONS, type ColumnMap, type Role } from './columns.js';
import { MAX_KEY_CHARS, MAX_ROWS } from './limits.js';
import { rowPlace } from './places.js';
import type { RawRows, RawValue } from './raw.js';
import { timeOf } from './time.js';

/** An effect as the readings take it. */
export interface Effect {
  readonly key: string;
  /** ms since the epoch. */
  readonly at: number;
  /** null: the request carried none. */
  readonly idempotencyKey: string | null;
  readonly tool: string;
}

/** The tool of every effect when the source has no tool column. */
export const ONE_TOOL = 'all';

/** A value as text: a number as JavaScript writes it, a Date in ISO 8601; null (or empty text) is none. */
function textOf(value: RawValue | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  const text = String(value);
  return text === '' ? null : text;
}

/** A value that does not read, as a message tells of it: its length, never its text. */
const sized = (value: RawValue): string => {
  if (value instanceof Date) return 'a date out of range';
  const n = String(value).length;
  return `a value of ${n} character${n === 1 ? '' : 's'}`;
};

/** The effects of `rows`, read through `map`, each with its 1-based row number. */
export async function* effectsOf(rows: RawRows, map: ColumnMap): AsyncGenerator<Effect> {
  let row = 0;
  for await (const values of rows.rows()) {
    if (++row > MAX_ROWS) {
      throw new InputError(rowPlace(rows, row).origin, '', `holds more than ${MAX_ROWS.toLocaleString('en-US')} rows, the most reconciled`, 'Reconcile it in parts: a day at a time, or a tool at a time.');
    }
    const refuse = (column: string, role: Role, problem: string, fix: string): never => {
      const place = rowPlace(rows, row);
      throw new InputError(place.origin, '', `${place.words}, column ${columnName(column)}: ${problem}`, `${fix} Or name another column with ${COLUMN_OPTIONS[role]}.`);
    };
    const key = textOf(values[map.business_key.index]);
    if (key === null) refuse(map.business_key.name, 'business_key', 'no business key', 'Give every effect the business identity of its action (the order line it refunds).');
    if ((key as string).length > MAX_KEY_CHARS) refuse(map.business_key.name, 'business_key', `a business key of ${(key as string).length.toLocaleString('en-US')} characters, longer than the ${MAX_KEY_CHARS.toLocaleString('en-US')} a key may have`, 'Give the business identity of each action (an order line\'s id), not a longer text.');
    const idempotencyKey = map.idempotency_key ? textOf(values[map.idempotency_key.index]) : null;
    if (map.idempotency_key && idempotencyKey !== null && idempotencyKey.length > MAX_KEY_CHARS) {
      refuse(map.idempotency_key.name, 'idempotency_key', `an idempotency key of ${idempotencyKey.length.toLocaleString('en-US')} characters, longer than the ${MAX_KEY_CHARS.toLocaleString('en-US')} a key may have`, 'Give the key the request carried (Stripe\'s are at most 255 characters).');
    }
    const raw = values[map.at.index];
    const at = raw === undefined ? undefined : timeOf(raw);
    if (at === undefined) {
      refuse(map.at.name, 'at', raw === null || raw === undefined ? 'no time' : `no time that reads (${sized(raw)})`,
        'Write each time as ISO 8601 (2026-01-01T00:00:01.250Z; none is UTC), or as epoch seconds or milliseconds, from 1970 to 9999.');
    }
    let tool = ONE_TOOL;
    if (map.tool) {
      const named = textOf(values[map.tool.index]);
      if (named === null) refuse(map.tool.name, 'tool', 'no tool', "Give every effect its tool's name, or leave the tool column out to read all of them as one tool.");
      tool = named as string;
    }
    yield { key: key as string, at: at as number, idempotencyKey, tool };
  }
}
