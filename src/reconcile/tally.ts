/**
 * The readings counted as the effects come, in time order. Each tool's business keys in an open
 * window are held (the window's first effect: its time and idempotency key); a key's window is
 * dropped once an effect later than its end has come, so memory is bounded by the keys in an
 * open window (at most MAX_OPEN_KEYS), never by the table's length.
 */
import { formatDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { spokenDuration } from './durations.js';
import type { Effect } from './effects.js';
import { KeyCounts } from './key-counts.js';
import { MAX_BUCKETS, MAX_OPEN_KEYS, MAX_TOOL_BUCKETS, MAX_TOOLS } from './limits.js';
import type { RowPlace } from './places.js';
import { diagnose, DIAGNOSES, gapBin, GAP_BINS, type Diagnosis } from './readings.js';

/** A business key's open window. */
interface Window {
  readonly tool: ToolTally;
  readonly key: string;
  readonly first: number;
  readonly idempotencyKey: string | null;
}

/** One tool's counts. */
export class ToolTally {
  readonly windows = new Map<string, Window>();
  effects = 0;
  duplicates = 0;
  firstMs = Infinity;
  lastMs = -Infinity;
  readonly diagnosis: Record<Diagnosis, number> = { same_key_after_expiry: 0, same_key: 0, key_per_call_or_attempt: 0, no_key: 0 };
  readonly gaps = GAP_BINS.map(() => 0);
  /** Over time, from the first bucket of all the effects: effects, and duplicates by diagnosis. */
  readonly bucketEffects: number[] = [];
  readonly bucketDiagnosis: Record<Diagnosis, number[]> = { same_key_after_expiry: [], same_key: [], key_per_call_or_attempt: [], no_key: [] };

  constructor(readonly name: string, readonly index: number) {}
}

export interface TallyOptions {
  readonly windowMs: number;
  readonly retentionMs: number | undefined;
  readonly stepMs: number;
}

/** Adds 1 to a count. */
const bump = (counts: number[], i: number): void => { counts[i] = (counts[i] as number) + 1; };

/** The nice steps offered when the buckets are too many. */
const STEPS = ['1s', '10s', '1m', '5m', '15m', '1h', '6h', '1d', '7d', '30d'] as const;
const STEP_MS: Readonly<Record<(typeof STEPS)[number], number>> = { '1s': 1e3, '10s': 1e4, '1m': 6e4, '5m': 3e5, '15m': 9e5, '1h': 3.6e6, '6h': 2.16e7, '1d': 8.64e7, '7d': 6.048e8, '30d': 2.592e9 };

export class Tally {
  readonly tools = new Map<string, ToolTally>();
  readonly keys = new KeyCounts();
  private readonly queue: Window[] = [];
  private head = 0;
  private lastAt = -Infinity;
  /** The first bucket's index (ms / step), set by the first effect. */
  private origin: number | undefined;
  private buckets = 0;

  constructor(private readonly o: TallyOptions) {}

  /** Counts `e`; `place` says where its row is, for an error. */
  add(e: Effect, place: () => RowPlace): void {
    if (e.at < this.lastAt) {
      const p = place();
      throw new InputError(p.origin, '', `the rows are not in time order: ${p.words} is ${spokenDuration(this.lastAt - e.at)} earlier than the row before it`,
        'Export them sorted by their time (ORDER BY created_at), or pass --sort to sort up to 1,000,000 rows in memory.');
    }
    this.lastAt = e.at;
    this.expire(e.at);
    const tool = this.toolOf(e.tool, place);
    const bucket = this.bucketOf(e.at, place);
    tool.effects++;
    tool.firstMs = Math.min(tool.firstMs, e.at);
    tool.lastMs = e.at;
    bump(tool.bucketEffects, bucket);
    const open = tool.windows.get(e.key);
    if (open === undefined) {
      if (this.queue.length - this.head >= MAX_OPEN_KEYS) {
        const p = place();
        throw new InputError(p.origin, '', `at ${p.words}, more than ${MAX_OPEN_KEYS.toLocaleString('en-US')} business keys are in an open window of ${formatDuration(this.o.windowMs)} at once, the most held`,
          'Give a shorter --window, or reconcile the rows in parts (a tool at a time, or a range of business keys).');
      }
      const w: Window = { tool, key: e.key, first: e.at, idempotencyKey: e.idempotencyKey };
      tool.windows.set(e.key, w);
      this.queue.push(w);
      return;
    }
    const gap = e.at - open.first;
    const d = diagnose(open.idempotencyKey, e.idempotencyKey, gap, this.o.retentionMs);
    tool.duplicates++;
    tool.diagnosis[d]++;
    bump(tool.bucketDiagnosis[d], bucket);
    bump(tool.gaps, gapBin(gap));
    this.keys.add(tool.index, e.key);
  }

  /** Drops the windows that ended before `now`: an effect of their key now starts a new one. */
  private expire(now: number): void {
    const q = this.queue;
    while (this.head < q.length && now - (q[this.head] as Window).first > this.o.windowMs) {
      const w = q[this.head++] as Window;
      w.tool.windows.delete(w.key);
    }
    if (this.head > 65_536 && this.head * 2 > q.length) {
      q.splice(0, this.head);
      this.head = 0;
    }
  }

  private toolOf(name: string, place: () => RowPlace): ToolTally {
    const known = this.tools.get(name);
    if (known) return known;
    if (this.tools.size >= MAX_TOOLS) {
      const p = place();
      throw new InputError(p.origin, '', `at ${p.words}, the rows name more than ${MAX_TOOLS} tools, the most reconciled at once`,
        'Reconcile a few tools at a time (WHERE tool IN (...)), or check that --tool-column names the tool.');
    }
    const tool = new ToolTally(name, this.tools.size);
    this.tools.set(name, tool);
    this.grow(tool, this.buckets, place);
    return tool;
  }

  /** The bucket of `at`, counted from the first one; every tool's buckets grown to hold it. */
  private bucketOf(at: number, place: () => RowPlace): number {
    const index = Math.floor(at / this.o.stepMs);
    this.origin ??= index;
    const bucket = index - this.origin;
    if (bucket >= this.buckets) {
      this.buckets = bucket + 1;
      for (const t of this.tools.values()) this.grow(t, this.buckets, place);
    }
    return bucket;
  }

  private grow(tool: ToolTally, length: number, place: () => RowPlace): void {
    if (length > MAX_BUCKETS || length * this.tools.size > MAX_TOOL_BUCKETS) {
      const span = (length - 1) * this.o.stepMs;
      const cells = Math.max(1, Math.ceil((length * Math.max(1, this.tools.size)) / MAX_TOOL_BUCKETS), Math.ceil(length / MAX_BUCKETS));
      const fits = STEPS.find((s) => STEP_MS[s] >= this.o.stepMs * cells) ?? '30d';
      const p = place();
      throw new InputError(p.origin, '', `at ${p.words}, the rows span ${formatDuration(span)}: over time, more buckets of --step ${formatDuration(this.o.stepMs)} than the most kept (${MAX_BUCKETS.toLocaleString('en-US')}, and ${MAX_TOOL_BUCKETS.toLocaleString('en-US')} for all the tools together)`,
        `Give a longer --step, such as ${fits}.`);
    }
    while (tool.bucketEffects.length < length) {
      tool.bucketEffects.push(0);
      for (const d of DIAGNOSES) tool.bucketDiagnosis[d].push(0);
    }
  }

  /** The first bucket's start, in ms since the epoch (0 with no effect). */
  originMs(): number {
    return (this.origin ?? 0) * this.o.stepMs;
  }
}
