/** The limits of the part format: what `run --shard` and `sweep --shard` write and `merge` reads. */

/** Most shards of one run or sweep: each writes a part file that `merge` reads. */
export const MAX_SHARDS = 10_000;
