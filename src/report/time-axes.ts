/** Axes of the report's series charts: ticks on the run's time (in minutes) and on a rate, and run times in words. */

/** A time of the run in minutes and seconds, as the charts count it: "20 min", "20 min 1.5 s", "30 s", "0.25 s". */
export function runTime(ms: number): string {
  const whole = Math.floor(ms / 60_000 + 1e-9);
  const seconds = Number(((ms - whole * 60_000) / 1000).toFixed(3));
  if (whole === 0) return `${seconds} s`;
  return seconds === 0 ? `${whole} min` : `${whole} min ${seconds} s`;
}

/** Tick steps of the time axis (ms), from 1 s to a week. */
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800].map((s) => s * 1000);

/** Ticks from 0 to `max` ms, at most 8 intervals, on a step people count in (1 s ... 10 min, 1 h, 1 d ...). */
export function timeTicks(max: number, most = 8): number[] {
  const step = TIME_STEPS.find((s) => max / s <= most) ?? Math.ceil(max / most / 604_800_000) * 604_800_000;
  return Array.from({ length: Math.floor(max / step + 1e-9) + 1 }, (_, k) => k * step);
}

/** The tick step of a value axis up to `max`: 1, 2, 2.5 or 5 times a power of ten, about `intervals` of them. */
function valueStep(max: number, intervals: number): number {
  const raw = max / intervals;
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw * (1 - 1e-9)) ?? 10) * power;
}

/** A value axis holding `max`: its top (the next tick at or above `max`, 1 when `max` is 0) and its ticks from 0. */
export function valueAxis(max: number, intervals = 4): { top: number; ticks: number[] } {
  if (!(max > 0)) return { top: 1, ticks: [0, 0.5, 1] };
  const step = valueStep(max, intervals);
  const count = Math.ceil(max / step - 1e-9);
  return { top: count * step, ticks: Array.from({ length: count + 1 }, (_, k) => Number((k * step).toPrecision(12))) };
}
