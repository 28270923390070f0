/**
 * reconcile's readings (src/reconcile/), from rows held in memory as any source gives them: the
 * window rule, each diagnosis, the gap bins, per day, the buckets over time, the most duplicated
 * keys hashed or shown, per tool, and memory held to the keys in an open window.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { poissonInterval } from '../src/reconcile/poisson.js';
import type { RawRows, RawValue } from '../src/reconcile/raw.js';
import { reconcileRows } from '../src/reconcile/reconcile.js';
import type { ReconcileOptions } from '../src/reconcile/readings.js';
import { Tally } from '../src/reconcile/tally.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const S = 1000, M = 60 * S, H = 60 * M;
const at = (ms: number): string => new Date(T0 + ms).toISOString();

/** Rows in memory, as a source gives them: business_key, at, idempotency_key, tool. */
export function memoryRows(rows: readonly (readonly RawValue[])[], columns: readonly string[] = ['business_key', 'at', 'idempotency_key', 'tool']): RawRows {
  return {
    where: 'the rows',
    columns: async () => columns,
    async *rows() { yield* rows; },
    close: async () => {},
  };
}

/** Effects of one tool as [key, ms after T0, idempotency key]. */
const effects = (list: readonly [string, number, string | null][], tool = 'refund'): RawValue[][] => list.map(([k, ms, idem]) => [k, at(ms), idem, tool]);

const read = (rows: RawValue[][], options: ReconcileOptions = {}) => reconcileRows(memoryRows(rows), options);

describe('the window', () => {
  it("counts an effect within --window of its key's first effect (inclusive) as a duplicate; one past it starts a new window", async () => {
    const r = await read(effects([['a', 0, 'k1'], ['b', 10 * M, 'x'], ['a', 30 * M, 'k2'], ['a', H, 'k3'], ['a', H + 1, 'k4'], ['a', H + 1 + 59 * M, 'k5']]));
    expect(r.overall).toMatchObject({ effects: 6, duplicates: 3, businessKeys: 3 });
    const short = await read(effects([['a', 0, 'k1'], ['a', 30 * M, 'k2'], ['a', H, 'k3']]), { windowMs: 10 * M });
    expect(short.overall).toMatchObject({ effects: 3, duplicates: 0, businessKeys: 3 });
  });

  it("holds only the keys whose window is open: a key's state goes once its window has passed", () => {
    const tally = new Tally({ windowMs: 10 * M, retentionMs: undefined, stepMs: H });
    const place = () => ({ origin: { source: 'x' }, words: 'row' });
    for (let i = 0; i < 10_000; i++) tally.add({ key: `k${i}`, at: T0 + i * M, idempotencyKey: null, tool: 't' }, place);
    expect(tally.tools.get('t')?.windows.size).toBeLessThanOrEqual(11);
  });

  it("reads each tool's keys apart: the same order line refunded and emailed is no duplicate", async () => {
    const r = await read([...effects([['a', 0, 'k'], ['a', M, 'k2']], 'refund'), ...effects([['a', 2 * M, 'k3']], 'email')].sort((x, y) => String(x[1]).localeCompare(String(y[1]))));
    expect(r.tools.map((t) => [t.name, t.effects, t.duplicates])).toEqual([['refund', 2, 1], ['email', 1, 0]]);
    expect(r.overall).toMatchObject({ name: null, effects: 3, duplicates: 1, businessKeys: 2 });
  });
});

describe('the diagnosis', () => {
  const rows = effects([
    ['same', 0, 'k1'], ['same', 5 * M, 'k1'], // within a 10m retention
    ['late', 0, 'k2'], ['late', 15 * M, 'k2'], // past it
    ['fresh', 0, 'k3'], ['fresh', M, 'k4'], // a new key
    ['none', 0, null], ['none', 2 * S, null], // no key on either
    ['half', 0, null], ['half', 2 * S, 'k5'], // on one only
  ]).sort((x, y) => String(x[1]).localeCompare(String(y[1])));

  it('tells same key within the retention, after it, different keys and no key, against the window\'s first effect', async () => {
    const r = await read(rows, { retentionMs: 10 * M });
    expect(r.overall.diagnosis).toEqual({ same_key_after_expiry: 1, same_key: 1, key_per_call_or_attempt: 1, no_key: 2 });
  });

  it('without --retention, counts the same key within it', async () => {
    const r = await read(rows);
    expect(r.retentionMs).toBeNull();
    expect(r.overall.diagnosis).toEqual({ same_key_after_expiry: 0, same_key: 2, key_per_call_or_attempt: 1, no_key: 2 });
  });

  it('a table whose duplicates all share one key and come after the retention: every one after expiry', async () => {
    const list: [string, number, string | null][] = [];
    for (let i = 0; i < 50; i++) list.push([`order-${i}`, i * H, `key-${i}`], [`order-${i}`, i * H + 25 * M, `key-${i}`]);
    const r = await read(effects(list), { retentionMs: 20 * M });
    expect(r.overall.duplicates).toBe(50);
    expect(r.overall.diagnosis).toEqual({ same_key_after_expiry: 50, same_key: 0, key_per_call_or_attempt: 0, no_key: 0 });
  });

  it('a table with a fresh key for every duplicate: every one a key per call or attempt', async () => {
    const list: [string, number, string | null][] = [];
    for (let i = 0; i < 50; i++) list.push([`order-${i}`, i * H, `call-${i}-0`], [`order-${i}`, i * H + 40 * S, `call-${i}-1`], [`order-${i}`, i * H + 3 * M, `call-${i}-2`]);
    const r = await read(effects(list), { retentionMs: 24 * H });
    expect(r.overall.duplicates).toBe(100);
    expect(r.overall.diagnosis).toEqual({ same_key_after_expiry: 0, same_key: 0, key_per_call_or_attempt: 100, no_key: 0 });
  });
});

describe('the gaps, per day and over time', () => {
  it('bins each gap from the first effect: < 30 s, 30 s to 2 min, 2 to 20 min, 20 min or more', async () => {
    const gaps = [0, 29_999, 30 * S, 119_999, 2 * M, 20 * M - 1, 20 * M, 59 * M];
    const list = gaps.map((g, i) => [[`k${i}`, i * 2 * H, 'a'], [`k${i}`, i * 2 * H + g, 'a']] as [string, number, string][]).flat();
    const r = await read(effects(list));
    expect(r.overall.gaps).toEqual([2, 2, 2, 2]);
  });

  it('per day over the span from the first effect to the last; none over no span', async () => {
    const r = await read(effects([['a', 0, 'x'], ['a', M, 'y'], ['b', 2 * H, 'z'], ['c', 12 * H, 'w']]));
    expect(r.overall.effectsPerDay).toBeCloseTo(8, 10);
    expect(r.overall.duplicatesPerDay).toBeCloseTo(2, 10);
    const one = await read(effects([['a', 0, 'x']]));
    expect([one.overall.effectsPerDay, one.overall.duplicatesPerDay]).toEqual([null, null]);
  });

  it('counts effects and duplicates in buckets of --step from the first, empty ones included, per tool and overall', async () => {
    const r = await read(effects([['a', 10 * M, 'x'], ['a', 50 * M, null], ['b', 2 * H + 5 * M, 'y'], ['b', 2 * H + 6 * M, 'z']]), { stepMs: H });
    expect(r.overall.series.map((b) => [new Date(b.startMs).toISOString(), b.effects, b.duplicates, b.diagnosis.no_key, b.diagnosis.key_per_call_or_attempt])).toEqual([
      ['2026-01-01T00:00:00.000Z', 2, 1, 1, 0], ['2026-01-01T01:00:00.000Z', 0, 0, 0, 0], ['2026-01-01T02:00:00.000Z', 2, 1, 0, 1],
    ]);
    expect(r.tools[0]?.series).toEqual(r.overall.series);
  });

  it('gives duplicates per 1000 effects with the exact Poisson interval of the count', async () => {
    const r = await read(effects([['a', 0, 'x'], ['a', S, 'x'], ['b', 2 * S, 'y'], ['c', 3 * S, 'z']]));
    const { low, high } = poissonInterval(1);
    expect(r.overall.per1000).toEqual({ value: 250, low: (1000 * low) / 4, high: (1000 * high) / 4 });
  });
});

describe('the most duplicated keys', () => {
  const rows = effects([['order-1', 0, null], ['order-2', S, null], ['order-1', 2 * S, null], ['order-1', 3 * S, null], ['order-2', 4 * S, null]]);
  const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

  it('lists them most first, as the first 12 hex of their SHA-256', async () => {
    const r = await read(rows);
    expect(r.keysShown).toBe(false);
    expect(r.overall.topKeys).toEqual([{ key: sha('order-1'), tool: 'refund', duplicates: 2 }, { key: sha('order-2'), tool: 'refund', duplicates: 1 }]);
    expect(JSON.stringify(r)).not.toContain('order-1');
  });

  it('as they are with showKeys', async () => {
    const r = await read(rows, { showKeys: true });
    expect(r.overall.topKeys.map((k) => k.key)).toEqual(['order-1', 'order-2']);
  });
});
