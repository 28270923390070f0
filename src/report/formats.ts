/**
 * The output formats of `run` and `sweep` (and of `merge`, which reports as they do): their
 * names, the words `--help` gives each, and what a format needs. The one home of that list:
 * run-reporters.ts and sweep-reporters.ts must have a renderer for each name here and no other
 * (their types say so). It imports nothing, so that the command line's help reads it without
 * loading a renderer.
 */

/** A format as `--help` describes it. */
export interface FormatWords {
  /** What follows its name in brackets, if anything: `default`, `a self-contained page of charts`. */
  readonly help?: string;
}

export interface RunFormatInfo extends FormatWords {
  /** Given `--series` (merged: parts written with it), it writes the run's series, one row per bucket. */
  readonly seriesRows?: true;
}

export interface SweepFormatInfo extends FormatWords {
  /** The option that asks for it instead of `--format NAME` (`--svg`): not one of `--format`'s choices. */
  readonly option?: string;
}

/** The formats of `run`, default first. */
export const RUN_FORMAT_INFO = {
  table: { help: 'default' },
  json: { help: 'the same as --json' },
  csv: { help: 'one row per run, or with --series one per bucket of the series', seriesRows: true },
} as const satisfies Record<string, RunFormatInfo>;

/** The formats of `sweep`, default first. */
export const SWEEP_FORMAT_INFO = {
  table: { help: 'default' },
  csv: {},
  json: {},
  html: { help: 'a self-contained page of charts' },
  svg: { option: '--svg' },
} as const satisfies Record<string, SweepFormatInfo>;

export type RunFormat = keyof typeof RUN_FORMAT_INFO;
export type SweepFormat = keyof typeof SWEEP_FORMAT_INFO;

/** The choices of `run --format`, default first. */
export const RUN_FORMATS = Object.keys(RUN_FORMAT_INFO) as RunFormat[];

/** The choices of `sweep --format`, default first (not those asked for by an option of their own). */
export const SWEEP_FORMATS = (Object.keys(SWEEP_FORMAT_INFO) as SweepFormat[]).filter((f) => !('option' in SWEEP_FORMAT_INFO[f]));

/** Whether `format` writes the run's series when there is one. */
export function writesSeries(format: RunFormat): boolean {
  return 'seriesRows' in RUN_FORMAT_INFO[format];
}

/** `names` in words, each with its help in brackets when `info` gives one: `table (default), csv, json or html (a self-contained page of charts)`. */
export function formatList(names: readonly string[], info: Readonly<Record<string, FormatWords & Readonly<Record<string, unknown>>>> = {}): string {
  const each = names.map((n) => (info[n]?.help ? `${n} (${info[n].help})` : n));
  return each.length < 2 ? each.join('') : `${each.slice(0, -1).join(', ')} or ${each.at(-1)}`;
}
