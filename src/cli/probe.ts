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
import { DEFAULT_PROBE_ACTIONS } from '../probe/defaults.js';
import { descriptorOf, measurementRows, STORE_EXAMPLES, TRANSACTIONAL_STORES, type StoreKind } from '../stores/registry.js';
import { parseStoreUrl, type StoreUrl } from '../stores/url.js';
import { toolVersion, warn, type Io } from './io.js';
import { progressBar } from './progress.js';
import { duration, num } from '../report/format.js';
import { resolvedScenario, roundNoise } from '../report/json.js';
import { scenarioReader } from './shared/load.js';
import { usesTime } from '../model/clock.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed } from './shared/simulate.js';
import type { Given } from './settings/given.js';
import { outputSettings, type OutputOptions, type OutputSettings } from './settings/output.js';
import { scenarioSettings, type ScenarioSettings } from './settings/scenario.js';
import type { Override } from '../scenario/parse.js';

/** `probe`'s command line as commander parsed it (main.ts declares it). */
export interface ProbeOptions extends OutputOptions {
  store?: string;
  /** Primary actions in the probe's stream (not an override of the scenario's). */
  actions?: Given<number>;
  seed?: Given<string>;
  set?: readonly Given<Override>[];
  allowOutside?: boolean;
  speedup?: Given<number>;
  connections?: Given<number>;
  responseBytes?: Given<number>;
  records?: Given<number>;
  keep?: boolean; cleanUp?: boolean; force?: boolean;
}

/** What `probe` is asked: the store, the scenario and its stream, how to drive the store, and the output. */
export interface ProbeSettings {
  /** --store URL, read against the store registry when the probe starts (stores/url.ts). */
  store: string | undefined;
  /** --set and --allow-outside: --actions is the probe's stream, not the scenario's. */
  scenario: ScenarioSettings;
  seed: Given<string> | undefined;
  actions: Given<number> | undefined;
  speedup: Given<number> | undefined;
  connections: Given<number> | undefined;
  responseBytes: Given<number> | undefined;
  records: Given<number> | undefined;
  keep: boolean; cleanUp: boolean; force: boolean;
  output: OutputSettings<never>;
}

export function probeSettings(opts: ProbeOptions): ProbeSettings {
  return {
    store: opts.store, scenario: scenarioSettings({ set: opts.set, allowOutside: opts.allowOutside }),
    seed: opts.seed, actions: opts.actions, speedup: opts.speedup, connections: opts.connections, responseBytes: opts.responseBytes, records: opts.records,
    keep: opts.keep === true, cleanUp: opts.cleanUp === true, force: opts.force === true, output: outputSettings(opts),
  };
}

/** The probe is for small streams: the model's same-stream prediction runs about 10,000 actions a second. */
export const MAX_PROBE_ACTIONS = 100_000;
/** Below this many real milliseconds per client timeout, timer and store jitter swamp the scenario's timing. */
const MIN_REAL_TIMEOUT_MS = 20;

/** A StoreError as the CLI reports it: exit 2, naming --store and the fix. */
export function asInputError(e: unknown): unknown {
  return e instanceof StoreError ? new InputError({ source: `--store ${e.url}` }, '', e.problem, e.fix) : e;
}

export async function probeCommand(files: string[], s: ProbeSettings, io: Io, signal?: AbortSignal): Promise<number> {
  if (files.length > 1) throw new InputError(undefined, '', 'probe takes one scenario at most', 'Probe one scenario at a time.');
  if (s.cleanUp) return (await import('./clean-up.js')).cleanUpCommand(files, s, io);
  if (s.force) throw new InputError({ source: '--force' }, '', 'goes with --clean-up only', 'Write idem-sim probe --clean-up --force --store URL, or leave --force out.');
  return withOutput(io, s.output.out, files, async (out) => {
    const plan = probePlan(files, s);
    const { defaultConnections } = await import('../probe/setup.js');
    const connections = connectionCount(plan.scenario, s.connections, defaultConnections(plan.scenario), io);
    if (plan.speedup !== undefined && plan.scenario.client.timeout / plan.speedup < MIN_REAL_TIMEOUT_MS) {
      warn(io, `at --speedup ${s.speedup?.text} the client timeout of ${duration(plan.scenario.client.timeout)} lasts ${num(plan.scenario.client.timeout / plan.speedup)} ms of real time, close to timer and store jitter; expect the probe to drift from the model`);
    }
    const result = await runProbe(plan, connections, s, io, signal);
    const replay = new ReplayLine('probe', files, s.scenario).option('--store', plan.url.display).option('--seed', plan.seed).option('--actions', String(plan.actions))
      .each('--set', s.scenario.set.map((given) => given.text)).given('--speedup', s.speedup).given('--response-bytes', s.responseBytes).given('--connections', s.connections)
      .given('--records', s.records).flag('--json', s.output.json).text();
    out.write(s.output.json
      ? renderProbeJson(result, { file: plan.file, seed: plan.seed, scenario: plan.scenario, replay })
      : renderProbeTable(result, { seed: plan.seed, replay }, out.style()));
    return 0;
  });
}

/** What the settings and the scenario ask of the probe, all checked before it connects to anything. */
interface ProbePlan {
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

function probePlan(files: readonly string[], s: ProbeSettings): ProbePlan {
  if (s.store === undefined) {
    throw new InputError({ source: 'probe' }, '', '--store is missing',
      `Name the store to probe, such as ${STORE_EXAMPLES}.`);
  }
  const store = s.store;
  const url = (() => { try { return parseStoreUrl(store); } catch (e) { throw asInputError(e); } })();
  const read = scenarioReader(s.scenario, null);
  const seedGiven = s.seed?.value;
  const actions = s.actions === undefined ? DEFAULT_PROBE_ACTIONS : s.actions.value;
  if (actions > MAX_PROBE_ACTIONS) {
    throw new InputError({ source: `--actions ${s.actions?.text}` }, '', `the probe replays at most ${num(MAX_PROBE_ACTIONS)} actions`,
      'Probe a few hundred actions (the default is 200); use idem-sim run for large numbers.');
  }
  const speedup = s.speedup?.value;
  const recordsGiven = s.records?.value;
  const responseBytes = s.responseBytes?.value;
  const file = files[0] ?? null;
  const { scenario, seed } = read(file);
  checkProbeable(scenario, file, url.kind);
  const body = checkResponseBytes(responseBytes === undefined || s.responseBytes === undefined ? undefined : { flag: '--response-bytes', text: s.responseBytes.text, value: responseBytes },
    scenario.idempotency.record_bytes, file ?? '(built-in lab defaults)');
  const records = measureRecords(s.records?.text, recordsGiven, body);
  checkReplayBytes(actions, body);
  return { store, url, file, scenario, seed: runSeed(seedGiven, seed), actions, speedup, responseBytes, records };
}

/** --connections, or as many as the scenario's running handlers need; a warning when transactional handlers will queue for one. */
function connectionCount(scenario: Scenario, given: Given<number> | undefined, needed: number, io: Io): number {
  const connections = given === undefined ? needed : checkConnections(given.text, given.value);
  if (connections < needed && scenario.idempotency.transactional && scenario.idempotency.claim === 'atomic') {
    warn(io, `transactional holds a connection for each running handler; about ${needed} run at once here, so with ${connections} requests will queue for a connection (the model has no such queue)`);
  }
  return connections;
}

/** Connects, replays the stream with a progress bar, and closes the connections, whatever happens. */
async function runProbe(p: ProbePlan, connections: number, s: ProbeSettings, io: Io, signal: AbortSignal | undefined): Promise<ProbeResult> {
  const [{ probe }, { openBackend }] = await Promise.all([import('../probe/probe.js'), import('../stores/open.js')]);
  let backend: Backend;
  try {
    backend = await openBackend(p.store, connections);
  } catch (e) {
    throw asInputError(e);
  }
  const bar = progressBar(io.stderr, 'probe');
  try {
    return await probe({
      scenario: p.scenario, seed: p.seed, actions: p.actions, backend, measureRecords: p.records, keep: s.keep,
      ...(p.speedup !== undefined ? { speedup: p.speedup } : {}), ...(p.responseBytes !== undefined ? { responseBytes: p.responseBytes } : {}),
      ...(signal ? { signal } : {}), onProgress: bar.update, onStart: (info) => startNotes(info, p, s.speedup?.text, io),
    }).finally(() => bar.stop());
  } catch (e) {
    throw asInputError(e);
  } finally {
    await backend.close().catch(() => undefined);
  }
}

/** Once the store's speed is measured: a warning when --speedup asks more of it than the model assumes, and on a terminal what the probe will do. */
function startNotes(info: StartInfo, p: ProbePlan, speedupText: string | undefined, io: Io): void {
  const { speedup } = p;
  if (speedup !== undefined && speedup > info.loadSpeedup * 1.25) {
    warn(io, `at --speedup ${speedupText} the probe asks ${num(info.offeredPerS)} requests/s of a store that handled ${num(info.capacityPerS)}/s at full speed: queueing will add latency the model does not have (--speedup ${num(Math.max(1, Math.floor(info.loadSpeedup * 10) / 10))} or less keeps it under 40%)`);
  } else if (speedup !== undefined && speedup > info.latencySpeedup * 1.25) {
    warn(io, `at --speedup ${speedupText} the store's own time per request weighs more than 2% of the client timeout, and slows handlers more than in production (--speedup ${num(Math.max(1, Math.floor(info.latencySpeedup * 10) / 10))} or less keeps it under)`);
  }
  if (io.stderr.isTTY) io.stderr.write(`idem-sim: probing ${p.url.display}: ${num(info.actions)} actions, ${duration(info.scenarioMs)} of scenario time in about ${duration(info.wallMs)} (time ×${num(info.speedup)})\n`);
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
