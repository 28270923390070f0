/**
 * reconcile's sources and columns: CSV and JSON lines read a line at a time (quoted fields, the
 * line limit), the times each takes, the columns found by their usual names or the options, and
 * every refusal naming the file, the line and the column with the fix, never a row's value.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapColumns } from '../src/reconcile/columns.js';
import { openEffectsFile } from '../src/reconcile/file-rows.js';
import { lines } from '../src/reconcile/lines.js';
import type { RawRows } from '../src/reconcile/raw.js';
import { reconcileRows } from '../src/reconcile/reconcile.js';
import type { ReconcileOptions } from '../src/reconcile/readings.js';
import { timeOf } from '../src/reconcile/time.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-reconcile-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function reconcileFile(path: string, options: ReconcileOptions = {}) {
  const rows = await openEffectsFile(path);
  try { return await reconcileRows(rows, options); } finally { await rows.close(); }
}

async function all(rows: RawRows): Promise<unknown[]> {
  const out: unknown[] = [await rows.columns()];
  for await (const r of rows.rows()) out.push(r);
  await rows.close();
  return out;
}

describe('CSV and JSON lines', () => {
  it('reads RFC 4180 CSV: quoted commas, quotes and line breaks, CRLF, a byte order mark, blank lines; an empty field is none', async () => {
    const path = file('q.csv', '\uFEFFbusiness_key,at,note\r\n"a,1",2026-01-01T00:00:00Z,"say ""hi""\r\nthere"\r\n\r\nb,2026-01-01T00:00:01Z,\r\n');
    expect(await all(await openEffectsFile(path))).toEqual([['business_key', 'at', 'note'], ['a,1', '2026-01-01T00:00:00Z', 'say "hi"\nthere'], ['b', '2026-01-01T00:00:01Z', null]]);
  });

  it('reads JSON lines: the first object names the columns, a later one lacking a key holds null there', async () => {
    const path = file('e.jsonl', '{"business_key":"a","at":1767225600,"idempotency_key":null}\n\n{"at":"2026-01-01T00:00:01Z","business_key":"b"}\n');
    expect(await all(await openEffectsFile(path))).toEqual([['business_key', 'at', 'idempotency_key'], ['a', 1767225600, null], ['b', '2026-01-01T00:00:01Z', null]]);
  });

  it('give the same readings for the same effects', async () => {
    const rows = [['o-1', '2026-01-01T00:00:00.000Z', 'k1'], ['o-2', '2026-01-01T00:00:10.000Z', null], ['o-1', '2026-01-01T00:00:40.000Z', 'k2'], ['o-2', '2026-01-01T00:03:00.000Z', null], ['o-1', '2026-01-01T00:30:00.000Z', 'k1']];
    const csv = file('same.csv', `business_key,at,idempotency_key\n${rows.map((r) => r.map((v) => v ?? '').join(',')).join('\n')}\n`);
    const jsonl = file('same.jsonl', `${rows.map(([business_key, at, idempotency_key]) => JSON.stringify({ business_key, at, idempotency_key })).join('\n')}\n`);
    const [a, b] = [await reconcileFile(csv, { retentionMs: 600_000 }), await reconcileFile(jsonl, { retentionMs: 600_000 })];
    expect(a.overall.duplicates).toBe(3);
    expect({ ...b, where: a.where }).toEqual(a);
  });

  it('stream a line at a time, refusing a line past the limit by its number', async () => {
    async function* chunks() { yield new TextEncoder().encode('short\nabcdefghijklmnop'); yield new TextEncoder().encode('qrst\nx\n'); }
    const got: string[] = [];
    await expect((async () => { for await (const l of lines(chunks(), 'f.csv', 10)) got.push(l.text); })()).rejects.toThrow(/^f\.csv:2: line 2 is longer than 10 characters/);
    expect(got).toEqual(['short']);
  });
});

describe('a malformed row', () => {
  const secret = 'jane.doe@example.com';
  const refused = async (name: string, text: string, pattern: RegExp) => {
    const error = await reconcileFile(file(name, text)).then(() => undefined, (e: Error) => e);
    expect(error?.name).toBe('InputError');
    expect(error?.message).toMatch(pattern);
    expect(error?.message).not.toContain(secret);
    expect(error?.message).not.toContain('nonsense');
  };

  it('is refused at its line and column with the fix, its value never shown', async () => {
    await refused('t.csv', `business_key,created_at\na,2026-01-01T00:00:00Z\n${secret},nonsense-${secret}\n`, /t\.csv:3: line 3, column created_at: no time that reads \(a value of 29 characters\)\. Write each time as ISO 8601 .* Or name another column with --time-column\.$/);
    await refused('k.csv', 'order_id,at\n,2026-01-01T00:00:00Z\n', /k\.csv:2: line 2, column order_id: no business key\. .*--key-column\.$/);
    // A key longer than MAX_KEY_CHARS (1,024): the readings hold keys whole (400 of 520,000 characters took 1.3 GB).
    await refused('long.csv', `order_id,at\n${secret.repeat(40)}${'k'.repeat(1024)},2026-01-01T00:00:00Z\n`, /long\.csv:2: line 2, column order_id: a business key of [0-9,]+ characters, longer than the 1,024 a key may have\. .*--key-column\.$/);
    await refused('idem.csv', `order_id,at,idempotency_key\na,2026-01-01T00:00:00Z,${secret}${'i'.repeat(1024)}\n`, /idem\.csv:2: line 2, column idempotency_key: an idempotency key of [0-9,]+ characters, longer than the 1,024 a key may have\. .*--idempotency-column\.$/);
    await refused('q.csv', `key,at\n"${secret}"x,2026-01-01T00:00:00Z\n`, /q\.csv:2: line 2, column key, has text after the quote that closes a field\. /);
    await refused('n.csv', `key,at\n${secret},2026-01-01T00:00:00Z,extra\n`, /n\.csv:2: line 2 has 3 fields where the header row names 2 columns\. /);
    await refused('j.jsonl', `{"key":"a","at":0}\n{"key":"${secret}", nonsense\n`, /j\.jsonl:2: line 2 is not valid JSON\. Write one JSON object a line/);
    await refused('o.jsonl', `{"key":"a","at":0}\n{"key":{"email":"${secret}"},"at":1}\n`, /o\.jsonl:2: line 2, column key holds an object, not text, a number or null\. /);
  });

  it('rows out of time order are refused at the first that goes back, and sorted in memory with sort', async () => {
    const path = file('order.csv', 'key,at\na,2026-01-01T00:10:00Z\nb,2026-01-01T00:11:00Z\na,2026-01-01T00:05:00Z\n');
    await expect(reconcileFile(path)).rejects.toThrow(/order\.csv:4: the rows are not in time order: line 4 is 6 min earlier than the row before it\. .*--sort/);
    const r = await reconcileFile(path, { sort: true });
    expect([r.sorted, r.overall.duplicates, r.overall.gaps]).toEqual([true, 1, [0, 0, 1, 0]]);
  });
});

describe('the columns', () => {
  it('are found by their usual names in any case, the options first', () => {
    const m = mapColumns(['ID', 'Order_Line_ID', 'Created_At', 'Idem_Key', 'Kind'], {}, 'f.csv');
    expect([m.business_key.name, m.at.name, m.idempotency_key?.name, m.tool?.name]).toEqual(['Order_Line_ID', 'Created_At', 'Idem_Key', 'Kind']);
    const o = mapColumns(['ID', 'Order_Line_ID', 'Created_At', 'Idem_Key', 'Kind'], { business_key: 'id', tool: 'order_line_id' }, 'f.csv');
    expect([o.business_key.name, o.at.name, o.idempotency_key?.name, o.tool?.name]).toEqual(['ID', 'Created_At', 'Idem_Key', 'Order_Line_ID']);
    const bare = mapColumns(['key', 'ts'], {}, 'f.csv');
    expect([bare.idempotency_key, bare.tool]).toEqual([null, null]);
  });

  it('a missing one is one sentence listing the columns found, with the option that names it', () => {
    expect(() => mapColumns(['id', 'amount', 'created_at'], {}, 'refunds.csv')).toThrow(
      'refunds.csv: has no business key column: none is named business_key, business_id, order_id, order_line_id, entity_id, resource_id, intent_id, customer_id, key, and its columns are id, amount, created_at. Name the column that holds each effect\'s business key with --key-column COLUMN.');
    expect(() => mapColumns(['id', 'at'], { idempotency_key: 'idem' }, 'f.csv')).toThrow("f.csv: has no column idem, which --idempotency-column names: its columns are id, at. Name one of its columns with --idempotency-column.");
    expect(() => mapColumns(['id', 'at'], { business_key: 'id', tool: 'ID' }, 'f.csv')).toThrow(/its column id is named by both --key-column and --tool-column/);
    // The column of a usual name another option took is named as that one's, not "none is named" beside it.
    expect(() => mapColumns(['business_key', 'at', 'tool'], { tool: 'business_key' }, 'f.csv')).toThrow(
      "f.csv: has no business key column: business_key is the tool column (--tool-column), and its columns are business_key, at, tool. Name the column that holds each effect's business key with --key-column COLUMN.");
  });
});

describe('times', () => {
  it('read ISO 8601, PostgreSQL text, a date, epoch seconds or milliseconds, and Date; refuse what does not read', () => {
    const ms = Date.parse('2026-01-01T00:00:01.250Z');
    for (const v of ['2026-01-01T00:00:01.250Z', '2026-01-01 00:00:01.25+00', '2026-01-01T02:00:01.25+02:00', '2025-12-31T19:00:01.250-0500', '2026-01-01 00:00:01.250', 1767225601.25, '1767225601250', new Date(ms)]) {
      expect(timeOf(v), String(v)).toBeCloseTo(ms, 6);
    }
    expect(timeOf('2026-01-01')).toBe(Date.parse('2026-01-01T00:00:00Z'));
    for (const v of ['2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', 'yesterday', '', -5, null, '1e12', new Date(Number.NaN)]) expect(timeOf(v), String(v)).toBeUndefined();
  });
});

describe('the file', () => {
  it('is a regular file, not a link, a directory or a view of the system', async () => {
    mkdirSync(join(dir, 'folder.csv'));
    symlinkSync(file('real.csv', 'key,at\n'), join(dir, 'link.csv'));
    await expect(openEffectsFile(join(dir, 'folder.csv'))).rejects.toThrow(/is a directory, not a file/);
    await expect(openEffectsFile(join(dir, 'link.csv'))).rejects.toThrow(/is a symbolic link, which is not followed\. Name the file it leads to\./);
    await expect(openEffectsFile('/proc/self/environ')).rejects.toThrow(/in \/proc, a view of the system/);
    await expect(openEffectsFile(join(dir, 'missing.csv'))).rejects.toThrow(/the effects file does not exist/);
    await expect(openEffectsFile(join(dir, 'x.csv.gz'))).rejects.toThrow(/is compressed\. Decompress it first/);
  });

  it('with a header and no rows reads as no effect', async () => {
    const r = await reconcileFile(file('empty.csv', 'business_key,at\n'));
    expect([r.rows, r.overall.effects, r.overall.per1000, r.overall.series]).toEqual([0, 0, null, []]);
    await expect(reconcileFile(file('nothing.csv', ''))).rejects.toThrow(/nothing\.csv: is empty: no header row/);
  });
});
