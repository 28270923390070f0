/**
 * `idem-sim probe [SCENARIO] --store URL`: the scenario's requests against a real key store,
 * side by side with the model's prediction, and the store's bytes per record (docs/stores.md).
 */
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import type { Scenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import type { Backend } from '../stores/backend.js';
import { StoreError } from '../stores/errors.js';
import type { ProbeResult } from '../probe/probe.js';
import type { StreamCounts } from '../probe/replay.js';
import { checkConnections, checkReplayBytes, checkResponseBytes, measureRecords } from '../probe/limits.js';
import { parseStoreUrl } from '../stores/url.js';
import { readUserFile } from './files.js';
import { PendingOutput } from './outputs.js';
import { chalkFor, shellQuote, toolVersion, type Io } from './io.js';
import { positiveInteger, positiveNumber, seedOption } from './options.js';
import { progressBar } from './progress.js';
import { duration, num } from './report/format.js';
import { resolvedScenario, roundNoise } from './report/json.js';
import { DEFAULT_SEED, loadScenario, parseOverrides } from './run.js';

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
  const out = opts.out !== undefined ? new PendingOutput(opts.out, files) : null;
  try {
    if (opts.store === undefined) {
      throw new InputError({ source: 'probe' }, '', '--store is missing',
        'Name the store to probe, such as --store redis://127.0.0.1:6379 or --store postgres://user@127.0.0.1:5432/database.');
    }
    const url = (() => { try { return parseStoreUrl(opts.store); } catch (e) { throw asInputError(e); } })();
    const overrides = parseOverrides({ ...(opts.set ? { set: opts.set } : {}) });
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
    const { scenario, seed } = loadScenario(file, overrides, { allowOutside: opts.allowOutside === true });
    checkProbeable(scenario, file, url.kind);
    const body = checkResponseBytes(responseBytes === undefined || opts.responseBytes === undefined ? undefined : { flag: '--response-bytes', text: opts.responseBytes, value: responseBytes },
      scenario.idempotency.record_bytes, file ?? '(built-in lab defaults)');
    const records = measureRecords(opts.records, recordsGiven, body);
    checkReplayBytes(actions, body);
    const useSeed = opts.seed ?? seed ?? DEFAULT_SEED;
    const [{ probe }, { defaultConnections }] = await Promise.all([import('../probe/probe.js'), import('../probe/setup.js')]);
    const needed = defaultConnections(scenario);
    const connections = opts.connections === undefined ? needed : checkConnections(opts.connections, positiveInteger('--connections', opts.connections));
    if (connections < needed && scenario.idempotency.transactional && scenario.idempotency.claim === 'atomic') {
      io.stderr.write(`idem-sim: warning: transactional holds a connection for each running handler; about ${needed} run at once here, so with ${connections} requests will queue for a connection (the model has no such queue)\n`);
    }
    if (speedup !== undefined && scenario.client.timeout / speedup < MIN_REAL_TIMEOUT_MS) {
      io.stderr.write(`idem-sim: warning: at --speedup ${opts.speedup} the client timeout of ${duration(scenario.client.timeout)} lasts ${num(scenario.client.timeout / speedup)} ms of real time, close to timer and store jitter; expect the probe to drift from the model\n`);
    }

    const { openBackend } = await import('../stores/open.js');
    let backend: Backend;
    try {
      backend = await openBackend(opts.store, connections);
    } catch (e) {
      throw asInputError(e);
    }
    let result: ProbeResult;
    const bar = progressBar(io.stderr, 'probe');
    try {
      result = await probe({
        scenario, seed: useSeed, actions, backend, measureRecords: records, keep: opts.keep === true,
        ...(speedup !== undefined ? { speedup } : {}), ...(responseBytes !== undefined ? { responseBytes } : {}),
        ...(signal ? { signal } : {}), onProgress: bar.update,
        onStart: (info) => {
          if (speedup !== undefined && speedup > info.loadSpeedup * 1.25) {
            io.stderr.write(`idem-sim: warning: at --speedup ${opts.speedup} the probe asks ${num(info.offeredPerS)} requests/s of a store that handled ${num(info.capacityPerS)}/s at full speed: queueing will add latency the model does not have (--speedup ${num(Math.max(1, Math.floor(info.loadSpeedup * 10) / 10))} or less keeps it under 40%)\n`);
          } else if (speedup !== undefined && speedup > info.latencySpeedup * 1.25) {
            io.stderr.write(`idem-sim: warning: at --speedup ${opts.speedup} the store's own time per request weighs more than 2% of the client timeout, and slows handlers more than in production (--speedup ${num(Math.max(1, Math.floor(info.latencySpeedup * 10) / 10))} or less keeps it under)\n`);
          }
          if (io.stderr.isTTY) io.stderr.write(`idem-sim: probing ${url.display}: ${num(info.actions)} actions, ${duration(info.scenarioMs)} of scenario time in about ${duration(info.wallMs)} (time ×${num(info.speedup)})\n`);
        },
      }).finally(() => bar.stop());
    } catch (e) {
      throw asInputError(e);
    } finally {
      await backend.close().catch(() => undefined);
    }
    const replay = ['idem-sim', 'probe', ...files, ...(opts.allowOutside ? ['--allow-outside'] : []), '--store', url.display, '--seed', useSeed, '--actions', String(actions),
      ...(opts.set ?? []).flatMap((s) => ['--set', s]), ...(opts.speedup !== undefined ? ['--speedup', opts.speedup] : []),
      ...(opts.responseBytes !== undefined ? ['--response-bytes', opts.responseBytes] : []),
      ...(opts.connections !== undefined ? ['--connections', opts.connections] : []),
      ...(opts.records !== undefined ? ['--records', opts.records] : []), ...(opts.json ? ['--json'] : [])]
      .map(shellQuote).join(' ');
    const text = opts.json
      ? renderProbeJson(result, { file, seed: useSeed, scenario, replay })
      : renderProbeTable(result, { seed: useSeed, replay }, chalkFor(out ? {} : io.stdout, io.env));
    if (out) out.commit(text, io.stdout);
    else io.stdout.write(text);
    return 0;
  } finally {
    out?.abort();
  }
}

function nonNegativeInteger(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    throw new InputError({ source: `${flag} ${text}` }, '', `expected a whole number >= 0, got "${text}"`, `Give ${flag} a value such as 0 or 2000.`);
  }
  return n;
}

/** What the probe cannot do, said before it connects to anything. */
function checkProbeable(s: Scenario, file: string | null, kind: 'redis' | 'postgres'): void {
  const source = file ?? '(built-in lab defaults)';
  if (s.idempotency.scope === 'none') {
    throw new InputError({ source }, 'idempotency.scope', 'is none: requests carry no key, so there is nothing for a key store to do',
      'Probe a scenario with a key, or add --set idempotency.scope=intent (or call, business, text, attempt).');
  }
  if (kind === 'redis' && s.idempotency.transactional) {
    throw new InputError({ source }, 'idempotency.transactional', 'is true, and Redis cannot commit the side effect with the key',
      'Probe it on PostgreSQL (--store postgres://...), or add --set idempotency.transactional=false.');
  }
}

export function renderProbeJson(r: ProbeResult, info: { file: string | null; seed: string; scenario: Scenario; replay: string }): string {
  const doc = {
    tool: 'idem-sim', kind: 'probe', version: toolVersion(), model: 1, time_unit: 'ms', replay: info.replay,
    file: info.file, seed: info.seed, scenario: resolvedScenario(info.scenario), ...r,
  };
  return `${JSON.stringify(doc, roundNoise, 2)}\n`;
}

const ms = (x: number): string => `${num(x)} ms`;
/** An expected count, to a tenth. */
const tenth = (x: number): string => num(Math.round(x * 10) / 10);
const bytes = (x: number): string => `${num(Math.round(x))} B`;

type CountRow = readonly [label: string, key: keyof StreamCounts] | readonly [section: string];
const COUNT_ROWS: readonly CountRow[] = [
  ['Side effects (the store\'s effects log)'],
  ['executions', 'executions'],
  ['duplicates (executions beyond the first)', 'duplicates'],
  ['  actions executed more than once', 'duplicated_actions'],
  ['lost (never executed)', 'lost'],
  ['  of which twins merged', 'merged'],
  ['Replies from the key store'],
  ['409 in progress', 'conflicts_409'],
  ['422 fingerprint mismatch', 'mismatches_422'],
  ['dedup hits (stored result replayed)', 'dedup_hits'],
  ['Client'],
  ['attempts', 'attempts'],
  ['unknown outcomes returned to the model', 'unknown_outcomes'],
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
  if (m.redis) {
    store.push(['  MEMORY USAGE (value, key, keyspace entry)', bytes(m.redis.memory_usage)]);
    store.push(['  expiry entry (TTL)', bytes(m.redis.expiry_overhead)]);
    store.push(['  INFO used_memory delta (cross-check)', bytes(m.redis.info_delta)]);
  }
  if (m.postgres) {
    const w = m.postgres.as_written;
    const v = m.postgres.after_vacuum_full;
    store.push(['  as written: table, TOAST, index', `${bytes(w.table)}, ${bytes(w.toast)}, ${bytes(w.index)}`]);
    store.push(['  after VACUUM FULL: table, TOAST, index, total', `${bytes(v.table)}, ${bytes(v.toast)}, ${bytes(v.index)}, ${bytes(v.total)}`]);
  }

  const notes: string[] = [];
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
    `${r.store.url}, ${r.store.kind === 'redis' ? 'prefix' : 'schema'} ${r.store.namespace}${r.store.kept ? ' (kept)' : `, removed afterwards (${num(r.store.removed)} ${r.store.kind === 'redis' ? 'keys' : 'key rows'})`}; ${num(r.store.connections)} connections`,
    `time ×${num(s.speedup)}${s.speedup_auto ? ` (chosen: at most 10, ×${num(s.load_speedup)} keeps the store under 40% load, ×${num(s.latency_speedup)} keeps its time per request under 2% of the timeout)` : ''}: ${duration(s.scenario_ms)} of scenario time in ${duration(s.wall_ms)}`,
    '*: the probe differs from the model on the same stream (real timing; see docs/stores.md); (a–b): where 95% of streams of this size fall',
    `simulator: ${num(r.simulator.actions)} actions simulated, scaled to this stream; seed ${info.seed}; idem-sim ${toolVersion()}`,
    `replay: ${info.replay}`,
  ];
  return `${counts.toString()}\n${store.toString()}\n${chalk.dim(footer.join('\n'))}\n`;
}

/** What `size --from-probe` takes from a probe's JSON result. */
export interface ProbeSizing {
  bytesPerRecord: number;
  ratePerS: number;
  retentionMs: number;
  source: string;
}

/** Reads `probe --json --out FILE`, with errors that say what is wrong with the file. */
export function readProbeFile(path: string): ProbeSizing {
  const text = readUserFile(path, 'the probe result');
  const fix = 'Give the file written by idem-sim probe SCENARIO --store URL --json --out FILE.';
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new InputError({ source: `--from-probe ${path}` }, '', 'is not JSON', fix);
  }
  const d = doc as { kind?: unknown; measurement?: { bytes_per_record?: unknown }; scenario?: { load?: { rate_per_s?: unknown }; idempotency?: { retention?: unknown } }; store?: { kind?: unknown; url?: unknown } };
  if (d?.kind !== 'probe') throw new InputError({ source: `--from-probe ${path}` }, '', 'is not a probe result (no "kind": "probe")', fix);
  const positive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;
  const bytesPerRecord = d.measurement?.bytes_per_record;
  const rate = d.scenario?.load?.rate_per_s;
  const retention = d.scenario?.idempotency?.retention;
  if (!positive(bytesPerRecord)) throw new InputError({ source: `--from-probe ${path}` }, 'measurement.bytes_per_record', 'is missing or not a positive number', fix);
  if (!positive(rate) || !positive(retention)) throw new InputError({ source: `--from-probe ${path}` }, 'scenario', 'lacks load.rate_per_s or idempotency.retention', fix);
  return {
    bytesPerRecord, ratePerS: rate, retentionMs: retention,
    source: `measured by idem-sim probe on ${String(d.store?.kind ?? 'a store')} (${path})`,
  };
}
