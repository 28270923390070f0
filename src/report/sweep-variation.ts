/**
 * Whether a metric varies enough across a sweep to be worth a chart, and ticks whose labels
 * never repeat. Values that agree to the digits an axis prints (3 significant digits, as
 * num() and duration() write them) draw one label over and over ("6.04 6.04 6.04 6.05") and a
 * shape that is only the last digit's noise. The rule: a metric varies when its values span
 * at least two steps of the last digit printed at the largest of them; two steps, not one,
 * because a value rounds by up to half a step at each end, and an axis of that span has at
 * least two distinct labels. Below that, the page leaves the chart out and says why.
 */
import { duration, num } from './format.js';

/**
 * One step of the last digit num() prints at |x|: 3 significant digits, whole numbers from
 * 100 on, at most 6 decimals (num(3.2442) = "3.24": a step of 0.01).
 */
export function printedStep(x: number): number {
  const a = Math.abs(x);
  if (!(a > 0) || !Number.isFinite(a)) return 1e-6;
  const e = Math.min(0, Math.max(-6, Math.floor(Math.log10(a)) - 2));
  return 1 / 10 ** -e; // not 10 ** e: 10 ** -5 is 0.000009999999999999999
}

/** The units duration() picks from, largest first (format.ts): ms at or above one of them print in it. */
const DURATION_UNITS = [86_400_000, 3_600_000, 60_000, 1000] as const;

/** One step, in ms, of the last digit duration() prints at `ms` (duration(1234) = "1.23 s": 10 ms). */
export function durationStep(ms: number): number {
  const size = DURATION_UNITS.find((s) => Math.abs(ms) >= s) ?? 1;
  return size * printedStep(ms / size);
}

export interface Variation {
  /** The least and the largest value (nulls left out). */
  lo: number;
  hi: number;
  /** The values span at least two printed steps: a chart of them means something. */
  varies: boolean;
  /** The values as the page words them: "3.25" when all print alike, else "within 3.24 to 3.25". */
  text: string;
}

/** How `values` vary (durations in ms when `isDuration`); null when none is a number. */
export function variation(values: Iterable<number | null>, isDuration: boolean): Variation | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return null;
  const step = (isDuration ? durationStep : printedStep)(Math.max(Math.abs(lo), Math.abs(hi)));
  const show = isDuration ? duration : num;
  const text = show(lo) === show(hi) ? show(lo) : `within ${show(lo)} to ${show(hi)}`;
  return { lo, hi, varies: hi - lo >= 2 * step * (1 - 1e-9), text };
}

/**
 * Ticks of a linear axis over [lo, hi]: multiples of a round step (1, 2 or 5 × 10^k, as d3 and
 * vega choose it for about `count` ticks), but never finer than the last digit printed at the
 * axis's largest value (durations in ms when `isDuration`), so that no two ticks print alike.
 * With `count` of 4 or more, values that vary (`variation`) get at least two ticks: the round
 * step is at most 1.6 × span / count, and the printed step at most half the span.
 */
export function axisTicks(lo: number, hi: number, count: number, isDuration = false): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const error = raw / power;
  const round = error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.SQRT2 ? 2 : 1; // d3-array's tickIncrement
  const step = Math.max(round * power, (isDuration ? durationStep : printedStep)(Math.max(Math.abs(lo), Math.abs(hi))));
  const ticks: number[] = [];
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi * (1 + 1e-12) + 1e-12; k++) ticks.push(Number((k * step).toPrecision(12)));
  return ticks;
}
