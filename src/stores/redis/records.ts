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

/** Whole milliseconds for PX (at least 1: Redis refuses 0), at most `maxMs`. */
export function px(ms: number, maxMs = Infinity): number {
  return Math.max(1, Math.ceil(Math.min(ms, maxMs)));
}

/**
 * KEYS[1] the effects hash, ARGV[1] the effect id, ARGV[2] the hash's TTL in ms: the count
 * and the TTL in one round trip, so that no effects hash is ever left without a TTL.
 */
export const EFFECT_SCRIPT = `
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

interface WithEffect { idemEffect(key: string, id: string, ttlMs: number): Promise<number> }

function withEffectScript(client: Redis): Redis & WithEffect {
  if (!('idemEffect' in client)) client.defineCommand('idemEffect', { numberOfKeys: 1, lua: EFFECT_SCRIPT });
  return client as Redis & WithEffect;
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

  /** TTL (ms) of a record kept `ms`, capped at `StoreOptions.maxTtlMs`. */
  protected ttl(ms: number): number {
    return px(ms, this.opts.maxTtlMs);
  }

  async commitEffect(id: string): Promise<void> {
    // The log must outlive every record (the probe reads it at the end): the cap, not the retention.
    const cap = this.opts.maxTtlMs;
    await timed(this.opts.observe, 'effect', () => (cap === undefined
      ? this.client.hincrby(this.effectsKey, id, 1)
      : withEffectScript(this.client).idemEffect(this.effectsKey, id, px(cap))));
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
    await timed(this.opts.observe, 'complete', () => this.client.set(this.keyOf(key), value, 'PX', this.ttl(this.opts.retentionMs)));
  }
}
