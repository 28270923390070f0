/** Numbers as the reports write them: three significant digits, CIs, durations in their unit. */
import type { MetricReading } from '../results/metric-paths.js';
import { isAlertPath } from '../results/alert-paths.js';
import { isFlagPath } from '../results/saturation.js';
import { AGENT_PREFIX } from '../agent/expect.js';
import { isDurationReading } from '../scenario/expect.js';
import { halfWidth, type Estimate } from '../results/metrics.js';

/**
 * `x` with thousands separators and between min and max decimals (trailing zeros beyond
 * min dropped). Written out because Intl.NumberFormat costs about 25 ms to start.
 */
function fixed(x: number, minDecimals: number, maxDecimals: number): string {
  const text = Math.abs(x).toFixed(maxDecimals);
  const [int = '', all = ''] = text.split('.');
  let frac = all;
  while (frac.length > minDecimals && frac.endsWith('0')) frac = frac.slice(0, -1);
  const sign = x < 0 && Number(text) !== 0 ? '-' : '';
  return `${sign}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac ? `.${frac}` : ''}`;
}

/** Three significant digits, thousands separated, no exponent; – for null or not finite. */
export function num(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return '–';
  if (x === 0) return '0';
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x))));
  return fixed(x, 0, Math.min(digits, 6));
}

/** A value and its CI half-width, both to the half-width's second significant digit. */
export function withCi(value: number, half: number): string {
  if (!(half > 0)) return num(value);
  const decimals = Math.min(6, Math.max(0, 1 - Math.floor(Math.log10(half))));
  return `${fixed(value, decimals, decimals)} ± ${fixed(half, decimals, decimals)}`;
}

/** Milliseconds in the unit that keeps them readable (ms, s, min, h, d). */
export function duration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '–';
  const units: readonly [number, string][] = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'min'], [1000, 's']];
  for (const [size, unit] of units) if (ms >= size) return `${num(ms / size)} ${unit}`;
  return `${num(ms)} ms`;
}

/** What the reports' footers say of estimateText's forms. */
export const CI_LEGEND = '± is the 95% confidence interval, 0 (≤ x) none seen and at most x at 95%';

/**
 * An estimate as "value ± half-width" (its 95% CI; the upper half, since the lower end is clipped
 * at 0), and a zero as "0 (≤ upper)": the rule of three's bound on what could hide behind it.
 */
export function estimateText(e: Estimate): string {
  return ciText(e.value, e.ci95);
}

function ciText(value: number, ci95: readonly [number, number]): string {
  const hi = ci95[1];
  if (value === 0 && hi > 0 && Number.isFinite(hi)) return `0 (≤ ${num(hi)})`;
  return withCi(value, halfWidth({ value, ci95: [ci95[0], hi] }));
}

/**
 * An agent's reading (docs/agents.md) as estimateText writes it, or, where its interval is lopsided
 * (a sum with a term none of whose kind was seen widens only its upper end), as `value (low to
 * high)`: "±" would give a lower end the interval does not have.
 */
export function agentReadingText(value: number, ci95: readonly [number, number] | null): string {
  if (!ci95) return num(value);
  const [lo, hi] = ci95;
  const below = value - lo, above = hi - value;
  return value > 0 && Math.abs(above - below) > 0.1 * above ? `${num(value)} (${num(lo)} to ${num(hi)})` : ciText(value, ci95);
}

/** A metric's reading as `check` and the sweep tables show it: a duration in its unit, an agent's as its table shows it, else value ± CI. */
export function describeReading(r: MetricReading, metric = ''): string {
  if (isFlagPath(metric)) return r.value === null ? 'none (the window reaches the load\'s end)' : String(r.value === 1);
  if (r.value === null) return isAlertPath(metric) ? 'none (the alert did not fire for it)' : 'no value (no samples)';
  if (isDurationReading(metric)) return duration(r.value);
  if (metric.startsWith(AGENT_PREFIX)) return agentReadingText(r.value, r.ci95 ?? null);
  return r.ci95 ? ciText(r.value, r.ci95) : num(r.value);
}
