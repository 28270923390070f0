/**
 * Deep equality for large results (chunk outputs, a run's series): vitest's `toEqual` spends
 * about a microsecond on each value it compares, 6 s here on the two 87,000-bucket series (1.5
 * million counts) of a coupled run, and 5 of fast-path.test.ts's 7 s on its 300 pairs of chunks.
 */
import { expect } from 'vitest';

/** Deeper than any result here: a deeper pair (or a cycle) is left to toEqual. */
const MAX_DEPTH = 64;

/**
 * `expect(actual).toEqual(expected)`, with the same verdict: a pair found identical by a plain
 * walk passes at once (toEqual, handed one value twice, passes it by Object.is); any other is
 * compared by toEqual itself, which gives its diff where they differ. The walk is stricter than
 * toEqual, never looser: it takes numbers by Object.is, wants the same prototypes and the same own
 * keys (an undefined one included), and proves nothing of what it does not know (a Date, a
 * Set, symbol keys, an asymmetric matcher), which it leaves to toEqual.
 */
export function expectEqual<T>(actual: T, expected: T): void {
  expect(identical(actual, expected, 0) ? expected : actual).toEqual(expected);
}

function identical(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth > MAX_DEPTH || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) return sameItems(a, b as unknown[], depth);
  if (ArrayBuffer.isView(a)) return !(a instanceof DataView) && sameNumbers(a as unknown as ArrayLike<unknown>, b as unknown as ArrayLike<unknown>);
  if (a instanceof Map) return sameMap(a, b as Map<unknown, unknown>, depth);
  const tag = Object.prototype.toString.call(a);
  return tag === '[object Object]' && sameKeys(a, b, depth);
}

/** Arrays: the same length, identical items, and no own key but the indices (a hole or a named key is left to toEqual). */
function sameItems(a: unknown[], b: unknown[], depth: number): boolean {
  if (a.length !== b.length || Object.keys(a).length !== a.length || Object.keys(b).length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!identical(a[i], b[i], depth + 1)) return false;
  return true;
}

/** Typed arrays (of one type: their prototypes are the same): every element by Object.is, and no own key but the indices. */
function sameNumbers(a: ArrayLike<unknown>, b: ArrayLike<unknown>): boolean {
  if (a.length !== b.length || Object.keys(a).length !== a.length || Object.keys(b).length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function sameMap(a: Map<unknown, unknown>, b: Map<unknown, unknown>, depth: number): boolean {
  if (a.size !== b.size || Object.keys(a).length > 0 || Object.keys(b).length > 0) return false;
  for (const [key, value] of a) if (!b.has(key) || !identical(value, b.get(key), depth + 1)) return false;
  return true;
}

/** Plain objects and class instances: the same own enumerable string keys, none a symbol, each value identical. */
function sameKeys(a: object, b: object, depth: number): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length || Object.getOwnPropertySymbols(a).length > 0 || Object.getOwnPropertySymbols(b).length > 0) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key of keys) if (!Object.hasOwn(b, key) || !identical(x[key], y[key], depth + 1)) return false;
  return true;
}
