/** The choices of `fit`'s options, apart so that declaring the command loads nothing else. */

/** How `fit` reads a file. */
export const FIT_SOURCE_FORMATS = ['prometheus', 'otlp', 'durations', 'csv'] as const;
export type FitSourceFormat = (typeof FIT_SOURCE_FORMATS)[number];

/**
 * The forms of a latency `fit` writes: the histogram itself, the lognormal of greatest likelihood,
 * the mixture of two, or the lognormal written as its p50 and p99 (last: --help says so after it).
 */
export const FIT_FORMS = ['histogram', 'lognormal', 'mixture', 'percentiles'] as const;
export type FitForm = (typeof FIT_FORMS)[number];
