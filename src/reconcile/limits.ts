/**
 * The limits of reconciling effects (docs/security-and-limits.md states them, and
 * docs/reconcile.md why): what a file may hold, and what the readings keep in memory, which is
 * bounded by the business keys in an open window, never by the length of the table.
 */

/** The longest line (a CSV record, quoted line breaks included; a JSON line) read, in characters. */
export const MAX_LINE_CHARS = 1024 * 1024;

/** The most rows reconciled: ten times the ten million a day's export of a busy table holds. */
export const MAX_ROWS = 100_000_000;

/** The largest effects file read (its size when opened; no more than that is read). */
export const MAX_EFFECTS_FILE_BYTES = 32 * 1024 * 1024 * 1024;

/**
 * The most business keys in an open window at once (about 250 bytes each with keys of a few dozen
 * characters: its name, its first effect's time and idempotency key; 4 KB each at the longest keys),
 * a key being dropped once its window has passed.
 */
export const MAX_OPEN_KEYS = 1_000_000;

/**
 * The longest business or idempotency key, in characters: an id or a UUID is tens of them (Stripe's
 * keys at most 255). The readings hold keys whole, so their length bounds the memory with the keys'
 * count: 400 keys of 520,000 characters took 1.3 GB.
 */
export const MAX_KEY_CHARS = 1024;

/** The most rows `--sort` sorts in memory (each held whole until the last is read). */
export const MAX_SORTED_ROWS = 1_000_000;

/** The most tools (an agent file's most): each has its readings and its buckets over time. */
export const MAX_TOOLS = 100;

/** The most buckets over time (`--step`), and the most of all the tools' together. */
export const MAX_BUCKETS = 100_000;
export const MAX_TOOL_BUCKETS = 1_000_000;

/**
 * The business keys with duplicates whose counts are kept for the most duplicated: past these,
 * those with the fewest are dropped and the list says it is a lower bound.
 */
export const MAX_COUNTED_KEYS = 100_000;

/** The most duplicated business keys listed, per tool and overall. */
export const TOP_KEYS = 10;
