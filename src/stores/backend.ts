/**
 * What the probe needs from a store beyond the protocol: connections, a namespace of its own
 * (created fresh, so nothing is ever written where someone else's data is), key stores of
 * each variant in it, a measurement of bytes per record, and removal of all it created.
 */
import type { Claim } from '../model/types.js';
import type { BytesOf, StoreKind } from './registry.js';
import type { KeyStore, StoreOptions } from './types.js';

/** One record as the scenario would store it (see docs/stores.md, "Record shape"). */
export interface RecordShape {
  /** Key length in characters, and the fingerprint and response body stored with it. */
  keyLength: number;
  fingerprint: string;
  body: string;
}

/** Bytes a store uses to hold one record of the shape, measured on `records` of them. */
export type BytesMeasurement = {
  records: number;
  /** The figure for sizing (`idem-sim size --from-probe`). */
  bytes_per_record: number;
  /** How `bytes_per_record` was obtained, in words. */
  method: string;
} & StoreBytes;

/** A store's own figures, under its kind (`redis`, `postgres`): see its `descriptor.ts`. */
export type StoreBytes = { [K in StoreKind]?: BytesOf<K> };

/** Store round trips alone and at full speed: the measurement's records, written through the protocol. */
export interface Saturation {
  /** Median time of one request alone (claim, a side effect, complete), ms: the store's share of a request's latency. */
  unloaded_request_ms: number;
  /** Requests run through the protocol back to back, `connections` at a time (claim, then complete). */
  requests: number;
  connections: number;
  seconds: number;
  requests_per_second: number;
  ops: number;
  ops_per_second: number;
  /** Per round trip at full speed. */
  p50_ms: number;
  p99_ms: number;
}

export interface Backend {
  readonly kind: StoreKind;
  /** The URL with the password hidden. */
  readonly display: string;
  /** The key prefix (Redis) or schema (PostgreSQL) holding everything the probe writes. */
  readonly namespace: string;
  /** Connections the stores use. */
  readonly connections: number;
  /**
   * Creates the namespace, marked as the probe's with an expiry BASE_LIFE_MS from now and held
   * while this backend is open (src/stores/lifetime.ts); refuses one that already exists.
   */
  create(): Promise<void>;
  /** Moves the namespace's expiry to `lifeMs` from now; keys written afterwards live at most that long (Redis). */
  expireIn(lifeMs: number): Promise<void>;
  /** Key stores of the variant in the namespace, one per connection (Redis) or one over the pool (PostgreSQL). */
  stores(claim: Claim, transactional: boolean, opts: StoreOptions): KeyStore[];
  /** Writes `records` records of the shape through the protocol, measures them, removes them. */
  measure(claim: Claim, transactional: boolean, opts: StoreOptions, shape: RecordShape, records: number): Promise<{ bytes: BytesMeasurement; saturation: Saturation }>;
  /** Removes the namespace and everything in it; returns how many keys or rows went. */
  drop(): Promise<number>;
  close(): Promise<void>;
}

/** Runs `count` jobs on `workers` concurrent workers. */
export async function inParallel(count: number, workers: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, count)) }, async () => {
    while (next < count) await job(next++);
  }));
}

/** The q-quantile (0..1) of `values` (sorted in place), by the nearest rank. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))] as number;
}

/** Key `i` of a measurement: `keyLength` characters (a UUID is 36). */
export function measureKey(i: number, keyLength: number): string {
  const id = `m${i.toString(36)}-`;
  return id.length >= keyLength ? id : id + '0'.repeat(keyLength - id.length);
}

/** Requests timed alone before the rest run at full speed. */
const ALONE = 50;

/**
 * Writes `records` records of the shape through the protocol: the first ALONE one at a time
 * (with a side effect, as in the replay) to time a request on an idle store, the rest
 * `stores.length` at a time (a handler that returns the body at once) to find the store's
 * capacity, timing every round trip.
 */
export async function saturate(
  makeStores: (observe: NonNullable<StoreOptions['observe']>) => KeyStore[], shape: RecordShape, records: number,
): Promise<Saturation> {
  let latencies: number[] = [];
  const stores = makeStores((_op, ms) => { latencies.push(ms); });
  const response = { status: 200, body: shape.body };
  const request = (i: number) => ({ key: measureKey(i, shape.keyLength), fingerprint: shape.fingerprint });
  const alone = Math.min(ALONE, Math.floor(records / 2));
  const times: number[] = [];
  for (let i = 0; i < alone; i++) {
    const t = performance.now();
    await (stores[i % stores.length] as KeyStore).handle(request(i), async (ctx) => {
      await ctx.effect('measure');
      return response;
    });
    times.push(performance.now() - t);
  }
  latencies = [];
  const start = performance.now();
  await inParallel(records - alone, stores.length, async (j) => {
    const i = alone + j;
    await (stores[i % stores.length] as KeyStore).handle(request(i), async () => response);
  });
  const seconds = (performance.now() - start) / 1000;
  const ops = latencies.length;
  return {
    unloaded_request_ms: quantile(times, 0.5),
    requests: records - alone, connections: stores.length, seconds, requests_per_second: (records - alone) / seconds,
    ops, ops_per_second: ops / seconds, p50_ms: quantile(latencies, 0.5), p99_ms: quantile(latencies, 0.99),
  };
}
