/**
 * The latency distributions of docs/model.md: one file per form under `latency/`, and here the
 * one registry of them. A new form is its file and its line in `LATENCY_FORMS`; the schema, the
 * resolver, `dist`'s choices and the `LatencySpec` union follow from this table.
 */
import { constant, type ConstantSpec } from './latency/constant.js';
import { empirical, type EmpiricalSpec } from './latency/empirical.js';
import { exponential, type ExponentialSpec } from './latency/exponential.js';
import type { LatencyForm, LatencySampler } from './latency/form.js';
import { histogram, DEFAULT_HISTOGRAM_UNIT, type HistogramSpec } from './latency/histogram.js';
import { histogramValues, UNIT_MS, type HistogramBucket } from './latency/histogram-data.js';
import { lognormal, type LognormalSpec } from './latency/lognormal.js';
import { mixtureForm, type MixtureSpec } from './latency/mixture.js';
import { uniform, type UniformSpec } from './latency/uniform.js';

export type { LatencyCut, LatencyForm, LatencyProblem, LatencySampler } from './latency/form.js';
export type { MixtureComponent } from './latency/mixture.js';

/**
 * A latency distribution ready to run, in ms: an empirical form holds its observed `values`.
 * Named here (a mixture's components are of this type, so it cannot be inferred from the table);
 * `LATENCY_FORMS` must then hold exactly one form for each member.
 */
export type LatencySpec = LognormalSpec | ConstantSpec | UniformSpec | ExponentialSpec | EmpiricalSpec | MixtureSpec | HistogramSpec;
export type Distribution = LatencySpec['dist'];

/** Every form, by its `dist`. The first is the default (a file may leave `dist` out). */
export const LATENCY_FORMS: { readonly [S in LatencySpec as S['dist']]: LatencyForm<S> } = {
  lognormal,
  constant,
  uniform,
  exponential,
  empirical,
  mixture: mixtureForm((spec) => compileLatency(spec), (spec) => formOf(spec).mean(spec)),
  histogram,
};

export const DISTRIBUTIONS = Object.keys(LATENCY_FORMS) as readonly Distribution[];
export const DEFAULT_DISTRIBUTION: Distribution = 'lognormal';

/** A distribution as a scenario writes it: the data a form loads (`values`) not yet there. */
export type WrittenLatency<S = LatencySpec> = S extends { values: readonly unknown[] } ? Omit<S, 'values'>
  : S extends { components: readonly (infer C)[] } ? Omit<S, 'components'> & { components: readonly WrittenLatency<C>[] }
  : S;

/** The form of a spec, typed to it. */
export function formOf<S extends LatencySpec>(spec: S): LatencyForm<S> {
  return LATENCY_FORMS[spec.dist] as unknown as LatencyForm<S>;
}

/** The sampler of a latency spec (validated at the boundary). */
export function compileLatency(spec: LatencySpec): LatencySampler {
  return formOf(spec).sampler(spec);
}

/** Reads a histogram's file (`spec.file`, named at `keyPath`): its buckets in ms, as `histogramValues` gives them. */
export type HistogramReader = (spec: WrittenLatency<HistogramSpec> & { file: string }, keyPath: readonly (string | number)[]) => readonly HistogramBucket[];

const NO_HISTOGRAM_READER: HistogramReader = (spec) => { throw new RangeError(`nothing here reads the histogram file ${spec.file}`); };

/**
 * A written distribution with its data loaded: `read(file, keyPath)` gives an empirical file's
 * values, `readHistogram` a histogram file's buckets (the shell reads; the model never does).
 * `keyPath` is where the file is named. A histogram's written buckets become ms here.
 */
export function loadLatencyData(written: WrittenLatency, keyPath: readonly (string | number)[],
  read: (file: string, keyPath: readonly (string | number)[]) => readonly number[], readHistogram = NO_HISTOGRAM_READER): LatencySpec {
  if (written.dist === 'empirical') return { ...written, values: read(written.file, [...keyPath, 'file']) };
  if (written.dist === 'histogram') {
    return { ...written, values: written.file !== null ? readHistogram({ ...written, file: written.file }, [...keyPath, 'file'])
      : histogramValues(written.buckets, written.total, UNIT_MS[written.unit ?? DEFAULT_HISTOGRAM_UNIT]) };
  }
  if (written.dist === 'mixture') {
    return { ...written, components: written.components.map((c, i) => ({ ...loadLatencyData(c, [...keyPath, 'components', i], read, readHistogram), weight: c.weight })) };
  }
  return written;
}

/** A loaded distribution as it was written: the data are not settings, the file name identifies them. */
export function writtenLatency(spec: WrittenLatency): WrittenLatency {
  if (spec.dist === 'empirical') return { dist: 'empirical', file: spec.file };
  if (spec.dist === 'histogram') {
    const { values: _data, ...written } = spec as HistogramSpec;
    return written;
  }
  if (spec.dist === 'mixture') return { dist: 'mixture', components: spec.components.map((c) => ({ ...writtenLatency(c), weight: c.weight })) };
  return spec;
}
