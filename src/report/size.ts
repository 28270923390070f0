/**
 * `idem-sim size`'s result: keys and memory of a key store from keys per action, a rate, a
 * retention and a record's bytes (each with its 95% interval when keys per action is a
 * simulation's), the workers' line of a scenario with workers, and the table that shows them.
 */
import type { ChalkInstance } from 'chalk';
import { meanRatePerS } from '../model/clock.js';
import { COMFORTABLE, NEAR_CAPACITY, workersFor } from '../model/offered.js';
import { DEFAULT_SCENARIO } from '../model/shape.js';
import { MAX_RATE_PER_S, MAX_RECORD_BYTES, MIN_RATE_PER_S } from '../model/limits.js';
import type { WrittenScenario } from '../model/types.js';
import { keyStoreSize, type Estimate, type Metrics } from '../results/metrics.js';
import { InputError } from '../scenario/errors.js';
import { printable } from '../scenario/printable.js';
import type { Taken } from '../scenario/taken.js';
import { CI_LEGEND, duration, estimateText, num } from './format.js';

type Interval = [number, number];

/** With service.capacity: its workers, the offered utilisation (docs/model.md, "Saturation") and the workers for COMFORTABLE. */
export interface SizeCapacity { workers: number; offered_utilisation: number; peak_offered_utilisation: number; workers_for_0_7: number }

export type SizeFigures = { keys_per_action: number; keys_per_action_ci95?: Interval; keys_per_action_source: string; keys: number; keys_ci95?: Interval; key_store_mb: number; key_store_mb_ci95?: Interval };
export type SizeResult = SizeFigures & { version: string; replay: string; rate_per_s: number; retention_ms: number; record_bytes: number; record_bytes_source?: string; capacity?: SizeCapacity };

/** Keys per action from simulating a scenario, and the rate, retention and record size it gives. */
export interface SimulatedSize {
  /** Per primary action, with its 95% confidence interval. */
  keysPerAction: Estimate;
  source: string;
  seed: string;
  /** The actions simulated, as the table says them. */
  actions: string;
  rate: number;
  retention: number;
  recordBytes: number;
  capacity?: SizeCapacity;
}

/**
 * What a run of `scenario` (from `file`, on `seed`, its metrics `m`) says of its key store.
 * Twins arrive on top of rate_per_s: keys are counted per primary action; a scenario without a
 * key (`keyless`) fills none, 0 exactly, not a count that saw none.
 */
export function simulatedSize(file: string, seed: string, scenario: WrittenScenario, m: Metrics, keyless: boolean): SimulatedSize {
  const perPrimary = m.actions / m.primary_actions;
  return {
    keysPerAction: keyless ? { value: 0, ci95: [0, 0] } : { value: m.keys_per_action.value * perPrimary, ci95: [m.keys_per_action.ci95[0] * perPrimary, m.keys_per_action.ci95[1] * perPrimary] },
    source: `simulated: ${file}, ${num(m.primary_actions)} actions, seed ${seed}`,
    seed, actions: `${num(m.actions)}${m.actions !== m.primary_actions ? ` (${num(m.primary_actions)} primary)` : ''}`,
    rate: meanRatePerS(scenario), retention: scenario.idempotency.retention, recordBytes: scenario.idempotency.record_bytes,
    ...capacityFigures(scenario, m),
  };
}

/** What a probe's result measured of its store (`size --from-probe`). */
export interface ProbedSize { bytesPerRecord: number; ratePerS: number; retentionMs: number; source: string }

/**
 * The result: what is given wins, then the scenario's, then the probe's; the probe's measured
 * size wins over the scenario's assumed one. `warnings`: the scenario's, when one was simulated.
 */
/**
 * size's --rate and --record-bytes within the scenario keys' own limits (load.rate_per_s,
 * idempotency.record_bytes), checked before anything is simulated: past them a figure is
 * Infinity, or a rate too small to hold a key a plain 0.
 */
export function checkSizeGiven(given: { rate?: Taken<number> | undefined; recordBytes?: Taken<number> | undefined }): void {
  const { rate, recordBytes } = given;
  if (rate !== undefined && (rate.value < MIN_RATE_PER_S || rate.value > MAX_RATE_PER_S)) {
    throw new InputError({ source: `--rate ${rate.text}` }, '', `is outside ${MIN_RATE_PER_S} to 10^9 actions a second, load.rate_per_s's range`, 'Give --rate a rate in that range, such as 50.');
  }
  if (recordBytes !== undefined && recordBytes.value > MAX_RECORD_BYTES) {
    throw new InputError({ source: `--record-bytes ${recordBytes.text}` }, '', `is over ${MAX_RECORD_BYTES.toLocaleString('en-US')} (16 MiB), idempotency.record_bytes's limit`, 'Give the bytes one key record takes, such as 200.');
  }
}

export function sizeResult(given: { rate?: number | undefined; retention?: number | undefined; recordBytes?: number | undefined }, simulated: SimulatedSize | undefined,
  probed: ProbedSize | undefined, about: { version: string; replay: string; warnings: string[] }) {
  const rate = given.rate ?? simulated?.rate ?? probed?.ratePerS;
  const retention = given.retention ?? simulated?.retention ?? probed?.retentionMs;
  if (rate === undefined || retention === undefined) {
    throw new InputError({ source: 'size' }, '', `${rate === undefined ? '--rate' : '--retention'} is missing`,
      'Give --rate (actions per second) and --retention (such as 1h), or a scenario that has them.');
  }
  const recordBytes = probed?.bytesPerRecord ?? given.recordBytes ?? simulated?.recordBytes ?? DEFAULT_SCENARIO.idempotency.record_bytes;
  const recordSource = probed?.source ?? '';
  return {
    tool: 'idem-sim', version: about.version, replay: about.replay,
    // The seed of the simulation behind keys_per_action; null when nothing was simulated (no scenario).
    seed: simulated?.seed ?? null,
    rate_per_s: rate, retention_ms: retention, record_bytes: recordBytes, ...(recordSource ? { record_bytes_source: recordSource } : {}),
    ...sizeFigures(simulated?.keysPerAction.value ?? 1, simulated?.source ?? 'assumed: one key per action', simulated?.keysPerAction.ci95, rate, retention, recordBytes),
    ...(simulated?.capacity ? { capacity: simulated.capacity } : {}),
    ...(simulated ? { warnings: about.warnings } : {}),
  };
}

/** Keys and memory from keys per action, each with its 95% interval when keys per action has one (a simulation's). */
function sizeFigures(keysPerAction: number, source: string, ci95: Interval | undefined, rate: number, retention: number, recordBytes: number): SizeFigures {
  const size = keyStoreSize(keysPerAction, rate, retention, recordBytes);
  if (!ci95) return { keys_per_action: keysPerAction, keys_per_action_source: source, ...size };
  const [low, high] = ci95.map((k) => keyStoreSize(k, rate, retention, recordBytes)) as [typeof size, typeof size];
  return {
    keys_per_action: keysPerAction, keys_per_action_ci95: [ci95[0], ci95[1]], keys_per_action_source: source,
    keys: size.keys, keys_ci95: [low.keys, high.keys], key_store_mb: size.key_store_mb, key_store_mb_ci95: [low.key_store_mb, high.key_store_mb],
  };
}

/** A scenario with workers: their count and the offered utilisation its run reported (the data's mean included), and the workers for COMFORTABLE. */
function capacityFigures(s: WrittenScenario, m: Metrics): { capacity?: SizeCapacity } {
  const workers = s.service.capacity?.workers;
  const mean = m.offered_utilisation, peak = m.peak_offered_utilisation;
  if (workers === undefined || mean === undefined || mean === null || peak === undefined || peak === null) return {};
  return { capacity: { workers, offered_utilisation: mean, peak_offered_utilisation: peak, workers_for_0_7: workersFor(s, peak, COMFORTABLE) } };
}

/** The workers' line: the offered utilisation at the peak, and the count for COMFORTABLE (retries come on top). */
function workersLine(c: SizeCapacity): string {
  const near = c.peak_offered_utilisation >= NEAR_CAPACITY ? ', near capacity' : '';
  return `workers           ${num(c.workers)}: peak offered utilisation ${c.peak_offered_utilisation.toFixed(2)}${near} (first attempts; retries come on top); ${num(c.workers_for_0_7)} workers for ${COMFORTABLE}`;
}

/** The table; `simulated`: the actions simulated (as the table says them) and the seed, when a scenario was. */
export function sizeTable(r: SizeResult, simulated: { actions: string; seed: string } | undefined, style: ChalkInstance): string {
  // The sources name files (the scenario, a probe's result) and what a probe's file says of its store: printed printable.
  const recordSource = printable(r.record_bytes_source ?? '');
  // A simulated figure with its 95% interval, as run shows it; an assumed one as it is.
  const shown = (value: number, ci95: Interval | undefined, exact: string) => (ci95 ? estimateText({ value, ci95 }) : exact);
  return [
    `keys per action   ${shown(r.keys_per_action, r.keys_per_action_ci95, r.keys_per_action.toFixed(4).replace(/\.?0+$/, ''))} (${printable(r.keys_per_action_source)})`,
    `rate              ${num(r.rate_per_s)} actions/s`,
    `retention         ${duration(r.retention_ms)}`,
    `keys              ${shown(r.keys, r.keys_ci95, num(Math.round(r.keys)))}   = keys per action × rate × retention`,
    `key store         ${shown(r.key_store_mb, r.key_store_mb_ci95, num(r.key_store_mb))} MB   at ${num(r.record_bytes)} bytes a record${recordSource ? ` (${recordSource})` : ''}`,
    ...(r.capacity ? [workersLine(r.capacity)] : []),
    style.dim([
      `${simulated ? `actions simulated: ${simulated.actions}; ${CI_LEGEND}; seed ${simulated.seed}` : 'nothing simulated (no scenario), so no seed'}; idem-sim ${r.version}`,
      `replay: ${r.replay}`,
    ].join('\n')),
  ].join('\n') + '\n';
}
