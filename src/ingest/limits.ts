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
