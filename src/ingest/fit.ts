/**
 * What `fit` computes from observations: a lognormal fitted to their quantiles and one through
 * their p50 and p99, each with its largest quantile error, and the advice the data give: the
 * healthy p99, and for a few client timeouts the share of attempts that would end unknown (their
 * latency over the timeout: docs/model.md, an attempt's steps).
 */
import { Z } from '../model/latency/lognormal.js';
import { MAX_DURATION_MS, MAX_SIGMA } from '../model/limits.js';
import { percent } from './data-warnings.js';
import { beyondEveryBound, highestBound, quantileOf, shareAbove, type Observations } from './observations.js';

/** The quantiles a fit is made to and judged on: p10 (by symmetry, -z of p90) and the percentiles a lognormal may be written with. */
const GRID: readonly { p: number; z: number; name: string }[] = [
  { p: 0.1, z: -(Z['p90'] as number), name: 'p10' },
  ...(['p50', 'p90', 'p95', 'p99'] as const).map((name) => ({ p: Number(`0.${name.slice(1)}`), z: Z[name] as number, name })),
];

/** A number to three significant digits, as a person writes it. */
export const round3 = (x: number): number => +x.toPrecision(3);

/** A lognormal as written (median in ms and sigma, rounded as printed), and its largest relative quantile error over GRID. */
export interface LognormalFit { readonly median: number; readonly sigma: number; readonly worst: { readonly error: number; readonly at: string } }

/**
 * Whether the data place the p-quantile: not in a histogram's +Inf bucket, where it is only
 * known to lie above the highest bound (histogram_quantile gives that bound).
 */
export const placed = (o: Observations, p: number): boolean => p <= 1 - beyondEveryBound(o);

/** The quantiles of GRID the data place above 0: those a lognormal is fitted to and judged on. */
const usable = (o: Observations) => GRID.filter((g) => placed(o, g.p) && quantileOf(o, g.p) > 0);

/** The largest relative error of lognormal(median, sigma)'s quantiles against the data's usable ones. */
function worstError(o: Observations, median: number, sigma: number): LognormalFit['worst'] {
  let worst = { error: 0, at: 'p50' };
  for (const g of usable(o)) {
    const q = quantileOf(o, g.p);
    const error = Math.abs(median * Math.exp(sigma * g.z) - q) / q;
    if (error > worst.error) worst = { error, at: g.name };
  }
  return worst;
}

/** Why no lognormal can be fitted, or undefined: it needs the median above 0 and another quantile the data place. */
function noLognormal(o: Observations): string | undefined {
  if (!placed(o, 0.5)) return 'half the observations or more lie above the highest bound';
  if (!(quantileOf(o, 0.5) > 0)) return 'half the observations or more are 0 ms, where a lognormal has no mass';
  return usable(o).length < 2 ? `the data place only their p50 of ${GRID.map((g) => g.name).join(', ')} (the others lie at 0 or above the highest bound)` : undefined;
}

/** The lognormal whose log-quantiles are nearest the data's over GRID (least squares of ln q on z), rounded as printed. */
export function fittedLognormal(o: Observations): LognormalFit | { problem: string } {
  const why = noLognormal(o);
  if (why) return { problem: why };
  const points = usable(o).map((g) => ({ z: g.z, y: Math.log(quantileOf(o, g.p)) }));
  const mz = points.reduce((s, pt) => s + pt.z, 0) / points.length;
  const my = points.reduce((s, pt) => s + pt.y, 0) / points.length;
  const szz = points.reduce((s, pt) => s + (pt.z - mz) ** 2, 0);
  const slope = szz > 0 ? points.reduce((s, pt) => s + (pt.z - mz) * (pt.y - my), 0) / szz : 0;
  const sigma = Math.min(MAX_SIGMA, Math.max(0, +slope.toFixed(3)));
  const median = round3(Math.exp(my - slope * mz));
  return { median, sigma, worst: worstError(o, median, sigma) };
}

/** The lognormal through the data's p50 and p99 (what `{p50, p99}` writes), rounded as printed. */
export function throughP50P99(o: Observations): (LognormalFit & { p99: number }) | { problem: string } {
  if (!placed(o, 0.99)) return { problem: `the p99 lies above the highest bound (${percent(beyondEveryBound(o))} of the observations do)` };
  const why = noLognormal(o);
  if (why) return { problem: why };
  const median = round3(quantileOf(o, 0.5)), p99 = round3(quantileOf(o, 0.99));
  if (!(p99 > median)) return { problem: 'the p99 is not above the p50: the data have no spread a lognormal could take' };
  const sigma = Math.log(p99 / median) / (Z['p99'] as number);
  return { median, p99, sigma, worst: worstError(o, median, sigma) };
}

/** One client timeout and the share of attempts that would end unknown at it. */
export interface TimeoutAdvice {
  readonly ms: number;
  readonly share: number;
  /** The timeout is at or above a histogram's highest bound: the share is at most the +Inf bucket's, which the data cannot place. */
  readonly atMost: boolean;
}

/** A quantile in ms, and whether the data place it (else it lies above the highest bound, which it is given as). */
export interface Quantile { readonly ms: number; readonly placed: boolean }

export interface Advice {
  readonly p50: Quantile;
  readonly p90: Quantile;
  readonly p99: Quantile;
  /** The highest finite bound (Infinity for durations) and the share of observations above it. */
  readonly top: number;
  readonly beyond: number;
  readonly timeouts: readonly TimeoutAdvice[];
}

/** 1, 2 and 5 times each power of ten from 1 ms to 10^8 ms: the timeouts people write. */
const LADDER: readonly number[] = Array.from({ length: 9 }, (_, k) => [1, 2, 5].map((m) => m * 10 ** k)).flat();

/** The timeouts advice is given on when none are asked for: round values near the p99 (two below, three at or above), and the p99 itself. */
export function defaultTimeouts(p50: number, p99: number): number[] {
  const below = LADDER.filter((t) => t > p50 && t < p99).slice(-2);
  const above = LADDER.filter((t) => t >= p99 && t <= MAX_DURATION_MS).slice(0, 3);
  return [...new Set([...below, round3(p99), ...above])].filter((t) => t > 0).sort((a, b) => a - b);
}

/** The advice of the data: their p50, p90 and p99, and the unknown outcomes at each timeout (in ms). */
export function advice(o: Observations, timeouts?: readonly number[]): Advice {
  const [p50, p90, p99] = [0.5, 0.9, 0.99].map((p) => ({ ms: quantileOf(o, p), placed: placed(o, p) })) as [Quantile, Quantile, Quantile];
  const top = highestBound(o), beyond = beyondEveryBound(o);
  const asked = timeouts ?? defaultTimeouts(p50.ms, p99.ms);
  return {
    p50, p90, p99, top, beyond,
    timeouts: asked.map((ms) => (ms >= top && beyond > 0 ? { ms, share: beyond, atMost: true } : { ms, share: shareAbove(o, ms), atMost: false })),
  };
}
