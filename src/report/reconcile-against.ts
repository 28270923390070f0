/**
 * `reconcile --scenario`: the observed duplicates against the model's (reconcile/against.ts),
 * as a block after the table and as JSON's `against_model`.
 */
import type { ChalkInstance } from 'chalk';
import type { AgainstModel } from '../reconcile/against.js';
import { clipped, printable } from '../scenario/printable.js';
import { duration, num } from './format.js';
import { GAP_BINS, gapBin } from '../reconcile/readings.js';
import { drawRows } from './sweep-table.js';

const count = (n: number): string => n.toLocaleString('en-US');
const pct = (x: number): string => `${num(100 * x)}%`;

/** The verdict in words: consistent, or more or fewer than predicted and by how much. */
export function verdictWords(a: AgainstModel): string {
  if (a.verdict === 'consistent') return `consistent with the model (p = ${num(a.pValue)})`;
  const times = a.ratio === null ? ' (it predicts none)' : `: ${num(a.ratio.value)} times the prediction (${num(a.ratio.low)} – ${num(a.ratio.high)})`;
  return `${a.verdict === 'more' ? 'MORE' : 'FEWER'} duplicates than the model predicts${times}, p = ${num(a.pValue)}`;
}

export function againstTable(a: AgainstModel, chalk: ChalkInstance): string {
  const rows = [
    ['duplicates per 1000 effects, predicted', a.predictedPer1000 === null ? '–' : num(a.predictedPer1000)],
    ['duplicates expected for these business keys', num(a.expected)],
    ['duplicates observed (95% interval)', `${count(a.observed)} (${num(a.observedLow)} – ${num(a.observedHigh)})`],
    ['of the predicted, twins a customer asked for', a.twinShare === null ? '–' : pct(a.twinShare)],
    ...(a.redeliveryAt.length === 0 ? [] : [['its trigger redelivers at (gaps from the first delivery)', a.redeliveryAt.map((ms) => `${duration(ms)} (${GAP_BINS[gapBin(ms)]?.label ?? ''})`).join(', ')]]),
  ];
  const title = `${chalk.bold('Against the model')} ${printable(clipped(a.scenario, 80))}: ${verdictWords(a)}`;
  const how = `the scenario run for ${count(a.simulatedActions)} actions at the observed ${num(a.ratePerS)} business keys/s, reconciled with the same window and retention; exact Poisson test (duplicates cluster: read a p near 0.01 with care)`;
  return `${title}\n${drawRows(['', ''], rows, ['left', 'right'])}\n${chalk.dim(how)}\n`;
}

export function againstJson(a: AgainstModel): Record<string, unknown> {
  return {
    scenario: a.scenario, simulated_actions: a.simulatedActions, rate_per_s: a.ratePerS,
    predicted_per_business_key: a.predictedPerKey, predicted_per_1000: a.predictedPer1000,
    expected: a.expected, observed: a.observed, observed_ci95: [a.observedLow, a.observedHigh],
    p_value: a.pValue, verdict: a.verdict, ratio: a.ratio === null ? null : a.ratio.value,
    ratio_ci95: a.ratio === null ? null : [a.ratio.low, a.ratio.high], twin_share: a.twinShare,
    ...(a.redeliveryAt.length === 0 ? {} : { redelivery_at_ms: a.redeliveryAt }),
  };
}
