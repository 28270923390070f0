/** `idem-sim alerts`'s table: each alert as the simulation judges it and as the Prometheus rule that fires with it. */
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import type { WrittenScenario } from '../model/types.js';
import { duration, num } from './format.js';
import { promDuration, type PrometheusAlert } from './prometheus-rules.js';

type Alert = WrittenScenario['alerts'][number];

/** `rules` are `alerts` translated, in the same order. */
export function renderAlertsTable(rules: readonly PrometheusAlert[], alerts: readonly Alert[], step: number, chalk: ChalkInstance): string {
  const table = new Table({
    head: ['alert', `simulated, on ${duration(step)} buckets`, `Prometheus rule, evaluated every ${promDuration(step)}`, 'for:'].map((h) => chalk.bold(h)),
    style: { head: [], border: [] },
  });
  rules.forEach((r, i) => {
    const a = alerts[i] as Alert;
    table.push([r.name, `${a.metric} > ${num(a.above)}/s${a.for > 0 ? ` for ${duration(a.for)}` : ''}`, r.expr, r.for > 0 ? promDuration(r.for) : '–']);
  });
  const notes = [
    `A rule reads the count of the ${promDuration(step)} just ended (increase) against above × ${promDuration(step)}, and waits one bucket less (for:)`,
    'than the simulated alert, which sees its first bucket whole before Prometheus finds it above (docs/prometheus-rules.md).',
    'The rules for Prometheus: --format prometheus --out FILE; a test of them on the simulated series, the rules it reads',
    'written beside it: --format promtool-test --out FILE.',
  ];
  return `${table.toString()}\n${chalk.dim(notes.join('\n'))}\n`;
}
