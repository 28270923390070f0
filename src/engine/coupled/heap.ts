/**
 * The coupled engine's events in time order: a binary heap in typed arrays (no allocation per
 * event; grown by doubling). Ties (docs/model.md, "Capacity"): at one instant events of class 0
 * (workers coming free, window edges) come before those of class 1 (the clients'), and within a
 * class they come in the order they were scheduled.
 */

import { grown, unrolled } from './grow.js';

export class EventHeap {
  // Each event's fields in a slot (reused once popped); the heap orders slot numbers, so a sift
  // moves one integer per level.
  private time = new Float64Array(256);
  private cls = new Int8Array(256);
  private seq = new Float64Array(256);
  private kind = new Int8Array(256);
  private a = new Int32Array(256);
  private b = new Int32Array(256);
  private order = new Int32Array(256);
  private free = new Int32Array(256);
  private freeCount = 0;
  private slots = 0;
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
    return this.n > 0 ? (this.time[this.order[0] as number] as number) : Infinity;
  }

  /** The earliest event's class and scheduling number. */
  peekClass(): number {
    return this.cls[this.order[0] as number] as number;
  }

  peekSeq(): number {
    return this.seq[this.order[0] as number] as number;
  }

  /** A scheduling number for an event kept elsewhere (`TimedQueue`), in the heap's order. */
  nextSeq(): number {
    return this.scheduled++;
  }

  push(time: number, cls: number, kind: number, a: number, b: number): void {
    this.pushAs(time, cls, kind, a, b, this.scheduled++);
  }

  /** An event scheduled earlier, with the number `nextSeq` gave it then (its place among ties). */
  pushAs(time: number, cls: number, kind: number, a: number, b: number, seq: number): void {
    let id: number;
    if (this.freeCount > 0) id = this.free[--this.freeCount] as number;
    else {
      if (this.slots === this.time.length) this.grow();
      id = this.slots++;
    }
    this.time[id] = time; this.cls[id] = cls; this.seq[id] = seq; this.kind[id] = kind; this.a[id] = a; this.b[id] = b;
    const order = this.order;
    let j = this.n++;
    while (j > 0) {
      const up = (j - 1) >> 1;
      const u = order[up] as number;
      const tu = this.time[u] as number;
      if (!(time < tu || (time === tu && (cls < (this.cls[u] as number) || (cls === this.cls[u] && seq < (this.seq[u] as number)))))) break;
      order[j] = u;
      j = up;
    }
    order[j] = id;
  }

  /** Takes the earliest event into `topTime`, `topKind`, `topA`, `topB`. */
  pop(): void {
    const order = this.order;
    const top = order[0] as number;
    this.topTime = this.time[top] as number;
    this.topKind = this.kind[top] as number;
    this.topA = this.a[top] as number;
    this.topB = this.b[top] as number;
    this.free[this.freeCount++] = top;
    const last = --this.n;
    if (last === 0) return;
    const id = order[last] as number;
    const time = this.time[id] as number;
    let j = 0;
    for (;;) {
      let c = 2 * j + 1;
      if (c >= last) break;
      if (c + 1 < last && this.before(order[c + 1] as number, order[c] as number)) c++;
      const oc = order[c] as number;
      const tc = this.time[oc] as number;
      if (time < tc || (time === tc && !this.before(oc, id))) break;
      order[j] = oc;
      j = c;
    }
    order[j] = id;
  }

  /** Whether slot x's event comes before slot y's: time, then class, then scheduling order. */
  private before(x: number, y: number): boolean {
    const tx = this.time[x] as number, ty = this.time[y] as number;
    if (tx !== ty) return tx < ty;
    const cx = this.cls[x] as number, cy = this.cls[y] as number;
    return cx !== cy ? cx < cy : (this.seq[x] as number) < (this.seq[y] as number);
  }

  private grow(): void {
    const n = this.time.length * 2;
    this.time = grown(this.time, n); this.cls = grown(this.cls, n); this.seq = grown(this.seq, n); this.kind = grown(this.kind, n);
    this.a = grown(this.a, n); this.b = grown(this.b, n); this.order = grown(this.order, n); this.free = grown(this.free, n);
  }
}

/**
 * Client events whose times come in the order they are scheduled (a timeout at `s + timeout`,
 * scheduled at the send `s`, the timeout being the same for every attempt): a ring, O(1) each
 * way, which keeps them out of the heap. Each carries the heap's scheduling number for ties.
 * With `heard`, an event it says will do nothing when its time comes (a timeout of an attempt
 * already answered: once so, always) is dropped when the ring is full, before it grows; the ring
 * then holds about as many events as will be heard (one an actor), however many attempts are
 * answered before their timeout. Dropping them changes nothing the run does.
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

  constructor(private readonly heard?: (a: number, b: number) => boolean) {}

  /** How many events the ring has room for (its memory). */
  get room(): number {
    return this.time.length;
  }

  peekTime(): number {
    return this.size > 0 ? (this.time[this.head] as number) : Infinity;
  }

  peekSeq(): number {
    return this.seq[this.head] as number;
  }

  push(time: number, seq: number, a: number, b: number): void {
    if (this.size === this.time.length) this.makeRoom();
    const at = (this.head + this.size++) & (this.time.length - 1);
    this.time[at] = time; this.seq[at] = seq; this.a[at] = a; this.b[at] = b;
  }

  pop(): void {
    this.topA = this.a[this.head] as number;
    this.topB = this.b[this.head] as number;
    this.head = (this.head + 1) & (this.time.length - 1);
    this.size--;
  }

  /** The ring is full: the events that will not be heard dropped, and the ring doubled unless that freed half of it (O(1) a push, amortised). */
  private makeRoom(): void {
    if (this.heard !== undefined) this.dropUnheard(this.heard);
    if (2 * this.size > this.time.length) this.grow();
  }

  /** Keeps the events `heard` says will be heard, in their order, from the head on. */
  private dropUnheard(heard: (a: number, b: number) => boolean): void {
    const mask = this.time.length - 1;
    let kept = 0;
    for (let k = 0; k < this.size; k++) {
      const from = (this.head + k) & mask;
      const a = this.a[from] as number, b = this.b[from] as number;
      if (!heard(a, b)) continue;
      const to = (this.head + kept++) & mask;
      this.time[to] = this.time[from] as number; this.seq[to] = this.seq[from] as number; this.a[to] = a; this.b[to] = b;
    }
    this.size = kept;
  }

  private grow(): void {
    const { head, size } = this;
    this.time = unrolled(this.time, head, size); this.seq = unrolled(this.seq, head, size);
    this.a = unrolled(this.a, head, size); this.b = unrolled(this.b, head, size);
    this.head = 0;
  }
}
