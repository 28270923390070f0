/**
 * Every store backend, one entry each: its descriptor (driver-free, loaded with this file) and
 * its driver, imported only when a URL names that store. `StoreKind` is this table's keys, so a
 * new backend is a folder under src/stores/ and one line here; a descriptor that lacks a part,
 * or sits under another kind's key, does not compile.
 */
import type { StoreBytes } from './backend.js';
import type { DriverModule, MeasurementRow, StoreDescriptor } from './descriptor.js';
import { POSTGRES } from './postgres/descriptor.js';
import { REDIS } from './redis/descriptor.js';

export const STORES = {
  redis: { descriptor: REDIS, load: (): Promise<DriverModule> => import('./redis/index.js') },
  postgres: { descriptor: POSTGRES, load: (): Promise<DriverModule> => import('./postgres/index.js') },
};

export type StoreKind = keyof typeof STORES;

/** The store-specific part of a bytes measurement of kind `K`. */
export type BytesOf<K extends StoreKind> = (typeof STORES)[K]['descriptor'] extends StoreDescriptor<K, infer B> ? B : never;

/** The registry under its checked type: each entry's descriptor is of the kind it is filed under. */
const CHECKED: { readonly [K in StoreKind]: { readonly descriptor: StoreDescriptor<K, BytesOf<K>> } } = STORES;

/** The descriptor of `kind`, typed with that kind's measurement part. */
export function descriptorOf<K extends StoreKind>(kind: K): StoreDescriptor<K, BytesOf<K>> {
  return CHECKED[kind].descriptor;
}

/** The kinds in the registry's order, which is the order messages name them in. */
export const STORE_KINDS = Object.keys(STORES) as StoreKind[];

const all: readonly StoreDescriptor<StoreKind, unknown>[] = STORE_KINDS.map((k) => descriptorOf(k));

/** Every scheme that names a store ("redis:", ...), and the kind it names. */
export const SCHEME_KINDS: ReadonlyMap<string, StoreKind> = new Map(all.flatMap((d) => d.schemes.map((s) => [s, d.kind] as const)));

/** "A or B", "A, B or C". */
function orList(items: readonly string[], lastSeparator = ' or '): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')}${lastSeparator}${items[items.length - 1]}`;
}

/** How every store's URLs are written: the fix of most URL errors. */
export const URL_FORMS = orList(all.map((d) => d.urlForms), ', or ');

/** `host:port` written as a URL of each store, for a URL given without a scheme. */
export function withEachScheme(hostPort: string): string {
  return orList(all.map((d) => d.withScheme(hostPort)));
}

/** "Redis or PostgreSQL": the stores by name, for `probe`'s help. */
export const STORE_LABELS = orList(all.map((d) => d.label));

/** "redis://127.0.0.1:6379 or postgres://...": one URL of each store, for --store's help. */
export const URL_EXAMPLES = orList(all.map((d) => d.example));

/** "--store redis://127.0.0.1:6379 or --store postgres://...": examples for a missing --store. */
export const STORE_EXAMPLES = orList(all.map((d) => `--store ${d.example}`));

/** What a clean-up's user must be allowed on each store, for the hint when a clean-up fails. */
export const CLEAN_UP_NEEDS = orList(all.map((d) => d.cleanUpNeeds));

/** The stores that commit the side effect with the key: "PostgreSQL (--store postgres://...)". */
export const TRANSACTIONAL_STORES = orList(all.filter((d) => d.transactional).map((d) => `${d.label} (--store ${d.scheme}...)`));

/** The rows of the store's own part of `m`, for the probe's table; none when it has no such part. */
export function measurementRows<K extends StoreKind>(kind: K, m: StoreBytes): readonly MeasurementRow[] {
  const own = m[kind];
  return own === undefined ? [] : descriptorOf(kind).measurementRows(own);
}
