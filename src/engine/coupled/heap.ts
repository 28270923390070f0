/**
 * The coupled engine's events in time order: a binary heap in typed arrays (no allocation per
 * event; grown by doubling). Ties (docs/model.md, "Capacity"): at one instant events of class 0
 * (workers coming free, window edges) come before those of class 1 (the clients'), and within a
 * class they come in the order they were scheduled.
 */

export class EventHeap {
  private time = new Float64Array(256);
  private cls = new Int8Array(256);
  private seq = new Float64Array(256);
  private kind = new Int8Array(256);
  private a = new Int32Array(256);
  private b = new Int32Array(256);
  private n = 0;
  private scheduled = 0;
  /** The event `pop` took: its time, kind and two numbers. */
  topTime = 0;
  topKind = 0;
  topA = 0;
  topB = 0;

  get size(): number {
    return this.n;
  }

  /** The earliest event's time (Infinity when none). */
  peekTime(): number {
    return this.n > 0 ? (this.time[0] as number) : Infinity;
  }

  /** The earliest event's class and scheduling number. */
  peekClass(): number {
    return this.cls[0] as number;
  }

  peekSeq(): number {
    return this.seq[0] as number;
  }

  /** A scheduling number for an event kept elsewhere (`TimedQueue`), in the heap's order. */
  nextSeq(): number {
    return this.scheduled++;
  }

  push(time: number, cls: number, kind: number, a: number, b: number): void {
    if (this.n === this.time.length) this.grow();
    const seq = this.scheduled++;
    let j = this.n++;
    while (j > 0) {
      const up = (j - 1) >> 1;
      if (!less(time, cls, seq, this.time[up] as number, this.cls[up] as number, this.seq[up] as number)) break;
      this.move(up, j);
      j = up;
    }
    this.put(j, time, cls, seq, kind, a, b);
  }

  /** Takes the earliest event into `topTime`, `topKind`, `topA`, `topB`. */
  pop(): void {
    this.topTime = this.time[0] as number;
    this.topKind = this.kind[0] as number;
    this.topA = this.a[0] as number;
    this.topB = this.b[0] as number;
    const last = --this.n;
    if (last === 0) return;
    const time = this.time[last] as number, cls = this.cls[last] as number, seq = this.seq[last] as number;
    const kind = this.kind[last] as number, a = this.a[last] as number, b = this.b[last] as number;
    let j = 0;
    for (;;) {
      let c = 2 * j + 1;
      if (c >= last) break;
      if (c + 1 < last && less(this.time[c + 1] as number, this.cls[c + 1] as number, this.seq[c + 1] as number, this.time[c] as number, this.cls[c] as number, this.seq[c] as number)) c++;
      if (!less(this.time[c] as number, this.cls[c] as number, this.seq[c] as number, time, cls, seq)) break;
      this.move(c, j);
      j = c;
    }
    this.put(j, time, cls, seq, kind, a, b);
  }

  private move(from: number, to: number): void {
    this.time[to] = this.time[from] as number; this.cls[to] = this.cls[from] as number; this.seq[to] = this.seq[from] as number;
    this.kind[to] = this.kind[from] as number; this.a[to] = this.a[from] as number; this.b[to] = this.b[from] as number;
  }

  private put(j: number, time: number, cls: number, seq: number, kind: number, a: number, b: number): void {
    this.time[j] = time; this.cls[j] = cls; this.seq[j] = seq; this.kind[j] = kind; this.a[j] = a; this.b[j] = b;
  }

  private grow(): void {
    const n = this.time.length * 2;
    const t = new Float64Array(n); t.set(this.time); this.time = t;
    const c = new Int8Array(n); c.set(this.cls); this.cls = c;
    const s = new Float64Array(n); s.set(this.seq); this.seq = s;
    const k = new Int8Array(n); k.set(this.kind); this.kind = k;
    const a = new Int32Array(n); a.set(this.a); this.a = a;
    const b = new Int32Array(n); b.set(this.b); this.b = b;
  }
}

/** Whether event (t1, c1, s1) comes before (t2, c2, s2): time, then class, then scheduling order. */
function less(t1: number, c1: number, s1: number, t2: number, c2: number, s2: number): boolean {
  return t1 < t2 || (t1 === t2 && (c1 < c2 || (c1 === c2 && s1 < s2)));
}

/**
 * Client events whose times come in the order they are scheduled (a timeout at `s + timeout`,
 * scheduled at the send `s`, the timeout being the same for every attempt): a ring, O(1) each
 * way, which keeps them out of the heap. Each carries the heap's scheduling number for ties.
 */
export class TimedQueue {
  private time = new Float64Array(256);
  private seq = new Float64Array(256);
  private a = new Int32Array(256);
  private b = new Int32Array(256);
  private head = 0;
  size = 0;
  topA = 0;
  topB = 0;

  peekTime(): number {
    return this.size > 0 ? (this.time[this.head] as number) : Infinity;
  }

  peekSeq(): number {
    return this.seq[this.head] as number;
  }

  push(time: number, seq: number, a: number, b: number): void {
    if (this.size === this.time.length) this.grow();
    const at = (this.head + this.size++) & (this.time.length - 1);
    this.time[at] = time; this.seq[at] = seq; this.a[at] = a; this.b[at] = b;
  }

  pop(): void {
    this.topA = this.a[this.head] as number;
    this.topB = this.b[this.head] as number;
    this.head = (this.head + 1) & (this.time.length - 1);
    this.size--;
  }

  private grow(): void {
    const n = this.time.length * 2;
    const mask = this.time.length - 1;
    const t = new Float64Array(n), q = new Float64Array(n), a = new Int32Array(n), b = new Int32Array(n);
    for (let k = 0; k < this.size; k++) {
      const j = (this.head + k) & mask;
      t[k] = this.time[j] as number; q[k] = this.seq[j] as number; a[k] = this.a[j] as number; b[k] = this.b[j] as number;
    }
    this.time = t; this.seq = q; this.a = a; this.b = b; this.head = 0;
  }
}
