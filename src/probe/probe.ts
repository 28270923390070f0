/**
 * The probe: one small stream of the scenario's actions, run three ways and compared.
 *   - against the real store, in real time compressed by `speedup`, with real concurrency;
 *   - against the model's key store (src/stores/memory.ts) on a virtual clock: the model's
 *     prediction for this very stream, so that any difference is the store's (or real
 *     timing's) doing;
 *   - by the simulator (src/model) on many actions of the scenario: the expected counts and
 *     their spread for a stream of this size.
 * Then the bytes per record of the scenario's record shape are measured in the store.
 */
import { Interrupted } from '../exec/interrupted.js';
import type { Scenario } from '../model/types.js';
import { quantile, type Backend, type BytesMeasurement, type Saturation } from '../stores/backend.js';
import { InputError } from '../scenario/errors.js';
import { reasonOf, StoreError } from '../stores/errors.js';
import { MAX_PROBE_WALL_MS, namespaceLifeMs } from '../stores/lifetime.js';
import { descriptorOf } from '../stores/registry.js';
import type { StoreVariant } from '../stores/types.js';
import { RealClock } from './clock.js';
import { expectedCounts, type SimulatorExpectation } from './expected.js';
import { predictStream, replayStream, type StreamCounts } from './replay.js';
import { autoSpeedup, LATENCY_TARGET, LOAD_TARGET, MAX_AUTO_SPEEDUP, recordShape, storeOptions, variantOf } from './setup.js';
import { ProbeStream } from './stream.js';

/** Longest TTL (ms) of the measurement's records: if the probe dies, Redis drops them soon. */
const MEASURE_TTL_MS = 600_000;

export interface ProbeRequest {
  /** Resolved, with empirical data loaded. Its `idempotency.scope` must not be `none`. */
  scenario: Scenario;
  seed: string;
  /** Primary actions in the stream. */
  actions: number;
  /**
   * Scenario milliseconds per real millisecond. Undefined: the largest, up to
   * MAX_AUTO_SPEEDUP, at which the stream asks at most LOAD_TARGET of the store's capacity
   * and a request's store time stays within LATENCY_TARGET of the client timeout (setup.ts).
   */
  speedup?: number;
  backend: Backend;
  /** Size of the stored response body; default: what is left of `record_bytes` after the key and fingerprint. */
  responseBytes?: number;
  /** Records written to measure bytes per record. */
  measureRecords: number;
  /** Leave the namespace in the store. */
  keep: boolean;
  signal?: AbortSignal;
  /** Before the real run: the stream, the speed-up and how long the run will take. */
  onStart?: (info: StartInfo) => void;
  onProgress?: (done: number, total: number) => void;
}

export interface StartInfo {
  actions: number;
  speedup: number;
  /** The speed-up at which the stream asks LOAD_TARGET of the store's capacity. */
  loadSpeedup: number;
  /** The speed-up at which a request's store time is LATENCY_TARGET of the client timeout. */
  latencySpeedup: number;
  /** Requests per second the stream sends the store at `speedup`, and the store's measured capacity. */
  offeredPerS: number;
  capacityPerS: number;
  scenarioMs: number;
  wallMs: number;
}

export interface OpStats {
  ops: number;
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  by_op: Record<string, { ops: number; p50_ms: number; p99_ms: number }>;
}

export interface ProbeResult {
  store: {
    kind: Backend['kind'];
    url: string;
    variant: StoreVariant;
    namespace: string;
    connections: number;
    /** Left in the store (--keep), else removed; `removed` counts keys (Redis) or key rows (PostgreSQL). */
    kept: boolean;
    removed: number;
  };
  stream: {
    primary_actions: number;
    actions: number;
    speedup: number;
    /** True when the probe chose the speed-up (no --speedup). */
    speedup_auto: boolean;
    /** The speed-up at which the stream would ask LOAD_TARGET of the store's measured capacity. */
    load_speedup: number;
    /** The speed-up at which a request's store time (unloaded) would be LATENCY_TARGET of client.timeout. */
    latency_speedup: number;
    /** Requests per second sent to the store during the replay, and as a share of its capacity. */
    offered_requests_per_s: number;
    load_fraction: number;
    scenario_ms: number;
    wall_ms: number;
  };
  counts: { probe: StreamCounts; model: StreamCounts };
  simulator: SimulatorExpectation;
  operations: { replay: OpStats; saturation: Saturation };
  record: { key_bytes: number; fingerprint_bytes: number; response_bytes: number; content_bytes: number; assumed_record_bytes: number };
  measurement: BytesMeasurement;
}

export async function probe(req: ProbeRequest): Promise<ProbeResult> {
  const { scenario, seed, backend } = req;
  const stream = new ProbeStream(scenario, seed, req.actions);
  const shape = recordShape(scenario, seed, req.responseBytes);
  const variant = variantOf(scenario);
  const { claim, transactional } = scenario.idempotency;

  const model = await predictStream(stream, shape.body);
  const simulator = expectedCounts(scenario, seed, stream.actions.length);

  const wrapError = (e: unknown): unknown => (!(e instanceof StoreError) && isStoreFailure(e) ? storeFailure(backend, e) : e);
  checkWallTime(model.endedAt, req.speedup ?? MAX_AUTO_SPEEDUP, req.actions, req.speedup !== undefined);
  if (req.signal?.aborted) throw new Interrupted();
  await backend.create().catch((e: unknown) => { throw wrapError(e); });
  try {
    // Measure first: the capacity it finds sets the speed-up.
    const measureOpts = storeOptions(scenario, Math.max(1, scenario.idempotency.retention / MEASURE_TTL_MS));
    const { bytes, saturation } = await backend.measure(claim, transactional, measureOpts, shape, req.measureRecords)
      .catch((e: unknown) => { throw wrapError(e); });
    const { requestsPerS, loadSpeedup, latencySpeedup } = speedups(scenario, model.counts.attempts, req.actions, saturation);
    const speedup = req.speedup ?? autoSpeedup(loadSpeedup, latencySpeedup);
    checkWallTime(model.endedAt, speedup, req.actions, req.speedup !== undefined);
    // A signal during the measurement: no replay; the catch below removes the namespace.
    if (req.signal?.aborted) throw new Interrupted();
    // Everything the replay writes expires by then, should this process be killed outright.
    await backend.expireIn(namespaceLifeMs(model.endedAt / speedup)).catch((e: unknown) => { throw wrapError(e); });
    req.onStart?.({
      actions: stream.actions.length, speedup, loadSpeedup, latencySpeedup, offeredPerS: requestsPerS * speedup,
      capacityPerS: saturation.requests_per_second, scenarioMs: model.endedAt, wallMs: model.endedAt / speedup,
    });

    const { probed, wallMs, latencies } = await timedReplay(req, stream, shape.body, speedup, wrapError);
    if (req.signal?.aborted) throw new Interrupted();
    const removed = req.keep ? 0 : await backend.drop().catch((e: unknown) => { throw dropError(backend, e); });
    return {
      store: { kind: backend.kind, url: backend.display, variant, namespace: backend.namespace, connections: backend.connections, kept: req.keep, removed },
      stream: {
        primary_actions: req.actions, actions: stream.actions.length, speedup, speedup_auto: req.speedup === undefined,
        load_speedup: loadSpeedup, latency_speedup: latencySpeedup,
        offered_requests_per_s: requestsPerS * speedup, load_fraction: (requestsPerS * speedup) / saturation.requests_per_second,
        scenario_ms: probed.endedAt, wall_ms: wallMs,
      },
      counts: { probe: probed.counts, model: model.counts },
      simulator,
      operations: { replay: opStats(latencies, wallMs), saturation },
      record: {
        key_bytes: shape.keyLength, fingerprint_bytes: shape.fingerprint.length, response_bytes: shape.body.length,
        content_bytes: shape.keyLength + shape.fingerprint.length + shape.body.length, assumed_record_bytes: scenario.idempotency.record_bytes,
      },
      measurement: bytes,
    };
  } catch (e) {
    const leftBehind = e instanceof StoreError && e.problem.startsWith('cannot remove');
    if (!req.keep && !leftBehind) await backend.drop().catch((d: unknown) => { throw dropError(backend, d); });
    // Once a signal asked the probe to stop, what the store did meanwhile (a pool that timed out
    // as every handler woke at once) is part of the stop, not a failure of its own.
    throw req.signal?.aborted && !leftBehind ? new Interrupted() : e;
  }
}

/** Requests reaching the store per second of scenario time, and the speed-ups the store's load and latency allow. */
function speedups(scenario: Scenario, attempts: number, actions: number, saturation: Saturation) {
  const requestsPerS = (scenario.load.rate_per_s * attempts * (1 - scenario.network.request_loss)) / actions;
  return {
    requestsPerS,
    loadSpeedup: (LOAD_TARGET * saturation.requests_per_second) / requestsPerS,
    latencySpeedup: (LATENCY_TARGET * scenario.client.timeout) / Math.max(saturation.unloaded_request_ms, 1e-3),
  };
}

/** The stream replayed against the store at `speedup`, with its wall time and each operation's latencies. */
async function timedReplay(req: ProbeRequest, stream: ProbeStream, body: string, speedup: number, wrapError: (e: unknown) => unknown) {
  const { claim, transactional } = req.scenario.idempotency;
  const latencies = new Map<string, number[]>();
  const observe = (op: string, ms: number): void => {
    let list = latencies.get(op);
    if (!list) latencies.set(op, (list = []));
    list.push(ms);
  };
  const stores = req.backend.stores(claim, transactional, { ...storeOptions(req.scenario, speedup), observe });
  const started = performance.now();
  const probed = await replayStream(stream, stores, new RealClock(speedup, req.signal), {
    body, wrapError, ...(req.signal ? { signal: req.signal } : {}), ...(req.onProgress ? { onProgress: req.onProgress } : {}),
  });
  return { probed, wallMs: performance.now() - started, latencies };
}

/** Refuses a replay that would take longer than MAX_PROBE_WALL_MS of real time. */
function checkWallTime(scenarioMs: number, speedup: number, actions: number, given: boolean): void {
  const hours = scenarioMs / speedup / 3_600_000;
  if (hours * 3_600_000 <= MAX_PROBE_WALL_MS) return;
  throw new InputError({ source: given ? `--speedup ${speedup}` : `--actions ${actions}` }, '',
    `the probe's stream of ${actions} actions would take ${Math.ceil(hours)} hours of real time${given ? '' : ` even at ×${speedup}`}, and the probe runs for at most ${MAX_PROBE_WALL_MS / 3_600_000} hours`,
    'Give fewer --actions, or a higher --speedup (or a scenario with a higher load.rate_per_s).');
}

/** The probe could not remove what it created: say what is left and how to remove it. */
function dropError(backend: Backend, e: unknown): StoreError {
  const { what, how } = descriptorOf(backend.kind).leftBehind(backend.namespace);
  return new StoreError(backend.display, `cannot remove ${what} (${reasonOf(e)})`, `They are left in the store: ${how}, and give the user the permissions listed in docs/stores.md.`);
}

/** pg-pool's error when a request waited for a free connection longer than the connect timeout. */
const POOL_TIMEOUT = /timeout exceeded when trying to connect/i;

/** A driver's error (a lost connection, a refused command, a pool that kept a request waiting), as opposed to a bug here. */
export function isStoreFailure(e: unknown): boolean {
  const err = e as { name?: unknown; code?: unknown; message?: unknown };
  return typeof err?.code === 'string' || err?.name === 'ReplyError'
    || (typeof err?.message === 'string' && (/connection|timed out|terminat|closed/i.test(err.message) || POOL_TIMEOUT.test(err.message)));
}

/** The store failed during the probe: why, and what to do about it. */
function storeFailure(backend: Backend, e: unknown): StoreError {
  const why = `the store failed during the probe (${reasonOf(e)})`;
  if (POOL_TIMEOUT.test(String((e as { message?: unknown }).message ?? ''))) {
    return new StoreError(backend.display, `${why}: requests waited too long for one of the ${backend.connections} connections`,
      'Lower --speedup, so that the store keeps up with the stream, or give more --connections.');
  }
  return new StoreError(backend.display, why, 'Check that it stays up, and that the user has the permissions listed in docs/stores.md.');
}

function opStats(latencies: Map<string, number[]>, wallMs: number): OpStats {
  const all = [...latencies.values()].flat();
  const byOp: OpStats['by_op'] = {};
  for (const [op, list] of [...latencies.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    byOp[op] = { ops: list.length, p50_ms: quantile(list, 0.5), p99_ms: quantile(list, 0.99) };
  }
  return { ops: all.length, per_second: all.length / (wallMs / 1000), p50_ms: quantile(all, 0.5), p99_ms: quantile(all, 0.99), by_op: byOp };
}

