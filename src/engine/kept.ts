/**
 * Values a thread makes once and keeps by what they are made of (a latency's cut: compile.ts; a
 * counting law: count-path.ts), so that a run after the first with the same (a sweep's point, the
 * bench's runs) does not make them again. Each store keeps at most MAX_KEPT, the oldest dropped;
 * a key longer than MAX_KEY_CHARS (an empirical latency's values) is not kept.
 */
export const MAX_KEPT = 16;
const MAX_KEY_CHARS = 4096;

/** `store`'s value for `key`, made by `make` where it has none (and kept unless the key is too long to keep). */
export function kept<V>(store: Map<string, V>, key: string, make: () => V): V {
  if (store.has(key)) return store.get(key) as V;
  const value = make();
  if (key.length > MAX_KEY_CHARS) return value;
  if (store.size >= MAX_KEPT) store.delete(store.keys().next().value as string);
  store.set(key, value);
  return value;
}
