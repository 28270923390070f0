/**
 * `idem-sim probe [SCENARIO] --store URL`: the scenario's requests against a real key store,
 * side by side with the model's prediction, and the store's bytes per record (docs/stores.md).
 */
import { CONTRACT_VERSION } from '../model/shape.js';
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import type { Scenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import type { Backend } from '../stores/backend.js';
import { StoreError } from '../stores/errors.js';
import type { ProbeResult, StartInfo } from '../probe/probe.js';
import type { StreamCounts } from '../probe/replay.js';
import type { CounterName } from '../model/counters.js';
import { METRICS, perActionMetric, type PerActionMetric } from '../results/metric-registry.js';
import { checkConnections, checkReplayBytes, checkResponseBytes, measureRecords } from '../probe/limits.js';
import { descriptorOf, measurementRows, STORE_EXAMPLES, TRANSACTIONAL_STORES, type StoreKind } from '../stores/registry.js';
import { parseStoreUrl, type StoreUrl } from '../stores/url.js';
import { toolVersion, warn, type Io } from './io.js';
import { positiveInteger, positiveNumber, seedOption } from './options.js';
import { progressBar } from './progress.js';
import { duration, num } from '../report/format.js';
import { resolvedScenario, roundNoise } from '../report/json.js';
import { scenarioReader } from './shared/load.js';
import { usesTime } from '../model/clock.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed } from './shared/simulate.js';
import { clipped } from '../scenario/printable.js';

export interface ProbeOptions {
  /** Read data files outside the scenario file's directory. */
  allowOutside?: boolean;
  store?: string;
  speedup?: string;
  actions?: string;
  seed?: string;
  set?: string[];
  connections?: string;
  responseBytes?: string;
  records?: string;
  keep?: boolean;
  cleanUp?: boolean;
  force?: boolean;
  json?: boolean;
  out?: string;
}

/** Primary actions in the probe's stream unless --actions says otherwise (a few seconds of real time). */
export const DEFAULT_PROBE_ACTIONS = 200;
/** The probe is for small streams: the model's same-stream prediction runs about 10,000 actions a second. */
export const MAX_PROBE_ACTIONS = 100_000;
/** Records written to measure bytes per record (page rounding in PostgreSQL: at most 8 kB / 1000 = 8 bytes a row). */
export { DEFAULT_MEASURE_RECORDS } from '../probe/limits.js';
/** Below this many real milliseconds per client timeout, timer and store jitter swamp the scenario's timing. */
const MIN_REAL_TIMEOUT_MS = 20;

/** A StoreError as the CLI reports it: exit 2, naming --store and the fix. */
export function asInputError(e: unknown): unknown {
  return e instanceof StoreError ? new InputError({ source: `--store ${e.url}` }, '', e.problem, e.fix) : e;
}

export async function probeCommand(files: string[], opts: ProbeOptions, io: Io, signal?: AbortSignal): Promise<number> {
  if (files.length > 1) throw new InputError(undefined, '', 'probe takes one scenario at most', 'Probe one scenario at a time.');
  if (opts.cleanUp) return (await import('./clean-up.js')).cleanUpCommand(files, opts, io);
  if (opts.force) throw new InputError({ source: '--force' }, '', 'goes with --clean-up only', 'Write idem-sim probe --clean-up --force --store URL, or leave --force out.');
  return withOutput(io, opts.out, files, async (out) => {
    const s = probeSettings(files, opts);
    const { defaultConnections } = await import('../probe/setup.js');
    const connections = connectionCount(s.scenario, opts.connections, defaultConnections(s.scenario), io);
    if (s.speedup !== undefined && s.scenario.client.timeout / s.speedup < MIN_REAL_TIMEOUT_MS) {
      warn(io, `at --speedup ${opts.speedup} the client timeout of ${duration(s.scenario.client.timeout)} lasts ${num(s.scenario.client.timeout / s.speedup)} ms of real time, close to timer and store jitter; expect the probe to drift from the model`);
    }
    const result = await runProbe(s, connections, opts, io, signal);
    const replay = new ReplayLine('probe', files, opts).option('--store', s.url.display).option('--seed', s.seed).option('--actions', String(s.actions))
      .each('--set', opts.set).option('--speedup', opts.speedup).option('--response-bytes', opts.responseBytes).option('--connections', opts.connections)
      .option('--records', opts.records).flag('--json', opts.json).text();
    out.write(opts.json
      ? renderProbeJson(result, { file: s.file, seed: s.seed, scenario: s.scenario, replay })
      : renderProbeTable(result, { seed: s.seed, replay }, out.style()));
    return 0;
  });
}

/** What the options and the scenario ask of the probe, all checked before it connects to anything. */
interface ProbeSettings {
  store: string;
  url: StoreUrl;
  file: string | null;
  scenario: Scenario;
  seed: string;
  actions: number;
  speedup: number | undefined;
  responseBytes: number | undefined;
  records: number;
}

function probeSettings(files: readonly string[], opts: ProbeOptions): ProbeSettings {
  if (opts.store === undefined) {
    throw new InputError({ source: 'probe' }, '', '--store is missing',
      `Name the store to probe, such as ${STORE_EXAMPLES}.`);
  }
  const store = opts.store;
  const url = (() => { try { return parseStoreUrl(store); } catch (e) { throw asInputError(e); } })();
  // --actions is the probe's stream, not the scenario's: only --set changes the scenario.
  const read = scenarioReader({ set: opts.set, allowOutside: opts.allowOutside }, null);
  seedOption(opts.seed);
  const actions = opts.actions === undefined ? DEFAULT_PROBE_ACTIONS : positiveInteger('--actions', opts.actions);
  if (actions > MAX_PROBE_ACTIONS) {
    throw new InputError({ source: `--actions ${opts.actions}` }, '', `the probe replays at most ${num(MAX_PROBE_ACTIONS)} actions`,
      'Probe a few hundred actions (the default is 200); use idem-sim run for large numbers.');
  }
  const speedup = opts.speedup === undefined ? undefined : positiveNumber('--speedup', opts.speedup);
  const recordsGiven = opts.records === undefined ? undefined : positiveInteger('--records', opts.records);
  const responseBytes = opts.responseBytes === undefined ? undefined : nonNegativeInteger('--response-bytes', opts.responseBytes);
  const file = files[0] ?? null;
  const { scenario, seed } = read(file);
  checkProbeable(scenario, file, url.kind);
  const body = checkResponseBytes(responseBytes === undefined || opts.responseBytes === undefined ? undefined : { flag: '--response-bytes', text: opts.responseBytes, value: responseBytes },
    scenario.idempotency.record_bytes, file ?? '(built-in lab defaults)');
  const records = measureRecords(opts.records, recordsGiven, body);
  checkReplayBytes(actions, body);
  return { store, url, file, scenario, seed: runSeed(opts.seed, seed), actions, speedup, responseBytes, records };
}

/** --connections, or as many as the scenario's running handlers need; a warning when transactional handlers will queue for one. */
function connectionCount(scenario: Scenario, text: string | undefined, needed: number, io: Io): number {
  const connections = text === undefined ? needed : checkConnections(text, positiveInteger('--connections', text));
  if (connections < needed && scenario.idempotency.transactional && scenario.idempotency.claim === 'atomic') {
    warn(io, `transactional holds a connection for each running handler; about ${needed} run at once here, so with ${connections} requests will queue for a connection (the model has no such queue)`);
  }
  return connections;
}

/** Connects, replays the stream with a progress bar, and closes the connections, whatever happens. */
async function runProbe(s: ProbeSettings, connections: number, opts: ProbeOptions, io: Io, signal: AbortSignal | undefined): Promise<ProbeResult> {
  const [{ probe }, { openBackend }] = await Promise.all([import('../probe/probe.js'), import('../stores/open.js')]);
  let backend: Backend;
  try {
    backend = await openBackend(s.store, connections);
  } catch (e) {
    throw asInputError(e);
  }
  const bar = progressBar(io.stderr, 'probe');
  try {
    return await probe({
      scenario: s.scenario, seed: s.seed, actions: s.actions, backend, measureRecords: s.records, keep: opts.keep === true,
      ...(s.speedup !== undefined ? { speedup: s.speedup } : {}), ...(s.responseBytes !== undefined ? { responseBytes: s.responseBytes } : {}),
      ...(signal ? { signal } : {}), onProgress: bar.update, onStart: (info) => startNotes(info, s, opts, io),
    }).finally(() => bar.stop());
  } catch (e) {
    throw asInputError(e);
  } finally {
    await backend.close().catch(() => undefined);
  }
}

/** Once the store's speed is measured: a warning when --speedup asks more of it than the model assumes, and on a terminal what the probe will do. */
function startNotes(info: StartInfo, s: ProbeSettings, opts: ProbeOptions, io: Io): void {
  const { speedup } = s;
  if (speedup !== undefined && speedup > info.loadSpeedup * 1.25) {
    warn(io, `at --speedup ${opts.speedup} the probe asks ${num(info.offeredPerS)} requests/s of a store that handled ${num(info.capacityPerS)}/s at full speed: queueing will add latency the model does not have (--speedup ${num(Math.max(1, Math.floor(info.loadSpeedup * 10) / 10))} or less keeps it under 40%)`);
  } else if (speedup !== undefined && speedup > info.latencySpeedup * 1.25) {
    warn(io, `at --speedup ${opts.speedup} the store's own time per request weighs more than 2% of the client timeout, and slows handlers more than in production (--speedup ${num(Math.max(1, Math.floor(info.latencySpeedup * 10) / 10))} or less keeps it under)`);
  }
  if (io.stderr.isTTY) io.stderr.write(`idem-sim: probing ${s.url.display}: ${num(info.actions)} actions, ${duration(info.scenarioMs)} of scenario time in about ${duration(info.wallMs)} (time ×${num(info.speedup)})\n`);
}

function nonNegativeInteger(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    throw new InputError({ source: `${flag} ${text}` }, '', `expected a whole number >= 0, got "${clipped(text, 80)}"`, `Give ${flag} a value such as 0 or 2000.`);
  }
  return n;
}

/** What the probe cannot do, said before it connects to anything. */
function checkProbeable(s: Scenario, file: string | null, kind: StoreKind): void {
  const source = file ?? '(built-in lab defaults)';
  if (s.idempotency.scope === 'none') {
    throw new InputError({ source }, 'idempotency.scope', 'is none: requests carry no key, so there is nothing for a key store to do',
      'Probe a scenario with a key, or add --set idempotency.scope=intent (or call, business, text, attempt).');
  }
  if (usesTime(s)) {
    const key = s.incidents.length > 0 ? 'incidents' : s.alerts.length > 0 ? 'alerts' : s.load.profile.length > 0 ? 'load.profile' : s.load.duration !== null ? 'load.duration' : 'idempotency.on_store_down';
    throw new InputError({ source }, key, 'is a key of time (docs/model.md, "Time"), and the probe replays a steady stream of requests against the store, without incidents, profiles or alerts',
      'Probe the scenario without its time keys (a copy without them, or --set with their defaults), and use idem-sim run for the incidents.');
  }
  const store = descriptorOf(kind);
  if (!store.transactional && s.idempotency.transactional) {
    throw new InputError({ source }, 'idempotency.transactional', `is true, and ${store.label} cannot commit the side effect with the key`,
      `Probe it on ${TRANSACTIONAL_STORES}, or add --set idempotency.transactional=false.`);
  }
}

export function renderProbeJson(r: ProbeResult, info: { file: string | null; seed: string; scenario: Scenario; replay: string }): string {
  const doc = {
    tool: 'idem-sim', kind: 'probe', version: toolVersion(), model: CONTRACT_VERSION, time_unit: 'ms', replay: info.replay,
    file: info.file, seed: info.seed, scenario: resolvedScenario(info.scenario), ...r,
  };
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

export function renderProbeTable(r: ProbeResult, info: { seed: string; replay: string }, chalk: ChalkInstance): string {
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
    `simulator: ${num(r.simulator.actions)} actions simulated, scaled to this stream; seed ${info.seed}; idem-sim ${toolVersion()}`,
    `replay: ${info.replay}`,
  ];
  return `${counts.toString()}\n${store.toString()}\n${chalk.dim(footer.join('\n'))}\n`;
}
