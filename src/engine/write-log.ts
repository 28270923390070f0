/**
 * A group's key store as a log of writes (docs/model.md, "The key store"): each write puts a
 * record under a key at a time; a lookup at time r finds the latest write at or before r.
 * Keys are small integers local to one group (the engine's `keyOf`), so the log is cleared per
 * group and stays a few entries long: a linear scan beats any index. Typed arrays, grown by
 * doubling, nothing allocated per write.
 */

/** Kinds of write. */
export const CLAIM = 1, DONE_OK = 2, DONE_ERR = 3, RELEASE = 4;
/** What a lookup finds besides DONE_OK and DONE_ERR: no live record, or a claim (CLAIM). */
export const NONE = 0, RUNNING = CLAIM;

export class WriteLog {
  private key: Int32Array;
  private time: Float64Array;
  private type: Int8Array;
  private fp: Int32Array;
  private until: Float64Array;
  private len = 0;
  /** The fingerprint of the record the last lookup found (when it found one). */
  foundFp = 0;

  /** `size`: room for this many writes before it grows (the coupled engine keeps one log per group in flight). */
  constructor(size = 64) {
    this.key = new Int32Array(size); this.time = new Float64Array(size); this.type = new Int8Array(size);
    this.fp = new Int32Array(size); this.until = new Float64Array(size);
  }

  /** Forgets every write (a new group). */
  clear(): void {
    this.len = 0;
  }

  /** The live record for `key` at time `r` (ms): NONE, RUNNING, DONE_OK or DONE_ERR (sets foundFp). */
  lookup(key: number, r: number): number {
    let best = -1;
    let bestTime = -Infinity;
    for (let w = 0; w < this.len; w++) {
      const t = this.time[w] as number;
      if (this.key[w] === key && t <= r && t >= bestTime) { best = w; bestTime = t; }
    }
    if (best < 0) return NONE;
    const type = this.type[best] as number;
    if (type === RELEASE || r >= (this.until[best] as number)) return NONE;
    this.foundFp = this.fp[best] as number;
    return type; // CLAIM is RUNNING
  }

  /** A write of `type` under `key` at `at`, live until `until` (ms); a negative key (fresh, never looked up) is not kept. */
  write(key: number, at: number, type: number, fp: number, until: number): void {
    if (key < 0) return;
    if (this.len === this.key.length) this.grow();
    const w = this.len++;
    this.key[w] = key; this.time[w] = at; this.type[w] = type; this.fp[w] = fp; this.until[w] = until;
  }

  private grow(): void {
    const n = this.key.length * 2;
    const grow = <T extends Int32Array | Float64Array | Int8Array>(a: T, make: (n: number) => T): T => { const b = make(n); b.set(a); return b; };
    this.key = grow(this.key, (k) => new Int32Array(k));
    this.time = grow(this.time, (k) => new Float64Array(k));
    this.type = grow(this.type, (k) => new Int8Array(k));
    this.fp = grow(this.fp, (k) => new Int32Array(k));
    this.until = grow(this.until, (k) => new Float64Array(k));
  }
}
