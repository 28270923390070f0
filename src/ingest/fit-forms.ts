/** The choices of `fit`'s options, apart so that declaring the command loads nothing else. */

/** How `fit` reads a file. */
export const FIT_SOURCE_FORMATS = ['prometheus', 'otlp', 'durations', 'csv'] as const;
export type FitSourceFormat = (typeof FIT_SOURCE_FORMATS)[number];

/** The forms of a latency `fit` writes: the histogram itself, a lognormal fitted to its quantiles, or one through its p50 and p99. */
export const FIT_FORMS = ['histogram', 'lognormal', 'percentiles'] as const;
export type FitForm = (typeof FIT_FORMS)[number];
