/**
 * Resolution: a validated raw scenario and the defaults into a `Scenario` (ms everywhere), and
 * the checks JSON Schema cannot express (across keys, and durations written as strings).
 */
import { assertNever } from '../model/enums.js';
import { DEFAULT_DISTRIBUTION, formOf, LATENCY_FORMS, type Distribution, type LatencySpec, type WrittenLatency } from '../model/latency.js';
import { MAX_DURATION_MS } from '../model/limits.js';
import { rangeEnds, type Param, type Params } from '../model/params.js';
import { DEFAULT_SCENARIO, SCENARIO_SHAPE, type WrittenScenario } from '../model/shape.js';
import { formatPath, valueAt } from './document.js';
import { bareDurationFix, formatDuration, isBareDuration, parseDuration } from './duration.js';
import { InputError, type Origin } from './errors.js';
import { isDurationKey } from './schema.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;
type Locate = (path: Path) => Origin | undefined;

/**
 * A written value of a parameter (validated against the schema), resolved: a missing key takes
 * its default, durations become ms, `none` becomes null. One walk over `model/shape.ts`.
 */
function resolveParam(p: Param, v: unknown, path: Path, locate: Locate): unknown {
  if (p.kind === 'section') return resolveParams(p.params, (v ?? {}) as Raw, path, locate);
  if (p.kind === 'list') return v === undefined || v === null || v === 'none' ? [] : (v as Raw[]).map((item, i) => resolveParams(p.of.params, item, [...path, i], locate));
  if (p.kind === 'optional') {
    if (v === undefined || v === null || v === 'none') return null;
    // A preset's name (the schema allowed only those strings) stands for its values, written as a file writes them.
    return resolveParams(p.params, typeof v === 'string' ? (p.presets[v]?.values ?? {}) : v as Raw, path, locate);
  }
  if (v === undefined) return p.kind === 'latency' ? DEFAULT_SCENARIO.service.latency : p.kind === 'range' ? { ...p.default } : p.kind === 'durations' ? [...p.default] : 'default' in p ? p.default : null;
  switch (p.kind) {
    case 'override': return resolveParam(p.of, v, path, locate);
    case 'duration': return parseDuration(v as number | string);
    case 'optional_duration': return v === null || v === 'none' ? null : parseDuration(v as number | string);
    case 'durations': return (v as (number | string)[]).map(parseDuration);
    case 'count_or_unbounded': return v === 'unbounded' ? null : v;
    case 'range': return resolveParams(rangeEnds(p), v as Raw, path, locate);
    case 'latency': return resolveLatency(v as Raw, path, locate);
    case 'components': return (v as Raw[]).map((c, i) => ({ ...resolveLatency(c, [...path, i], locate), weight: c['weight'] as number }));
    case 'probability': case 'count': case 'number': case 'flag': case 'choice': case 'text': return v;
    default: return assertNever(p);
  }
}

function resolveParams(params: Params, raw: Raw, path: Path, locate: Locate): Raw {
  return Object.fromEntries(Object.entries(params).map(([k, p]) => [k, resolveParam(p, raw[k], [...path, k], locate)]));
}

function resolveLatency(r: Raw, path: Path, locate: Locate): WrittenLatency {
  const dist = (r['dist'] as Distribution | undefined) ?? DEFAULT_DISTRIBUTION; // validated against DISTRIBUTIONS
  const form = LATENCY_FORMS[dist];
  const fit = form.fit;
  if (fit && Object.keys(fit.keys).some((k) => r[k] !== undefined)) {
    // Every key written under the distribution, in ms (the schema allowed only the form's own and its fit's).
    const all: Params = { ...form.keys, ...fit.keys };
    const written = Object.fromEntries(Object.keys(r).filter((k) => Object.hasOwn(all, k))
      .map((k) => [k, resolveParam(all[k] as Param, r[k], [...path, k], locate) as number]));
    const spec = fit.from(written);
    if ('problem' in spec) throw new InputError(locate([...path, spec.key]), formatPath([...path, spec.key]), spec.problem, spec.fix);
    return spec as WrittenLatency;
  }
  // A form's keys without defaults are required by the schema, so every one is written.
  return { dist, ...resolveParams(form.keys, r, path, locate) } as WrittenLatency;
}

/** A validated raw scenario, with the defaults, in ms; `locate` places a problem found on the way. */
export function resolve(raw: Raw, locate: Locate = () => undefined): WrittenScenario {
  return resolveParams(SCENARIO_SHAPE.params, raw, [], locate) as WrittenScenario;
}

/** Constraints that span keys or that JSON Schema cannot say about durations. */
export function checkCrossField(s: WrittenScenario, locate: (p: Path) => Origin): void {
  const fail = (path: Path, problem: string, fix: string): never => {
    throw new InputError(locate(path), formatPath(path), problem, fix);
  };
  if (s.service.error_rate + s.service.crash_probability > 1) {
    fail(['service', 'crash_probability'],
      `error_rate (${s.service.error_rate}) + crash_probability (${s.service.crash_probability}) is above 1, but the two outcomes are exclusive`,
      'Lower one of them so that their sum is at most 1.');
  }
  if (s.client.timeout <= 0) fail(['client', 'timeout'], 'the timeout is 0', 'Give a timeout above 0, such as 1s.');
  for (const path of RANGE_PATHS) {
    const r = valueAt(s, path) as { min: number; max: number };
    if (r.min > r.max) fail([...path, 'max'], `max (${r.max}ms) is below min (${r.min}ms)`, 'Make max at least min.');
  }
  checkLatency(s.service.latency, ['service', 'latency'], fail);
}

function checkLatency(l: WrittenLatency, path: Path, fail: (p: Path, problem: string, fix: string) => never): void {
  // A form's checks read its settings, never its data (not loaded yet).
  const found = formOf(l as LatencySpec).check?.(l as LatencySpec);
  if (found) fail([...path, found.key, ...(found.at ?? [])], found.problem, found.fix);
  if (l.dist === 'mixture') l.components.forEach((c, i) => checkLatency(c, [...path, 'components', i], fail));
}

/** Every range of the shape (`workload.twin_delay`, ...): its min may not pass its max. */
const RANGE_PATHS: readonly string[][] = (function ranges(params: Params, at: string[]): string[][] {
  return Object.entries(params).flatMap(([k, p]) => (p.kind === 'range' ? [[...at, k]] : p.kind === 'section' ? ranges(p.params, [...at, k]) : []));
})(SCENARIO_SHAPE.params, []);

/** isDurationKey, remembered: a sweep parses the same keys at every point. */
const DURATION_KEYS = new Map<string, boolean>();
function durationKey(path: string): boolean {
  let known = DURATION_KEYS.get(path);
  if (known === undefined && DURATION_KEYS.size < 10_000) DURATION_KEYS.set(path, known = isDurationKey(path));
  return known ?? isDurationKey(path);
}

/** Every leaf of the model's keys that holds a duration, with its path. */
function durationLeaves(raw: Raw): { path: (string | number)[]; value: number | string }[] {
  const out: { path: (string | number)[]; value: number | string }[] = [];
  const walk = (v: unknown, path: (string | number)[]): void => {
    if (Array.isArray(v)) { v.forEach((x, i) => walk(x, [...path, i])); return; }
    if (typeof v === 'object' && v !== null) {
      // At the top, the model's keys only: `expect:`, `sweep:` and the like hold none of its durations.
      for (const [k, x] of Object.entries(v)) if (path.length > 0 || Object.hasOwn(SCENARIO_SHAPE.params, k)) walk(x, [...path, k]);
      return;
    }
    if ((typeof v === 'string' || typeof v === 'number') && v !== 'none' && durationKey(formatPath(path))) out.push({ path, value: v });
  };
  walk(raw, []);
  return out;
}

/**
 * A duration written as a bare number (`timeout: 2`, `--set client.timeout=2`) is refused before
 * the schema speaks, with a fix that names both readings: users mean seconds as often as ms.
 */
export function checkBareDurations(raw: Raw, locate: (p: Path) => Origin): void {
  const bare = durationLeaves(raw).find((d) => isBareDuration(d.value));
  if (!bare) return;
  const shown = String(bare.value).trim();
  throw new InputError(locate(bare.path), formatPath(bare.path),
    `${shown.length > 20 ? `a number of ${shown.length} characters` : shown} has no unit`, bareDurationFix(shown.length > 20 ? 'N' : shown, longByDefault(bare.path)));
}

/** Whether the key's built-in default is a minute or more (idempotency.retention, runtime.resume_delay.max): its bare number more likely means hours or minutes. */
function longByDefault(path: Path): boolean {
  const v = valueAt(DEFAULT_SCENARIO, path.filter((k): k is string => typeof k === 'string'));
  return typeof v === 'number' && v >= 60_000;
}

/**
 * Every duration at most MAX_DURATION_MS. The schema caps numbers, but a string such as
 * `1<400 zeros>ms` matches the duration pattern and parsed as Infinity (JSON showed null).
 */
export function checkDurations(raw: Raw, locate: (p: Path) => Origin): void {
  for (const { path, value: v } of durationLeaves(raw)) {
    const ms = parseDuration(v);
    if (!(ms <= MAX_DURATION_MS)) {
      const shown = String(v).trim();
      throw new InputError(locate(path), formatPath(path),
        `${shown.length > 40 ? `"${shown.slice(0, 20)}...${shown.slice(-10)}" (${shown.length} characters)` : `"${shown}"`} is longer than the longest duration the model takes, ${formatDuration(MAX_DURATION_MS)} (10 years)`,
        `Give a duration of at most ${formatDuration(MAX_DURATION_MS)}.`);
    }
  }
}
