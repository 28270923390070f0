/**
 * The ranges of a scenario's numbers: what the model represents faithfully. The schema states
 * each one (so an editor flags a value outside it) and the loader refuses the rest.
 *
 * Time. The engine keeps times in ms from the start of a chunk (16,384 arrivals, CHUNK_ACTIONS)
 * and measures a latency as the difference of two such times. A double below 2^42 ms (about
 * 139 years) holds a time to 2^-11 ms (0.49 us: 52 bits of mantissa), so a difference of two is
 * good to about 1 us, under 0.1% of a 1 ms latency and well inside the latency sketch's 0.5%.
 * The chunk's arrivals, the retention of its keys and its actions' delays share that budget:
 *   arrivals:  CHUNK_ACTIONS / MIN_RATE_PER_S = 1.64e12 ms, 0.37 of 2^42 (a Gamma(16384) span:
 *              its standard deviation is 1/128 of its mean, so it never nears 2^42);
 *   retention: at most MAX_DURATION_MS = 3.15e11 ms, 0.07 of it;
 *   the rest, 2.4e12 ms, is more than seven of the longest durations one after the other.
 * At `rate_per_s: 1e-15` the arrivals alone spanned 1.6e22 ms, where a double steps by 2^22 ms:
 * every latency came out as 0 ms and 991.5 actions per 1000 as lost.
 */

/** The longest duration a scenario may give: 3650 days (10 years) = 3.1536e11 ms, about 2^38.2. */
export const MAX_DURATION_MS = 3650 * 86_400_000;
/** Slowest arrival rate: one action per 100,000 s (27.8 hours); see the time budget above. */
export const MIN_RATE_PER_S = 1e-5;
/**
 * Fastest arrival rate: 10^9 actions per second, one a nanosecond, far beyond any tool. The cap
 * keeps rates and per-day counts finite (`.inf` or 1e308 would not be); precision needs no cap.
 */
export const MAX_RATE_PER_S = 1e9;
/**
 * Largest lognormal sigma: at 10 the 99.9th percentile is exp(3.09 * 10) = 2.6e13 times the
 * median already; a larger one puts most draws at 0 ms or beyond 10 years, and from about 90
 * on exp() overflows to an infinite latency.
 */
export const MAX_SIGMA = 10;
/**
 * Largest backoff multiplier: real clients use 1.5 to 3; at 100 the third retry waits 10^4
 * times the base already. (Beyond 2 with 1000 retries the power overflows; the cap `max` takes over.)
 */
export const MAX_MULTIPLIER = 100;
/**
 * Largest mixture weight (weights are relative). With at most MAX_TOKENS components their sum
 * stays below 10^14, finite: weights of 1e308 once summed to Infinity, which made every share
 * 0 and the last component take every draw.
 */
export const MAX_WEIGHT = 1e9;
/**
 * Largest key record: 16 MiB (16,777,216 bytes). A record holds a key, a fingerprint and the
 * stored response; 16 MiB is past the value limits of the stores such records live in
 * (DynamoDB 400 KB per item, memcached 1 MiB by default) and past any response a tool call
 * returns, and `probe` writes records of this size, so it must fit in memory many times over.
 */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** The most primary actions one run may take (`actions`, `--max-actions`): chunk indices stay well inside 32 bits. */
export const MAX_ACTIONS = 1e13;

/** The most retries, re-plans or replays a scenario may ask for (per call, step or action). */
export const MAX_REPEATS = 1000;

/**
 * The most redeliveries a trigger may make of one action (docs/model.md, "Inbound delivery").
 * A queue without a dead-letter policy redelivers until its retention ends: 11,520 receives for
 * SQS's 4 days at its 30 s visibility timeout, 60,480 for Pub/Sub's 7 days at its 10 s ack
 * deadline; each redelivery is a run the engine simulates, so the cap keeps an action's work bounded.
 */
export const MAX_REDELIVERIES = 100_000;
/** Entries of `trigger.schedule` at most (Svix's schedule has 7). */
export const MAX_SCHEDULE_ENTRIES = 100;

/** Entries of `load.profile`, windows of `incidents`, and `alerts`, at most (each is looked up per attempt or per bucket). */
export const MAX_PROFILE_ENTRIES = 1000;
export const MAX_INCIDENTS = 100;
export const MAX_ALERTS = 100;

/** The most buckets a series may hold: 100,000 (a day in seconds), about 20 MB of JSON, 9 MB of counts. */
export const MAX_SERIES_BUCKETS = 100_000;

/** The largest latency multiplier an incident may set. */
export const MAX_LATENCY_MULTIPLIER = 1e6;

/**
 * The most workers `service.capacity` may give (and an incident window set): 10^6 handlers at
 * once is past any one service's fleet, and the engine keeps one slot per running handler.
 */
export const MAX_WORKERS = 1e6;

/**
 * The largest count of the capacity keys that are not workers: a queue's waiting places, a retry
 * budget's tokens and costs, a breaker's min_calls. 10^9 is past any real setting and keeps
 * their sums and products exact in a double (below 2^53).
 */
export const MAX_CAPACITY_COUNT = 1e9;

/**
 * The most buckets a latency histogram may hold, written or read from a file: Prometheus's
 * classic histograms hold tens, an OpenTelemetry exponential histogram at most 160 a side by
 * default; sampling searches them (a binary search: 14 steps at 10,000).
 */
export const MAX_HISTOGRAM_BUCKETS = 10_000;
/**
 * Largest count of a histogram's bucket: 10^15. A count is a number, not a whole one
 * (Prometheus's increase() gives fractions), and below 2^53 its sums keep about one part in
 * 10^15 of a count.
 */
export const MAX_HISTOGRAM_COUNT = 1e15;
/** Largest bucket bound as written: MAX_DURATION_MS in ns, the smallest unit a bound may take (the bound in ms is at most MAX_DURATION_MS). */
export const MAX_HISTOGRAM_BOUND = MAX_DURATION_MS * 1e6;
