/**
 * What each store backend tells the rest of the program about itself, in two parts: a
 * descriptor (`<kind>/descriptor.ts`) that imports no driver, so that parsing a URL, hiding its
 * secrets or wording a message never loads ioredis or pg; and a driver (`<kind>/index.ts`),
 * loaded only when a URL names the store (src/stores/registry.ts).
 */
import type { Backend } from './backend.js';
import type { StoreError } from './errors.js';
import type { CleanUpReport } from './lifetime.js';
import type { StoreUrl } from './url.js';

/** Refuses a URL: throws a StoreError with the problem and, unless given, the shared "Write it as ..." fix. */
export type BadUrl = (problem: string, fix?: string) => never;

/** One row under "measured bytes per record" in the probe's table: a label and byte counts, shown joined by ", ". */
export type MeasurementRow = readonly [label: string, bytes: readonly number[]];

/**
 * The driver-free facts about one store. `K` is its kind (the registry key), `B` the
 * store-specific part of its bytes measurement (`BytesMeasurement[K]`, in the probe's JSON).
 */
export interface StoreDescriptor<K extends string, B> {
  readonly kind: K;
  /** The store's name in messages: "Redis". */
  readonly label: string;
  /** The URL schemes naming it, as `URL.protocol` gives them: "redis:". */
  readonly schemes: readonly string[];
  /** Its main scheme as messages write it: "redis://". */
  readonly scheme: string;
  readonly defaultPort: number;
  /** How its URLs are written, for "Write it as ...": "redis://[user:password@]host[:6379][/db], rediss:// for TLS". */
  readonly urlForms: string;
  /** A URL of it on this machine, for "such as --store ...". */
  readonly example: string;
  /** `host:port` given without a scheme, written as a URL of this store. */
  withScheme(hostPort: string): string;
  /** The driver's name: it copies every query option into its settings, over the probe's own. */
  readonly driver: string;
  /** Query options let through to the driver (src/stores/url.ts says why so few). */
  readonly allowedQuery: readonly string[];
  /** Query options that move the probe's writes out of its own namespace, and what to do instead. */
  readonly namespaceOptions: Readonly<Record<string, string>>;
  /** The checks of this store's URLs beyond the shared ones; calls `bad` to refuse. */
  checkUrl(u: URL, bad: BadUrl): void;
  /** Whether it can commit the side effect with the key (`idempotency.transactional: true`). */
  readonly transactional: boolean;
  /** What holds the probe's writes, for the probe's table: "prefix", "schema". */
  readonly namespaceNoun: string;
  /** What a removal counts: "keys", "key rows". */
  readonly objectsNoun: string;
  /** What is left when the probe could not remove its namespace, and how to remove it by hand. */
  leftBehind(namespace: string): { what: string; how: string };
  /** What the clean-up's user must be allowed, for the hint when it fails: "... idem-sim:* keys (Redis)". */
  readonly cleanUpNeeds: string;
  /** The rows of its part of the measurement, in the probe's table. */
  measurementRows(bytes: B): readonly MeasurementRow[];
}

/** The part of a backend that needs its driver. */
export interface StoreDriver {
  /** Connects `connections` clients, or throws a StoreError saying why not, within about `timeoutMs`. */
  connect(url: StoreUrl, connections: number, timeoutMs: number): Promise<Backend>;
  /**
   * `probe --clean-up` (src/stores/lifetime.ts): connects, removes the leftovers no running
   * probe holds, disconnects. An error of the clean-up itself goes through `failed`.
   */
  cleanUp(url: StoreUrl, force: boolean, timeoutMs: number, failed: (e: unknown) => StoreError): Promise<CleanUpReport>;
}

/** What a backend's `index.ts` exports. */
export interface DriverModule {
  readonly driver: StoreDriver;
}
