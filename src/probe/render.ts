/**
 * The probe's report (docs/stores.md): as JSON, and as the table of its counts beside the
 * model's on the same stream and the simulator's expectation, the store's operations and its
 * bytes per record, and the notes on what the numbers mean.
 */
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import { CONTRACT_VERSION } from '../model/shape.js';
import type { CounterName } from '../model/counters.js';
import type { Scenario } from '../model/types.js';
import { METRICS, perActionMetric, type PerActionMetric } from '../results/metric-registry.js';
import { duration, num } from '../report/format.js';
import { resolvedScenario, roundNoise } from '../report/json.js';
import { descriptorOf, measurementRows } from '../stores/registry.js';
import type { ProbeResult } from './probe.js';
import type { StreamCounts } from './replay.js';

export function renderProbeJson(r: ProbeResult, info: { file: string | null; seed: string; scenario: Scenario; replay: string; version: string }): string {
  const { version, file, seed, scenario, replay } = info;
  const doc = { tool: 'idem-sim', kind: 'probe', version, model: CONTRACT_VERSION, time_unit: 'ms', replay, file, seed, scenario: resolvedScenario(scenario), ...r };
  return `${JSON.stringify(doc, roundNoise, 2)}\n`;
}

const ms = (x: number): string => `${num(x)} ms`;
/** An expected count, to a tenth. */
const tenth = (x: number): string => num(Math.round(x * 10) / 10);
const bytes = (x: number): string => `${num(Math.round(x))} B`;

type CountRow = readonly [label: string, key: keyof StreamCounts] | readonly [section: string];
/** The run table's label of the metric that is `counter` per action or per 1000 (metric-registry.ts). */
const metricLabelOf = (counter: CounterName) => METRICS[(perActionMetric(counter) as PerActionMetric).path].label;
const COUNT_ROWS: readonly CountRow[] = [
  ['Side effects (the store\'s effects log)'],
  ['executions', 'executions'],
  ['duplicates (executions beyond the first)', 'duplicates'],
  ['  actions executed more than once', 'duplicated_actions'],
  ['lost (never executed)', 'lost'],
  ['  of which twins merged', 'merged'],
  ['Replies from the key store'],
  [metricLabelOf('conflicts_409'), 'conflicts_409'],
  [metricLabelOf('mismatches_422'), 'mismatches_422'],
  [metricLabelOf('dedup_hits'), 'dedup_hits'],
  ['Client'],
  ['attempts', 'attempts'],
  [metricLabelOf('unknown_outcomes'), 'unknown_outcomes'],
];

export function renderProbeTable(r: ProbeResult, info: { seed: string; replay: string; version: string }, chalk: ChalkInstance): string {
  const plain = { head: [], border: [] }; // no colour codes of its own: chalk decides
  const noRules = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
  const s = r.stream;
  const counts = new Table({
    head: [`${num(s.actions)} actions${s.actions !== s.primary_actions ? ` (${num(s.primary_actions)} primary)` : ''}`,
      chalk.bold(`probe: ${r.store.kind} ${r.store.variant}`), chalk.bold('model, same stream'), chalk.bold('simulator: expected (95% of streams)')],
    style: plain, chars: noRules, colAligns: ['left', 'right', 'right', 'right'],
  });
  for (const row of COUNT_ROWS) {
    if (row.length === 1) {
      counts.push([chalk.bold.cyan(row[0]), '', '', '']);
      continue;
    }
    const [label, key] = row;
    const e = r.simulator.expected[key];
    const probed = r.counts.probe[key];
    const differs = probed !== r.counts.model[key];
    counts.push([label, differs ? chalk.yellow(`${num(probed)}*`) : num(probed), num(r.counts.model[key]),
      e ? `${tenth(e.value)} (${tenth(e.spread95[0])}–${tenth(e.spread95[1])})` : '']);
  }

  const o = r.operations;
  const m = r.measurement;
  const store = new Table({ style: plain, chars: noRules, colAligns: ['left', 'left'] });
  store.push([chalk.bold.cyan('Store operations'), '']);
  store.push(['during the replay', `${num(o.replay.ops)} ops in ${duration(s.wall_ms)} (${num(o.replay.per_second)}/s on average), p50 ${ms(o.replay.p50_ms)}, p99 ${ms(o.replay.p99_ms)}`]);
  for (const [op, st] of Object.entries(o.replay.by_op)) store.push([`  ${op}`, `${num(st.ops)} ops, p50 ${ms(st.p50_ms)}, p99 ${ms(st.p99_ms)}`]);
  store.push(['one request alone (claim, effect, complete)', ms(o.saturation.unloaded_request_ms)]);
  store.push([`at full speed (${num(o.saturation.connections)} connections)`,
    `${num(o.saturation.requests_per_second)} requests/s (${num(o.saturation.ops_per_second)} ops/s), p50 ${ms(o.saturation.p50_ms)}, p99 ${ms(o.saturation.p99_ms)}`]);
  store.push(['load while actions arrive', `${num(s.offered_requests_per_s)} requests/s (load.rate_per_s × attempts per action × ${num(s.speedup)}), ${num(s.load_fraction * 100)}% of full speed`]);
  store.push([chalk.bold.cyan('Bytes per record'), '']);
  store.push(['record content (what the model sizes)',
    `${bytes(r.record.content_bytes)}: key ${r.record.key_bytes}, fingerprint ${r.record.fingerprint_bytes}, response ${r.record.response_bytes}; the scenario assumes ${bytes(r.record.assumed_record_bytes)}`]);
  store.push([chalk.bold('measured bytes per record'), chalk.bold(`${bytes(m.bytes_per_record)} (${num(m.bytes_per_record / r.record.assumed_record_bytes)}× the assumed ${bytes(r.record.assumed_record_bytes)})`)]);
  for (const [label, values] of measurementRows(r.store.kind, m)) store.push([label, values.map(bytes).join(', ')]);

  const notes: string[] = [];
  const words = descriptorOf(r.store.kind);
  const p = r.counts.probe;
  const model = r.counts.model;
  if (r.store.variant === 'check_then_act') {
    notes.push(`check_then_act is the broken variant: ${num(p.duplicated_actions)} actions executed more than once (the model: ${num(model.duplicated_actions)}).`);
  } else if (p.duplicates > model.duplicates) {
    notes.push(`the store executed ${num(p.duplicates - model.duplicates)} more duplicates than the model predicts for this stream: check the claim (docs/stores.md).`);
  }
  if (s.load_fraction > 0.5) notes.push(`the store ran at ${num(s.load_fraction * 100)}% of its measured capacity: queueing adds latency the model does not have; lower --speedup.`);
  const footer = [
    ...notes,
    `${r.store.url}, ${words.namespaceNoun} ${r.store.namespace}${r.store.kept ? ' (kept)' : `, removed afterwards (${num(r.store.removed)} ${words.objectsNoun})`}; ${num(r.store.connections)} connections`,
    `time ×${num(s.speedup)}${s.speedup_auto ? ` (chosen: at most 10, ×${num(s.load_speedup)} keeps the store under 40% load, ×${num(s.latency_speedup)} keeps its time per request under 2% of the timeout)` : ''}: ${duration(s.scenario_ms)} of scenario time in ${duration(s.wall_ms)}`,
    '*: the probe differs from the model on the same stream (real timing; see docs/stores.md); (a–b): where 95% of streams of this size fall',
    `simulator: ${num(r.simulator.actions)} actions simulated, scaled to this stream; seed ${info.seed}; idem-sim ${info.version}`,
    `replay: ${info.replay}`,
  ];
  return `${counts.toString()}\n${store.toString()}\n${chalk.dim(footer.join('\n'))}\n`;
}
