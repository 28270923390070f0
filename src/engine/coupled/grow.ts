/** The coupled engine's arrays grow by doubling, keeping their contents: one home for that. */

type Typed = Float64Array | Int32Array | Int8Array | Uint8Array;

/** A copy of `a` with room for `n` values (its first min(length, n) kept). */
export function grown<T extends Typed>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a.subarray(0, Math.min(a.length, n)) as ArrayLike<number>);
  return b;
}

/** A ring's `size` values from `head` on, in order from 0, in an array twice its length (the ring grown; its head is then 0). */
export function unrolled<T extends Typed>(ring: T, head: number, size: number): T {
  const b = new (ring.constructor as new (n: number) => T)(ring.length * 2);
  const mask = ring.length - 1;
  for (let k = 0; k < size; k++) b[k] = ring[(head + k) & mask] as number;
  return b;
}
