/**
 * The claim protocol of docs/model.md ("Idempotency key (server side)") as an interface that
 * real key stores implement. A store runs the protocol around an application handler:
 * look the key up, answer 422, 409 or the stored result, or claim it, run the handler and
 * store what it returned. Nothing here knows about the command line or the simulator.
 */

/** How a store decides that nobody else is executing: see docs/stores.md. */
export type StoreVariant =
  /** A claim written atomically before the handler runs (SET NX, INSERT ... ON CONFLICT DO NOTHING). */
  | 'atomic'
  /** `atomic`, with the side effect and the key committed in one transaction (PostgreSQL). */
  | 'transactional'
  /** BROKEN ON PURPOSE: read, execute, then write. Two concurrent requests both execute. */
  | 'check_then_act';

/** A request as the key store sees it. */
export interface StoreRequest {
  /** The idempotency key; the store adds its own namespace (prefix or schema). */
  key: string;
  /**
   * A digest of what `idempotency.fingerprint` covers (the business identity, plus the free
   * text for `full`). Compared only when the store checks fingerprints.
   */
  fingerprint: string;
}

/** A response as a store keeps and replays it. */
export interface StoredResponse {
  /** HTTP status: 2xx and 4xx are results; 5xx is a failure (see `StoreOptions.onError`). */
  status: number;
  body: string;
}

/** What the protocol answered. */
export type Reply =
  /** The handler ran and its result is stored (`done`). */
  | { kind: 'executed'; response: StoredResponse }
  /** The handler answered 5xx: the claim was released, or the 5xx stored (`onError`). */
  | { kind: 'failed'; response: StoredResponse }
  /** A `done` record was found: its stored response, replayed (a dedup hit). */
  | { kind: 'replayed'; response: StoredResponse }
  /** A live `running` record: 409, retry later. */
  | { kind: 'conflict' }
  /** The live record's fingerprint differs: 422, do not retry. */
  | { kind: 'mismatch' }
  /** The handler died (it threw `HandlerCrash`): nothing more was written, no reply. */
  | { kind: 'crashed' };

/** What a handler may do through the store. */
export interface HandlerContext {
  /**
   * Commits the side effect `effectId` (a row in the store's effects log). In a
   * `transactional` store it commits with the key, or not at all.
   */
  effect(effectId: string): Promise<void>;
}

/** The application's work. Return a 5xx status to report a failure before any side effect. */
export type Handler = (ctx: HandlerContext) => Promise<StoredResponse>;

/**
 * Thrown by a handler to stand for the process dying: the store writes nothing more (no
 * result, no release), as a killed worker would not; a transaction in progress rolls back.
 */
export class HandlerCrash extends Error {
  constructor() {
    super('handler crashed (injected)');
    this.name = 'HandlerCrash';
  }
}

/** The `idempotency.*` keys of a scenario, as a store applies them. Durations in real milliseconds. */
export interface StoreOptions {
  /** How long a stored result lives after completion (`idempotency.retention`), ms > 0. */
  retentionMs: number;
  /**
   * How long after its claim a `running` record counts (`idempotency.lease`), ms > 0; null:
   * until `retentionMs` after the claim. Ignored by `transactional` (see docs/stores.md).
   */
  leaseMs: number | null;
  /** On a 5xx: `release` deletes the claim (AWS Powertools), `store` keeps the 5xx for replay (Stripe). */
  onError: 'release' | 'store';
  /** False for `idempotency.fingerprint: none`: a different fingerprint never gives 422. */
  checkFingerprint: boolean;
  /**
   * Longest TTL (ms) of any key a Redis store writes, retention or not: the probe sets it to
   * its namespace's life, so that a killed probe's keys go by themselves. Undefined: no cap.
   */
  maxTtlMs?: number;
  /** Called after every round trip to the store with its name and duration in ms. */
  observe?: (op: string, ms: number) => void;
}

/** A record as `lookup` finds it. */
export interface KeyRecord {
  status: 'running' | 'done';
  fingerprint: string;
  /** Null while running. */
  response: StoredResponse | null;
}

/** One key store: the protocol over one connection (or pool), in one namespace. */
export interface KeyStore {
  readonly variant: StoreVariant;
  /** Runs the protocol around `handler`. */
  handle(request: StoreRequest, handler: Handler): Promise<Reply>;
  /** The live record of `key` now (not expired, lease not lapsed), or null. */
  lookup(key: string): Promise<KeyRecord | null>;
  /** Committed side effects: how many times each effect id was executed. */
  effects(): Promise<Map<string, number>>;
  /** How many times one effect id was executed (what a `verify_before_replan` read tool asks). */
  effectCount(effectId: string): Promise<number>;
}

/** Calls `fn` and reports its duration to `observe`. */
export async function timed<T>(observe: StoreOptions['observe'], op: string, fn: () => Promise<T>): Promise<T> {
  if (!observe) return fn();
  const start = performance.now();
  try {
    return await fn();
  } finally {
    observe(op, performance.now() - start);
  }
}
