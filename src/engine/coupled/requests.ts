/**
 * The coupled engine's requests in flight at the server (sent, not yet finished or dropped), and
 * the queue of those waiting for a worker. Typed arrays grown by doubling; a finished request's
 * slot is reused, so memory follows the work in flight, not the run's length.
 */

import { grown, unrolled } from './grow.js';

export class Requests {
  /** The actor that sent it, that actor's attempt serial then, its send time, key, fingerprint and call kind. */
  actor = new Int32Array(64);
  serial = new Int32Array(64);
  send = new Float64Array(64);
  key = new Int32Array(64);
  fp = new Int32Array(64);
  kind = new Int8Array(64);
  /** Whether its reply reaches the client (which then learns it when the worker comes free), and that event's scheduling number. */
  replies = new Uint8Array(64);
  replySeq = new Float64Array(64);
  private free = new Int32Array(64);
  private freeCount = 0;
  private used = 0;
  /** Requests in flight now (in-flight.ts bounds them). */
  live = 0;

  /** A slot for a new request. */
  take(): number {
    this.live++;
    if (this.freeCount > 0) return this.free[--this.freeCount] as number;
    if (this.used === this.actor.length) this.grow();
    return this.used++;
  }

  release(r: number): void {
    this.live--;
    if (this.freeCount === this.free.length) this.free = grown(this.free, this.free.length * 2);
    this.free[this.freeCount++] = r;
  }

  /** Slots ever used: the most requests in flight at once. */
  get peak(): number {
    return this.used;
  }

  private grow(): void {
    const n = this.actor.length * 2;
    this.actor = grown(this.actor, n); this.serial = grown(this.serial, n); this.key = grown(this.key, n); this.fp = grown(this.fp, n);
    this.send = grown(this.send, n); this.kind = grown(this.kind, n); this.replies = grown(this.replies, n); this.replySeq = grown(this.replySeq, n);
  }
}

/** Requests waiting for a worker: a ring buffer taken from the front (fifo) or the back (lifo). */
export class WaitQueue {
  private ring = new Int32Array(64);
  private head = 0;
  size = 0;

  constructor(private readonly lifo: boolean) {}

  push(r: number): void {
    if (this.size === this.ring.length) this.grow();
    this.ring[(this.head + this.size++) & (this.ring.length - 1)] = r;
  }

  /** The next request a free worker takes: the first to arrive (fifo) or the last (lifo). */
  take(): number {
    const mask = this.ring.length - 1;
    if (this.lifo) return this.ring[(this.head + --this.size) & mask] as number;
    const r = this.ring[this.head] as number;
    this.head = (this.head + 1) & mask;
    this.size--;
    return r;
  }

  private grow(): void {
    this.ring = unrolled(this.ring, this.head, this.size);
    this.head = 0;
  }
}
