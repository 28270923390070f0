/** expectEqual (test/equal.ts) gives toEqual's verdict on every kind of pair, the quick walk's and the others. */
import { describe, expect, it } from 'vitest';
import { expectEqual } from './equal.js';

/** toEqual's verdict and expectEqual's on one pair. */
function verdicts(actual: unknown, expected: unknown): [boolean, boolean] {
  const passes = (check: () => void) => { try { check(); return true; } catch { return false; } };
  return [passes(() => expect(actual).toEqual(expected)), passes(() => expectEqual(actual, expected))];
}

const result = () => ({
  index: 3, sum: Float64Array.from([1, 2.5, -0]), rows: Int32Array.from([0, 7, 9]), cells: [[1, 2], [3]],
  series: { step: 68, names: ['a', 'b'] }, byKey: new Map([['k', { n: 1 }]]), capacity: null,
});

describe('expectEqual', () => {
  it('passes a result equal to another made the same way, as toEqual does', () => {
    expect(verdicts(result(), result())).toEqual([true, true]);
  });

  it('fails where toEqual fails: a number, a sign of zero, a length, a key, a Map entry, a type', () => {
    const changes: ((r: ReturnType<typeof result>) => void)[] = [
      (r) => { r.rows[1] = 8; }, (r) => { r.sum[2] = 0; }, (r) => { r.cells[1]?.push(4); },
      (r) => { Object.assign(r.series, { extra: 1 }); }, (r) => { r.byKey.set('k', { n: 2 }); },
      (r) => { Object.assign(r, { sum: Array.from(r.sum) }); }, (r) => { Object.assign(r.cells, { label: 'x' }); },
    ];
    for (const change of changes) {
      const changed = result();
      change(changed);
      expect(verdicts(changed, result())).toEqual([false, false]);
    }
  });

  it('leaves to toEqual what the quick walk does not prove, and agrees with it there', () => {
    expect(verdicts({ a: 1, b: undefined }, { a: 1 })).toEqual([true, true]);
    expect(verdicts([1, , 3], [1, undefined, 3])).toEqual([true, true]);
    expect(verdicts({ when: new Date(5) }, { when: new Date(5) })).toEqual([true, true]);
    expect(verdicts({ when: new Date(5) }, { when: new Date(6) })).toEqual([false, false]);
    expect(verdicts(new Set([{ a: 1 }]), new Set([{ a: 1 }]))).toEqual([true, true]);
    expect(verdicts({ n: 2 }, { n: expect.any(Number) })).toEqual([true, true]);
  });
});
