/**
 * Resolution: a validated raw scenario and the defaults into a `Scenario` (ms everywhere), and
 * the checks JSON Schema cannot express (across keys, and durations written as strings).
 */
import { assertNever } from '../model/enums.js';
import { DEFAULT_SCENARIO, type Distribution, type LatencySpec, type Scenario } from '../model/types.js';
import { formatPath } from './document.js';
import { formatDuration, parseDuration } from './duration.js';
import { InputError, type Origin } from './errors.js';
import { MAX_DURATION_MS } from './limits.js';
import { isDurationKey } from './schema.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;

type Dur = number | string;
const dur = (v: unknown, def: number): number => (v === undefined ? def : parseDuration(v as Dur));
const optDur = (v: unknown, def: number | null): number | null =>
  v === undefined ? def : v === null || v === 'none' ? null : parseDuration(v as Dur);
const range = (v: unknown, def: { min: number; max: number }) => {
  const r = (v ?? {}) as Raw;
  return { min: dur(r['min'], def.min), max: dur(r['max'], def.max) };
};

function resolveLatency(v: unknown): LatencySpec {
  if (v === undefined) return DEFAULT_SCENARIO.service.latency;
  const r = v as Raw;
  const dist = (r['dist'] as Distribution | undefined) ?? 'lognormal'; // validated against DISTRIBUTIONS
  switch (dist) {
    case 'lognormal': return { dist: 'lognormal', median: dur(r['median'], 300), sigma: (r['sigma'] as number | undefined) ?? 0.6 };
    case 'constant': return { dist: 'constant', value: dur(r['value'], 0) };
    case 'uniform': return { dist: 'uniform', min: dur(r['min'], 0), max: dur(r['max'], 0) };
    case 'exponential': return { dist: 'exponential', mean: dur(r['mean'], 0) };
    case 'empirical': return { dist: 'empirical', file: String(r['file']) };
    case 'mixture':
      return {
        dist: 'mixture',
        components: (r['components'] as Raw[]).map((c) => ({ ...resolveLatency(c), weight: c['weight'] as number })),
      };
    default: return assertNever(dist);
  }
}

export function resolve(raw: Raw): Scenario {
  const D = DEFAULT_SCENARIO;
  const sec = (name: string): Raw => (raw[name] ?? {}) as Raw;
  const pick = <T>(obj: Raw, key: string, def: T): T => (obj[key] === undefined ? def : (obj[key] as T));
  const load = sec('load'), workload = sec('workload'), service = sec('service'), network = sec('network');
  const client = sec('client'), backoff = (client['backoff'] ?? {}) as Raw;
  const agent = sec('agent'), runtime = sec('runtime'), idem = sec('idempotency');
  return {
    actions: pick(raw, 'actions', D.actions),
    load: { rate_per_s: pick(load, 'rate_per_s', D.load.rate_per_s) },
    workload: {
      twin_probability: pick(workload, 'twin_probability', D.workload.twin_probability),
      twin_delay: range(workload['twin_delay'], D.workload.twin_delay),
    },
    service: {
      latency: resolveLatency(service['latency']),
      error_rate: pick(service, 'error_rate', D.service.error_rate),
      crash_probability: pick(service, 'crash_probability', D.service.crash_probability),
      crash_after_effect: pick(service, 'crash_after_effect', D.service.crash_after_effect),
      fast_reply: dur(service['fast_reply'], D.service.fast_reply),
    },
    network: {
      request_loss: pick(network, 'request_loss', D.network.request_loss),
      reply_loss: pick(network, 'reply_loss', D.network.reply_loss),
    },
    client: {
      timeout: dur(client['timeout'], D.client.timeout),
      retries: pick(client, 'retries', D.client.retries),
      deadline: optDur(client['deadline'], D.client.deadline),
      backoff: {
        base: dur(backoff['base'], D.client.backoff.base),
        multiplier: pick(backoff, 'multiplier', D.client.backoff.multiplier),
        max: dur(backoff['max'], D.client.backoff.max),
        jitter: pick(backoff, 'jitter', D.client.backoff.jitter),
      },
    },
    agent: {
      replan_probability: pick(agent, 'replan_probability', D.agent.replan_probability),
      max_replans: pick(agent, 'max_replans', D.agent.max_replans),
      replan_delay: range(agent['replan_delay'], D.agent.replan_delay),
      arg_drift_probability: pick(agent, 'arg_drift_probability', D.agent.arg_drift_probability),
      verify_before_replan: pick(agent, 'verify_before_replan', D.agent.verify_before_replan),
    },
    runtime: {
      crash_probability: pick(runtime, 'crash_probability', D.runtime.crash_probability),
      resume_delay: range(runtime['resume_delay'], D.runtime.resume_delay),
      max_replays: pick(runtime, 'max_replays', D.runtime.max_replays),
    },
    idempotency: {
      scope: pick(idem, 'scope', D.idempotency.scope),
      claim: pick(idem, 'claim', D.idempotency.claim),
      fingerprint: pick(idem, 'fingerprint', D.idempotency.fingerprint),
      retention: dur(idem['retention'], D.idempotency.retention),
      lease: optDur(idem['lease'], D.idempotency.lease),
      transactional: pick(idem, 'transactional', D.idempotency.transactional),
      on_error: pick(idem, 'on_error', D.idempotency.on_error),
      conflict_retry_after: optDur(idem['conflict_retry_after'], D.idempotency.conflict_retry_after),
      record_bytes: pick(idem, 'record_bytes', D.idempotency.record_bytes),
    },
  };
}

/** Constraints that span keys or that JSON Schema cannot say about durations. */
export function checkCrossField(s: Scenario, locate: (p: Path) => Origin): void {
  const fail = (path: Path, problem: string, fix: string): never => {
    throw new InputError(locate(path), formatPath(path), problem, fix);
  };
  if (s.service.error_rate + s.service.crash_probability > 1) {
    fail(['service', 'crash_probability'],
      `error_rate (${s.service.error_rate}) + crash_probability (${s.service.crash_probability}) is above 1, but the two outcomes are exclusive`,
      'Lower one of them so that their sum is at most 1.');
  }
  if (s.client.timeout <= 0) fail(['client', 'timeout'], 'the timeout is 0', 'Give a timeout above 0, such as 1s.');
  const ranges: [Path, { min: number; max: number }][] = [
    [['workload', 'twin_delay'], s.workload.twin_delay],
    [['agent', 'replan_delay'], s.agent.replan_delay],
    [['runtime', 'resume_delay'], s.runtime.resume_delay],
  ];
  for (const [path, r] of ranges) {
    if (r.min > r.max) fail([...path, 'max'], `max (${r.max}ms) is below min (${r.min}ms)`, 'Make max at least min.');
  }
  checkLatency(s.service.latency, ['service', 'latency'], fail);
}

function checkLatency(l: LatencySpec, path: Path, fail: (p: Path, problem: string, fix: string) => never): void {
  if (l.dist === 'lognormal' && l.median <= 0) {
    fail([...path, 'median'], 'the median latency is 0', 'Give a median above 0 (a lognormal has no mass at 0), or use {dist: constant, value: 0}.');
  }
  if (l.dist === 'uniform' && l.min > l.max) fail([...path, 'max'], `max (${l.max}ms) is below min (${l.min}ms)`, 'Make max at least min.');
  if (l.dist === 'mixture') {
    // The schema caps each weight at MAX_WEIGHT, so the sum is finite and every share well defined.
    if (l.components.reduce((sum, c) => sum + c.weight, 0) <= 0) {
      fail([...path, 'components'], 'all mixture weights are 0', 'Give at least one component a weight above 0.');
    }
    l.components.forEach((c, i) => checkLatency(c, [...path, 'components', i], fail));
  }
}

/** Top-level keys that are not the model's: they hold no durations of the model. */
const META_KEYS: ReadonlySet<string> = new Set(['preset', 'hint', 'expect', 'sweep', '$schema', 'description', 'seed']);

/** isDurationKey, remembered: a sweep parses the same keys at every point. */
const DURATION_KEYS = new Map<string, boolean>();
function durationKey(path: string): boolean {
  let known = DURATION_KEYS.get(path);
  if (known === undefined && DURATION_KEYS.size < 10_000) DURATION_KEYS.set(path, known = isDurationKey(path));
  return known ?? isDurationKey(path);
}

/**
 * Every duration at most MAX_DURATION_MS. The schema caps numbers, but a string such as
 * `1<400 zeros>ms` matches the duration pattern and parsed as Infinity (JSON showed null).
 */
export function checkDurations(raw: Raw, locate: (p: Path) => Origin): void {
  const walk = (v: unknown, path: (string | number)[]): void => {
    if (Array.isArray(v)) { v.forEach((x, i) => walk(x, [...path, i])); return; }
    if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) if (path.length > 0 || !META_KEYS.has(k)) walk(x, [...path, k]);
      return;
    }
    if ((typeof v !== 'string' && typeof v !== 'number') || v === 'none' || !durationKey(formatPath(path))) return;
    const ms = parseDuration(v);
    if (!(ms <= MAX_DURATION_MS)) {
      const shown = String(v).trim();
      throw new InputError(locate(path), formatPath(path),
        `${shown.length > 40 ? `"${shown.slice(0, 20)}...${shown.slice(-10)}" (${shown.length} characters)` : `"${shown}"`} is longer than the longest duration the model takes, ${formatDuration(MAX_DURATION_MS)} (10 years)`,
        `Give a duration of at most ${formatDuration(MAX_DURATION_MS)}.`);
    }
  };
  walk(raw, []);
}
