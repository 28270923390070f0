/** The limits of the part format: what `run --shard` and `sweep --shard` write and `merge` reads. */

/** Most shards of one run or sweep: each writes a part file that `merge` reads. */
export const MAX_SHARDS = 10_000;

/**
 * The shape a part may have (ingest/json-shape.ts): a part nests 6 levels deep and holds an object
 * or array for every 110 bytes or more of its text (a sweep's point, 27 in 3 KB; a run's part, its
 * grid and bins in base64, one in 26,000 bytes); 16 bytes each at the least keeps what JSON.parse
 * builds within a few times the text (4 million at the 64 MiB limit).
 */
export const MAX_PART_DEPTH = 64;
export const PART_BYTES_PER_CONTAINER = 16;
