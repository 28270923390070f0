/**
 * The probe's defaults, in a module of their own that imports nothing: the command line's help
 * (cli/main.ts) states them at every start without loading the probe.
 */

/** Primary actions in the probe's stream unless --actions says otherwise (a few seconds of real time). */
export const DEFAULT_PROBE_ACTIONS = 200;

/** Records written to measure bytes per record unless --records or the write budget says otherwise. */
export const DEFAULT_MEASURE_RECORDS = 1000;
