/** The limits of reading latency data (docs/security-and-limits.md states them). */

/**
 * The most series of histograms one input may hold (of the metric asked for, or of every
 * histogram when none is): a /metrics page holds tens to hundreds; each series read costs a
 * map of its labels and its buckets until one is chosen.
 */
export const MAX_SERIES = 10_000;

/**
 * The most durations (a list, a CSV column, spans) `fit` reads: a million describe any latency
 * to its 99.99th percentile, and sorting them takes a fraction of a second.
 */
export const MAX_OBSERVATIONS = 1_000_000;

/**
 * The deepest nesting and the most objects and arrays an OTLP JSON input may hold, counted in one
 * pass before JSON.parse builds them: an export nests 7 deep, and a 16 MiB one of spans holds
 * some 50,000 spans of a dozen each, while 16 MiB of `[{},{},...]` made 5.6 million objects (585
 * MB) and of `[[[...]]]` 869 MB.
 */
export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_CONTAINERS = 1_000_000;
