/** The least double above x (Infinity and NaN as they are): the smallest value a cut's `above` may give. */
const word = new Float64Array(1);
const bits = new BigInt64Array(word.buffer);

export function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  word[0] = x;
  // A double's bits, read as an integer, are in its order for x > 0 and in reverse for x < 0.
  bits[0] = (bits[0] as bigint) + (x > 0 ? 1n : -1n);
  return word[0] as number;
}

/** The greatest double below x (-Infinity and NaN as they are). */
export function nextDown(x: number): number {
  return -nextUp(-x);
}
