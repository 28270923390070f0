/** The coupled engine's arrays grow by doubling, keeping their contents: one home for that. */

type Typed = Float64Array | Int32Array | Int8Array | Uint8Array;

/** A copy of `a` with room for `n` values (its first min(length, n) kept). */
export function grown<T extends Typed>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a.subarray(0, Math.min(a.length, n)) as ArrayLike<number>);
  return b;
}
