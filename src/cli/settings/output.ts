/**
 * Output settings: where a command's report goes (--out; opened by shared/output.ts) and the
 * format options of run, sweep and merge (--format, --json, --svg), read against the lists of
 * report/formats.ts (which loads no reporter).
 */
import { Option } from 'commander';
import { InputError } from '../../scenario/errors.js';
import { RUN_FORMATS, SWEEP_FORMATS, type RunFormat, type SweepFormat } from '../../report/formats.js';
import { oneOf } from '../options.js';
import { Given, parsedOption } from './given.js';

/** The options as commander gives them (each command declares those it has). */
export interface OutputOptions {
  out?: string;
  json?: boolean;
  svg?: boolean;
}

/** `run --format NAME`: one of RUN_FORMATS. */
export const runFormatOf = (text: string): RunFormat => oneOf('--format', text, RUN_FORMATS) as RunFormat; // oneOf checked it

/** `sweep --format NAME`: one of SWEEP_FORMATS. */
export const sweepFormatOf = (text: string): SweepFormat => oneOf('--format', text, SWEEP_FORMATS) as SweepFormat; // oneOf checked it

/** `merge --format NAME`, read as each kind of part takes it (the parts say which they are). */
export interface MergeFormat {
  readonly text: string;
  readonly run: Given<RunFormat>;
  readonly sweep: Given<SweepFormat>;
}

/** `--format` of run, sweep and merge; `words`, its help, name the choices. */
export const FORMAT_OPTION = {
  run: (words: string): Option => parsedOption('--format <format>', words, runFormatOf),
  sweep: (words: string): Option => parsedOption('--format <format>', words, sweepFormatOf),
  merge: (words: string): Option => new Option('--format <format>', words)
    .argParser((text: string): MergeFormat => ({ text, run: Given.parse(text, runFormatOf), sweep: Given.parse(text, sweepFormatOf) })),
};

/** Where the report goes (undefined: standard output), and the format options. */
export interface OutputSettings<F> {
  readonly out: string | undefined;
  readonly json: boolean;
  readonly svg: boolean;
  /** --format, as given. */
  readonly format: F | undefined;
}

export function outputSettings<F>(opts: OutputOptions & { format?: F }): OutputSettings<F> {
  return { out: opts.out, json: opts.json === true, svg: opts.svg === true, format: opts.format };
}

/** The format --json and --format ask (undefined: neither): --json is --format json, and refused beside another rather than one ignored. */
export function formatAsked<T extends string>(json: boolean, format: T | undefined): T | 'json' | undefined {
  if (json && format !== undefined && format !== 'json') throw new InputError({ source: '--json' }, '', `cannot be combined with --format ${format}`, `Give --json alone for the JSON report, or --format ${format} alone.`);
  return json ? 'json' : format;
}

/** What --json and --format ask of `run` (and of merged run parts). */
export function runFormat(s: Pick<OutputSettings<Given<RunFormat>>, 'json' | 'format'>): RunFormat {
  return formatAsked(s.json, s.format?.value) ?? 'table';
}

/** What --format, --json and --svg ask of `sweep`: one of SWEEP_FORMATS, or `svg` (the charts as one SVG; see docs/charts.md). */
export function sweepFormat(s: Pick<OutputSettings<Given<SweepFormat>>, 'json' | 'format' | 'svg'>): SweepFormat {
  const format = formatAsked(s.json, s.format?.value) ?? 'table';
  if (!s.svg) return format;
  if (format === 'html' || (s.format === undefined && !s.json)) return 'svg';
  throw new InputError({ source: '--svg' }, '', `cannot be combined with ${s.json ? '--json' : `--format ${format}`}`,
    `Give --svg alone for the charts as one SVG image, or ${s.json ? '--json' : `--format ${format}`} alone (--format html gives a page with every chart and a table).`);
}
