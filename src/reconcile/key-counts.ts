/**
 * The duplicates of each business key that had any, for the most duplicated: exact while at most
 * MAX_COUNTED_KEYS keys had duplicates; past that, the keys with the fewest are dropped each
 * time the count is reached (a dropped key that comes back counts from 0), so the list holds
 * lower bounds and says so. Shown as the first 12 hex of the key's SHA-256 unless asked:
 * business identities can be personal data.
 */
import { createHash } from 'node:crypto';
import { MAX_COUNTED_KEYS, TOP_KEYS } from './limits.js';
import type { TopKey } from './readings.js';

/** The short hash that stands for a business key: the first 12 hex of its SHA-256 (its UTF-8 bytes). */
export const keyHash = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 12);

export class KeyCounts {
  /** By tool (its index) and key. */
  private readonly counts = new Map<number, Map<string, number>>();
  private size = 0;
  private dropped = false;

  constructor(private readonly max = MAX_COUNTED_KEYS) {}

  add(tool: number, key: string): void {
    let keys = this.counts.get(tool);
    if (!keys) this.counts.set(tool, keys = new Map());
    const n = keys.get(key);
    if (n !== undefined) {
      keys.set(key, n + 1);
      return;
    }
    if (this.size >= this.max) this.dropFewest();
    keys.set(key, 1);
    this.size++;
  }

  /** Whether every count is exact. */
  get exact(): boolean {
    return !this.dropped;
  }

  /** Drops the keys with the fewest duplicates. */
  private dropFewest(): void {
    let fewest = Infinity;
    for (const keys of this.counts.values()) for (const n of keys.values()) fewest = Math.min(fewest, n);
    for (const keys of this.counts.values()) {
      for (const [key, n] of keys) {
        if (n <= fewest) { keys.delete(key); this.size--; }
      }
    }
    this.dropped = true;
  }

  /** The most duplicated keys of the tools `tools` names by index (all of them, for the overall list), most first, then by key. */
  top(tools: readonly string[], only: number | undefined, show: boolean): TopKey[] {
    const all: { key: string; tool: string; duplicates: number }[] = [];
    for (const [tool, keys] of this.counts) {
      if (only !== undefined && tool !== only) continue;
      for (const [key, duplicates] of keys) all.push({ key, tool: tools[tool] as string, duplicates });
    }
    all.sort((a, b) => b.duplicates - a.duplicates || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.tool < b.tool ? -1 : 1));
    return all.slice(0, TOP_KEYS).map((k) => ({ ...k, key: show ? k.key : keyHash(k.key) }));
  }
}
