/**
 * How the Redis stores lay out their data under a namespace prefix: one string key per
 * idempotency key holding a compact JSON record (with a TTL, so Redis itself expires it), and
 * one hash counting the side effects.
 */
import type { Redis } from 'ioredis';
import { timed, type KeyRecord, type StoreOptions } from '../types.js';

/**
 * The stored JSON: `s` state (`r` running, `d` done), `f` fingerprint, `t` when written (ms
 * since the epoch, for people reading the store), and when done `c` the status and `b` the body.
 */
interface Encoded { s: 'r' | 'd'; f: string; t: number; c?: number; b?: string }

export function encodeRunning(fingerprint: string): string {
  return JSON.stringify({ s: 'r', f: fingerprint, t: Date.now() } satisfies Encoded);
}

export function encodeDone(fingerprint: string, status: number, body: string): string {
  return JSON.stringify({ s: 'd', f: fingerprint, t: Date.now(), c: status, b: body } satisfies Encoded);
}

export function decode(text: string | null): KeyRecord | null {
  if (text === null || text === '') return null;
  const e = JSON.parse(text) as Encoded;
  return e.s === 'r'
    ? { status: 'running', fingerprint: e.f, response: null }
    : { status: 'done', fingerprint: e.f, response: { status: e.c ?? 200, body: e.b ?? '' } };
}

/** Whole milliseconds for PX (at least 1: Redis refuses 0). */
export function px(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}

/** Key names, the effects log and the read paths both Redis variants share. */
export class RedisNamespace {
  /** `prefix` ends the namespace, such as `idem-sim:probe:3f9a1c2b:`. */
  constructor(readonly client: Redis, readonly prefix: string, protected readonly opts: StoreOptions) {}

  keyOf(key: string): string {
    return `${this.prefix}k:${key}`;
  }

  get effectsKey(): string {
    return `${this.prefix}effects`;
  }

  async lookup(key: string): Promise<KeyRecord | null> {
    return decode(await timed(this.opts.observe, 'lookup', () => this.client.get(this.keyOf(key))));
  }

  async commitEffect(id: string): Promise<void> {
    await timed(this.opts.observe, 'effect', () => this.client.hincrby(this.effectsKey, id, 1));
  }

  async effectCount(effectId: string): Promise<number> {
    return Number((await this.client.hget(this.effectsKey, effectId)) ?? 0);
  }

  async effects(): Promise<Map<string, number>> {
    const all = await this.client.hgetall(this.effectsKey);
    return new Map(Object.entries(all).map(([k, v]) => [k, Number(v)]));
  }

  /** Writes the final record: last write wins, as in docs/model.md (no fencing token). */
  async storeResult(key: string, fingerprint: string, status: number, body: string): Promise<void> {
    const value = encodeDone(fingerprint, status, body);
    await timed(this.opts.observe, 'complete', () => this.client.set(this.keyOf(key), value, 'PX', px(this.opts.retentionMs)));
  }
}
