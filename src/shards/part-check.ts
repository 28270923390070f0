/**
 * The checks `merge` makes on every field of a part file (`run --shard` and `sweep --shard`
 * write them): types, ranges and lengths, and the digest that seals the file. A part is an
 * intermediate file that travels between machines; one that was edited, truncated or mixed
 * up must be refused with the file and the field named, never with its contents echoed.
 */
import { COUPLING_KEYS } from '../model/capacity.js';
import { GUARD_NAMES } from '../model/guards.js';
import { createHash } from 'node:crypto';
import type { BinsData } from '../engine/bins.js';
import { NUM_COUNTERS } from '../model/counters.js';
import { decodeSeries, type RunStateData } from '../results/metrics.js';
import type { GridData } from '../engine/peak.js';
import { LATENCY_FORMS, type Distribution, type WrittenLatency } from '../model/latency.js';
import { MAX_DURATION_MS, MAX_SERIES_BUCKETS } from '../model/limits.js';
import type { Param, Section } from '../model/params.js';
import { NUM_SERIES, SERIES_NAMES, seriesTotal, seriesTotalFromSums } from '../model/series.js';
import { SCENARIO_SHAPE } from '../model/shape.js';
import { DEFAULT_SCENARIO, type WrittenScenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { checkScenarioShape } from './part-shape.js';
import { capacityOf, counterSums } from './part-capacity.js';
import { formValues } from './part-latency.js';

/**
 * Largest part file `merge` reads: 64 MiB. The file is read whole, as one string, and parsed;
 * merging needs about four times the part's size at its peak (text, parsed copy, grids
 * decoded: a 247 MiB part took 1.1 GB and aborted V8 in a 512 MB heap), so a 64 MiB part
 * merges in under 300 MB. A run's part is a few MiB per scenario (its peak grid is at most
 * about 2^20 cells, 5.6 MB of base64); only a shard of a large sweep comes near it, and
 * `sweep --shard` refuses to write one past it, saying how many shards would fit.
 */
export const MAX_PART_BYTES = 64 * 1024 * 1024;

/**
 * Most cells a part's peak grid may reach: 2^24 (64 MiB as the merged Int32 grid, twice that
 * while it grows). A run's grid step is chosen so its expected span is at most 2^20 cells
 * (engine/peak.ts); 16 times that is no real run's, and a forged `base` of 10^9 cannot make
 * merge allocate gigabytes.
 */
export const MAX_GRID_CELLS = 2 ** 24;

/**
 * Bins keys a latency can have: the sketch's key of Number.MAX_VALUE ms is 70,978, and that of
 * its smallest value about -69,000; 2^17 keeps a forged offset from allocating much (2 MiB).
 */
const BIN_KEY_LIMIT = 2 ** 17;

/** The counts in a part are sums of integers per action: whole, at least 0, exact in a double. */
const MAX_COUNT = Number.MAX_SAFE_INTEGER;

const DAMAGED = 'The part was altered or damaged since it was written: run that shard again (the same command with its --shard i/n) to write it anew.';

/** Reads the fields of one part, naming `file` and the field in every error. */
export class PartChecker {
  constructor(readonly file: string) {}

  /** Refuses the part: `field` is a short key path, never a value from the file. */
  fail(field: string, problem: string, fix = DAMAGED): never {
    throw new InputError({ source: this.file }, field, problem, fix);
  }

  object(v: unknown, field: string, required: readonly string[], optional: readonly string[] = []): Record<string, unknown> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(field, 'expected an object');
    const o = v as Record<string, unknown>;
    for (const k of required) if (!Object.hasOwn(o, k)) this.fail(join(field, k), 'is missing');
    const unknown = Object.keys(o).find((k) => !required.includes(k) && !optional.includes(k));
    if (unknown !== undefined) this.fail(field, `has a field idem-sim does not write (${unknown.length <= 40 && /^[\w.$-]+$/.test(unknown) ? unknown : 'with an unusual name'})`);
    return o;
  }

  array(v: unknown, field: string, min = 0, max = Infinity): unknown[] {
    if (!Array.isArray(v)) this.fail(field, 'expected an array');
    if (v.length < min || v.length > max) {
      this.fail(field, min === max ? `expected ${min} entries, found ${v.length}` : `expected ${min} to ${max} entries, found ${v.length}`);
    }
    return v;
  }

  int(v: unknown, field: string, min = 0, max = MAX_COUNT): number {
    if (typeof v !== 'number' || !Number.isInteger(v)) this.fail(field, 'expected a whole number');
    if (v < min || v > max) this.fail(field, `expected a whole number from ${min} to ${max}`);
    return v;
  }

  number(v: unknown, field: string, min = 0, max = Number.MAX_VALUE): number {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(field, 'expected a finite number');
    if (v < min || v > max) this.fail(field, `expected a number from ${min} to ${max}`);
    return v;
  }

  string(v: unknown, field: string, maxLength = 4096, pattern?: RegExp): string {
    if (typeof v !== 'string') this.fail(field, 'expected a string');
    if (v.length > maxLength) this.fail(field, `is longer than ${maxLength} characters`);
    if (pattern && !pattern.test(v)) this.fail(field, 'is not in the form idem-sim writes');
    return v;
  }

  strings(v: unknown, field: string, max = 10_000): string[] {
    return this.array(v, field, 0, max).map((s, i) => this.string(s, `${field}[${i}]`));
  }

  /**
   * A run's (or a point's) sums: counts whole and >= 0, arrays of the model's lengths, grid in
   * bounds; a series exactly when the run counts one (`seriesStep`, results/alerts.ts's
   * seriesStepOf), of that step, each count adding up to its sum (series.ts); the measures of
   * the workers exactly when the run is `coupled` (model/capacity.ts); every counter of "Inbound
   * delivery" when it is `triggered`.
   */
  runState(v: unknown, field: string, gridStep: number, seriesStep: number | null, coupled = false, triggered = false): RunStateData {
    const o = this.object(v, field, ['primaries', 'actions', 'handlerRuns', 'handlerRunsOverTimeout', 'attemptsUnknown', 'sum', 'sumSq', 'callLatency', 'actionLatency', 'grid'], ['series', 'capacity']);
    const count = (k: string) => this.int(o[k], join(field, k));
    const s: RunStateData = {
      primaries: count('primaries'), actions: count('actions'), handlerRuns: count('handlerRuns'),
      handlerRunsOverTimeout: count('handlerRunsOverTimeout'), attemptsUnknown: count('attemptsUnknown'),
      sum: counterSums(this, o['sum'], join(field, 'sum'), coupled, triggered), sumSq: counterSums(this, o['sumSq'], join(field, 'sumSq'), coupled, triggered),
      callLatency: this.bins(o['callLatency'], join(field, 'callLatency')), actionLatency: this.bins(o['actionLatency'], join(field, 'actionLatency')),
      grid: this.grid(o['grid'], join(field, 'grid'), gridStep),
      ...(o['series'] === undefined ? {} : { series: this.series(o['series'], join(field, 'series')) }),
      ...capacityOf(this, o['capacity'], join(field, 'capacity'), coupled, o['actions'] as number), // actions: checked above
    };
    this.seriesAgrees(s, join(field, 'series'), seriesStep);
    // Relations every real run keeps: twins come on top of primaries, a count's square is at least the count.
    if (s.actions < s.primaries) this.fail(join(field, 'actions'), 'is below primaries');
    if (s.handlerRunsOverTimeout > s.handlerRuns) this.fail(join(field, 'handlerRunsOverTimeout'), 'is above handlerRuns');
    s.sum.forEach((x, k) => { if ((s.sumSq[k] as number) < x) this.fail(`${join(field, 'sumSq')}[${k}]`, 'is below its sum'); });
    return s;
  }

  counts(v: unknown, field: string, length?: number): number[] {
    return this.array(v, field, length ?? 0, length ?? Infinity).map((x, i) => this.int(x, `${field}[${i}]`));
  }

  bins(v: unknown, field: string): BinsData {
    const o = this.object(v, field, ['offset', 'counts', 'zero']);
    const offset = this.int(o['offset'], join(field, 'offset'), -BIN_KEY_LIMIT, BIN_KEY_LIMIT);
    const counts = this.counts(o['counts'], join(field, 'counts'));
    if (offset + counts.length > BIN_KEY_LIMIT) this.fail(join(field, 'counts'), `reaches past bin ${BIN_KEY_LIMIT}, beyond any latency`);
    return { offset, counts, zero: this.int(o['zero'], join(field, 'zero')) };
  }

  /** A string that is exactly the base64 of bytes of a length `fits` takes (`what` says which). */
  private base64(v: unknown, field: string, fits: (length: number) => boolean, what: string): { text: string; bytes: Buffer } {
    const text = this.string(v, field, Infinity, /^[A-Za-z0-9+/]*={0,2}$/);
    const bytes = Buffer.from(text, 'base64');
    if (!fits(bytes.length) || bytes.toString('base64') !== text) this.fail(field, `is not the base64 of ${what}`);
    return { text, bytes };
  }

  /** A series: whole counts >= 0, bucket by bucket, as many as it says (series.ts), the last holding an event. */
  private series(v: unknown, field: string): NonNullable<RunStateData['series']> {
    const o = this.object(v, field, ['step', 'buckets', 'counts']);
    const step = this.number(o['step'], join(field, 'step'), 1, MAX_DURATION_MS);
    const buckets = this.int(o['buckets'], join(field, 'buckets'), 0, MAX_SERIES_BUCKETS);
    const { text: counts, bytes } = this.base64(o['counts'], join(field, 'counts'), (n) => n === buckets * NUM_SERIES * 8, `${buckets} buckets of ${NUM_SERIES} counts`);
    for (let i = 0; i < bytes.length; i += 8) {
      const x = bytes.readDoubleLE(i);
      if (!(Number.isSafeInteger(x) && x >= 0)) this.fail(join(field, 'counts'), 'holds a count that is not a whole number >= 0');
    }
    return { step, buckets, counts };
  }

  /** A series as the run counts it, holding the events its sums count (a resealed edit adds or drops some). */
  private seriesAgrees(s: RunStateData, field: string, step: number | null): void {
    const series = s.series;
    if (!series) {
      if (step !== null) this.fail(field, `is missing, but the run counts one (its step ${step} ms: --series, or the 1-minute buckets of its alerts or incidents)`);
      return;
    }
    if (step === null) this.fail(field, 'is there, but the run counts none (no --series, no alerts and no incidents)');
    if (series.step !== step) this.fail(join(field, 'step'), `is not ${step}, the step the run counts its series with`);
    const decoded = decodeSeries(series);
    for (const name of SERIES_NAMES) {
      const total = seriesTotal(decoded, name);
      const expected = seriesTotalFromSums(name, s);
      if (total !== expected) this.fail(join(field, 'counts'), `holds ${total} ${name} in all, but the part's sums count ${expected}`);
    }
  }

  /** The grid's differences: +1 where a record starts, -1 where it ends, so they sum to 0 and never go below it. */
  private grid(v: unknown, field: string, step: number): GridData {
    const o = this.object(v, field, ['step', 'base', 'diff']);
    if (o['step'] !== step) this.fail(join(field, 'step'), 'differs from grid_step');
    const base = this.int(o['base'], join(field, 'base'), 0, MAX_GRID_CELLS);
    const { text: diff, bytes } = this.base64(o['diff'], join(field, 'diff'), (n) => n % 4 === 0, '32-bit differences');
    if (base + bytes.length / 4 > MAX_GRID_CELLS) this.fail(join(field, 'base'), `puts the grid past ${MAX_GRID_CELLS} cells`);
    let live = 0;
    for (let i = 0; i < bytes.length; i += 4) {
      live += bytes.readInt32LE(i);
      if (live < 0) this.fail(join(field, 'diff'), 'ends more records than it starts');
    }
    if (live !== 0) this.fail(join(field, 'diff'), 'starts records it never ends');
    return { step, base, diff };
  }

  /** A resolved scenario as reports print it: the model's keys, each of its type, numbers finite. */
  scenario(v: unknown, field: string): WrittenScenario {
    const s = this.shape(v, PART_TEMPLATE, field) as WrittenScenario;
    checkScenarioShape(this, s, field);
    return s;
  }

  private shape(v: unknown, template: unknown, field: string): unknown {
    if (field.endsWith('service.latency')) return this.latency(v, field, 0);
    if (template === null) return v === null ? null : this.number(v, field); // deadline, lease, conflict_retry_after, an incident's changes
    if (template === NULLABLE_FLAG) { // an incident's store.down
      if (v !== null && typeof v !== 'boolean') this.fail(field, 'expected true, false or null');
      return v;
    }
    if (template instanceof OptionalSample) return v === null ? null : this.shape(v, template.keys, field); // service.capacity, client.breaker ...
    if (Array.isArray(template)) return this.array(v, field, 0, 1000).map((x, i) => this.shape(x, template[0], `${field}[${i}]`)); // incidents, alerts, load.profile
    if (typeof template === 'number') return this.number(v, field);
    if (typeof template === 'string') return this.string(v, field, 64);
    if (typeof template === 'boolean') {
      if (typeof v !== 'boolean') this.fail(field, 'expected true or false');
      return v;
    }
    const t = template as Record<string, unknown>;
    // Without a key of "Capacity", a later guard it does not set (model/shape.ts) or a trigger (a part before version 4): null.
    const absent = Object.keys(t).filter((k) => COUPLING_KEYS.some((end) => join(field, k).endsWith(end)) || (k === 'trigger' && t[k] instanceof OptionalSample));
    const o = this.object(v, field, Object.keys(t).filter((k) => !absent.includes(k)), absent);
    for (const k of absent) if (!Object.hasOwn(o, k)) o[k] = t[k] instanceof OptionalSample ? null : { workers: null };
    for (const k of Object.keys(t)) this.shape(o[k], t[k], join(field, k));
    return o;
  }

  private latency(v: unknown, field: string, depth: number): WrittenLatency {
    const dist = this.object(v, field, ['dist'], [...new Set(Object.values(LATENCY_FORMS).flatMap((f) => Object.keys(f.keys))), 'weight', 'fitted_to'])['dist'];
    const own = typeof dist === 'string' && Object.hasOwn(LATENCY_FORMS, dist) ? Object.keys(LATENCY_FORMS[dist as Distribution].keys) : undefined;
    if (!own) this.fail(join(field, 'dist'), 'is not a distribution idem-sim knows');
    const fitted = typeof dist === 'string' && LATENCY_FORMS[dist as Distribution].fit !== undefined;
    const o = this.object(v, field, ['dist', ...own], [...(depth > 0 ? ['weight'] : []), ...(fitted ? ['fitted_to'] : [])]);
    if (depth > 0) this.number(o['weight'], join(field, 'weight'));
    if (o['fitted_to'] !== undefined) {
      const to = this.object(o['fitted_to'], join(field, 'fitted_to'), [], Object.keys(LATENCY_FORMS[dist as Distribution].fit?.keys ?? {}).concat(own));
      for (const k of Object.keys(to)) this.number(to[k], join(join(field, 'fitted_to'), k));
    }
    if (dist === 'mixture') {
      if (depth >= 8) this.fail(field, 'nests mixtures more than 8 deep');
      this.array(o['components'], join(field, 'components'), 1, 10_000).forEach((c, i) => this.latency(c, `${join(field, 'components')}[${i}]`, depth + 1));
    } else formValues(this, o, field, LATENCY_FORMS[dist as Distribution]);
    return o as unknown as WrittenLatency;
  }
}


/** The sample of an override of a flag: true, false, or null (not set). */
const NULLABLE_FLAG = Symbol('a flag or null');
/** The sample of an optional section: null (`none`), or a mapping of its keys' samples. */
class OptionalSample { constructor(readonly keys: Readonly<Record<string, unknown>>) {} }

/**
 * What `shape` checks a part's scenario against: the defaults, with one item of each list
 * (incidents, alerts, load.profile) and the keys of each optional section (service.capacity,
 * the client's guards: model/guards.ts, trigger) made from its declaration in model/shape.ts:
 * a value of each key's type (null for a value that may be absent; a schedule, a list of numbers).
 */
function sampleOf(p: Param): unknown {
  switch (p.kind) {
    case 'section': return Object.fromEntries(Object.entries(p.params).map(([k, q]) => [k, sampleOf(q)]));
    case 'list': case 'durations': return [p.kind === 'list' ? sampleOf(p.of) : 0];
    case 'override': return p.of.kind === 'flag' ? NULLABLE_FLAG : null;
    case 'optional_duration': case 'count_or_unbounded': return null;
    case 'optional': return new OptionalSample(Object.fromEntries(Object.entries(p.params).map(([k, q]) => [k, sampleOf(q)])));
    case 'text': case 'choice': return '';
    case 'flag': return false;
    default: return 0;
  }
}
const sampleAt = (key: string, of: Section) => sampleOf(of.params[key] as Param);
const PART_TEMPLATE = {
  ...DEFAULT_SCENARIO,
  load: { ...DEFAULT_SCENARIO.load, profile: sampleAt('profile', SCENARIO_SHAPE.params.load) },
  service: { ...DEFAULT_SCENARIO.service, capacity: sampleAt('capacity', SCENARIO_SHAPE.params.service) },
  client: { ...DEFAULT_SCENARIO.client, ...Object.fromEntries(GUARD_NAMES.map((n) => [n, sampleAt(n, SCENARIO_SHAPE.params.client)])) },
  ...Object.fromEntries(['incidents', 'alerts', 'trigger'].map((k) => [k, sampleAt(k, SCENARIO_SHAPE)])),
};

const join = (field: string, key: string) => (field === '' ? key : `${field}.${key}`);

/** The seal's form at the end of a part: the last field, `"digest":"sha256:<64 hex>"`. */
const SEAL = /,"digest":"sha256:([0-9a-f]{64})"\}\n?$/;

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Seals JSON text written by JSON.stringify (an object): the digest of the text as it is, added as its last field. */
export function sealJson(json: string): string {
  return `${json.slice(0, -1)},"digest":"sha256:${sha256(json)}"}\n`;
}

/**
 * Whether a part's text is as it was sealed: the SHA-256 of the text without its digest field
 * (exactly what was hashed when it was written). Undefined: the part carries no digest.
 */
export function sealIntact(text: string): boolean | undefined {
  const m = SEAL.exec(text.slice(-120));
  if (!m) return undefined;
  // Hashed in two pieces: a part can be hundreds of MiB, and the slice is not copied.
  return createHash('sha256').update(text.slice(0, text.length - m[0].length)).update('}').digest('hex') === m[1];
}
