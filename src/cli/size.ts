/** `idem-sim size`: keys and memory of a key store, from a rate and a retention (and a scenario's keys per action). */
import type { ChalkInstance } from 'chalk';
import { runScenario } from '../exec/runner.js';
import { checkTimeRun } from './shared/time.js';
import { meanRatePerS } from '../model/clock.js';
import { noKeyReason, SET_SCOPE } from '../model/inert.js';
import { DEFAULT_SCENARIO } from '../model/shape.js';
import { keyStoreSize, type Estimate, type Metrics } from '../results/metrics.js';
import { COMFORTABLE, NEAR_CAPACITY, workersFor } from '../model/offered.js';
import type { WrittenScenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { printable } from '../scenario/printable.js';
import { toolVersion, warn, type Io } from './io.js';
import { readProbeFile } from './probe-file.js';
import { CI_LEGEND, duration, estimateText, num } from '../report/format.js';
import { sayNotes, scenarioReader, warningTexts } from './shared/load.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, threadSetting } from './shared/simulate.js';
import type { Given } from './settings/given.js';
import { scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import { simulationSettings, type SimulationOptions, type SimulationSettings } from './settings/simulation.js';

/** `size`'s command line as commander parsed it (main.ts declares it). */
export interface SizeOptions extends ScenarioOptions, SimulationOptions {
  /** Actions per second. */
  rate?: Given<number>;
  /** How long keys are kept (ms). */
  retention?: Given<number>;
  recordBytes?: Given<number>;
  /** A `probe --json` result whose measured bytes per record (and rate and retention) size the store. */
  fromProbe?: string;
  json?: boolean;
}

/** What `size` is asked: the scenario to simulate (if any) and how, and the store's figures given. */
export interface SizeSettings {
  scenario: ScenarioSettings;
  simulation: SimulationSettings;
  rate: Given<number> | undefined;
  retention: Given<number> | undefined;
  recordBytes: Given<number> | undefined;
  fromProbe: string | undefined;
  json: boolean;
}

export function sizeSettings(opts: SizeOptions): SizeSettings {
  return {
    scenario: scenarioSettings(opts), simulation: simulationSettings(opts), rate: opts.rate, retention: opts.retention, recordBytes: opts.recordBytes,
    fromProbe: opts.fromProbe, json: opts.json === true,
  };
}

/** Keys per action from simulating a scenario, and the rate, retention and record size it gives. */
interface Simulated {
  /** Per primary action, with its 95% confidence interval. */
  keysPerAction: Estimate;
  source: string;
  seed: string;
  /** The actions simulated, as the table says them. */
  actions: string;
  rate: number;
  retention: number;
  recordBytes: number;
  /** The scenario's warnings, as said on stderr. */
  warnings: string[];
  /** The note of the lab values it runs on, said after the report (docs/scenarios.md, "The lab's values"). */
  notes: string[];
  /** With service.capacity: its workers, the offered utilisation (docs/model.md, "Saturation") and the workers for COMFORTABLE. */
  capacity?: { workers: number; offered_utilisation: number; peak_offered_utilisation: number; workers_for_0_7: number };
}

export async function sizeCommand(files: string[], s: SizeSettings, io: Io, signal?: AbortSignal): Promise<number> {
  const file = scenarioFile(files, s);
  if (s.fromProbe !== undefined && s.recordBytes !== undefined) {
    throw new InputError({ source: `--from-probe ${s.fromProbe}` }, '', 'and --record-bytes both give the bytes per record',
      'Keep one: --from-probe for the measured size, or --record-bytes for an assumed one.');
  }
  const probed = s.fromProbe === undefined ? undefined : readProbeFile(s.fromProbe);
  const givenRate = s.rate?.value;
  const givenRetention = s.retention?.value;
  const givenRecordBytes = s.recordBytes?.value;
  const simulated = file ? await simulateKeys(file, s, io, signal) : undefined;
  // What is given wins, then the scenario's, then the probe's; the probe's measured size wins over the scenario's assumed one.
  const rate = givenRate ?? simulated?.rate ?? probed?.ratePerS;
  const retention = givenRetention ?? simulated?.retention ?? probed?.retentionMs;
  if (rate === undefined || retention === undefined) {
    throw new InputError({ source: 'size' }, '', `${rate === undefined ? '--rate' : '--retention'} is missing`,
      'Give --rate (actions per second) and --retention (such as 1h), or a scenario that has them.');
  }
  const recordBytes = probed?.bytesPerRecord ?? givenRecordBytes ?? simulated?.recordBytes ?? DEFAULT_SCENARIO.idempotency.record_bytes;
  const keysPerAction = simulated?.keysPerAction.value ?? 1;
  const source = simulated?.source ?? 'assumed: one key per action';
  const recordSource = probed?.source ?? '';
  // As run reports them: the version, and a command that gives these numbers again (not --threads, which never changes one).
  const replay = new ReplayLine('size', file ? [file] : [], s.scenario).overrides(s.scenario).option('--seed', simulated?.seed).given('--rate', s.rate)
    .given('--retention', s.retention).given('--record-bytes', s.recordBytes).option('--from-probe', s.fromProbe).flag('--json', s.json).text();
  const result = {
    tool: 'idem-sim', version: toolVersion(), replay,
    // The seed of the simulation behind keys_per_action; null when nothing was simulated (no scenario).
    seed: simulated?.seed ?? null,
    rate_per_s: rate, retention_ms: retention, record_bytes: recordBytes, ...(recordSource ? { record_bytes_source: recordSource } : {}),
    ...sizeFigures(keysPerAction, source, simulated?.keysPerAction.ci95, rate, retention, recordBytes),
    ...(simulated?.capacity ? { capacity: simulated.capacity } : {}),
    ...(simulated ? { warnings: simulated.warnings } : {}),
  };
  return withOutput(io, undefined, [], (out) => {
    out.write(s.json ? `${JSON.stringify(result, null, 2)}\n` : sizeTable(result, simulated, out.style()));
    sayNotes(io, simulated?.notes ?? []);
    return 0;
  });
}

/** The scenario to simulate, if any: at most one, and the options that simulate only with one. */
function scenarioFile(files: readonly string[], s: SizeSettings): string | undefined {
  if (files.length > 1) throw new InputError(undefined, '', 'size takes one scenario at most', 'Size one scenario at a time.');
  const file = files[0];
  if (!file) {
    const given = ([['set', s.scenario.set.length > 0], ['actions', s.scenario.actions !== undefined], ['seed', s.simulation.seed !== undefined],
      ['threads', s.simulation.threads !== undefined]] as const).filter(([, on]) => on).map(([flag]) => flag);
    if (given.length > 0) {
      throw new InputError({ source: `--${given[0]}` }, '', 'only applies with a scenario to simulate', 'Name a scenario, or drop the option.');
    }
  }
  return file;
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

async function simulateKeys(file: string, s: SizeSettings, io: Io, signal: AbortSignal | undefined): Promise<Simulated> {
  const notes: string[] = [];
  const { scenario, seed: fileSeed, locate, warnings } = scenarioReader(s.scenario, io, notes)(file);
  const seed = runSeed(s.simulation.seed?.value, fileSeed);
  const threads = threadSetting(s.simulation.threads, io)(scenario.actions);
  checkTimeRun({ scenario, seed, locate });
  const outcome = await runScenario({ scenario, seed, threads, ...(signal ? { signal } : {}) });
  const m = outcome.state.finish(scenario);
  // Twins arrive on top of rate_per_s: count keys per primary action. Without a key it is 0 exactly, not a count that saw none.
  const perPrimary = m.actions / m.primary_actions;
  const noKey = noKeyReason(scenario);
  const emptyStore = noKey === null ? [] : warningTexts([{ ...(locate ? { origin: locate(['idempotency', 'scope']) } : {}), keyPath: 'idempotency.scope',
    problem: `sizes an empty key store: ${noKey}`, fix: `${SET_SCOPE} to size the store its keys would fill.` }]);
  for (const text of emptyStore) warn(io, text);
  return {
    keysPerAction: noKey === null ? { value: m.keys_per_action.value * perPrimary, ci95: [m.keys_per_action.ci95[0] * perPrimary, m.keys_per_action.ci95[1] * perPrimary] } : { value: 0, ci95: [0, 0] },
    warnings: [...warningTexts(warnings), ...emptyStore], notes,
    source: `simulated: ${file}, ${num(m.primary_actions)} actions, seed ${seed}`,
    seed, actions: `${num(m.actions)}${m.actions !== m.primary_actions ? ` (${num(m.primary_actions)} primary)` : ''}`,
    rate: meanRatePerS(scenario), retention: scenario.idempotency.retention, recordBytes: scenario.idempotency.record_bytes,
    ...capacityFigures(scenario, m),
  };
}

/** A scenario with workers: their count and the offered utilisation its run reported (the data's mean included), and the workers for COMFORTABLE. */
function capacityFigures(s: WrittenScenario, m: Metrics): Pick<Simulated, 'capacity'> {
  const workers = s.service.capacity?.workers;
  const mean = m.offered_utilisation, peak = m.peak_offered_utilisation;
  if (workers === undefined || mean === undefined || mean === null || peak === undefined || peak === null) return {};
  return { capacity: { workers, offered_utilisation: mean, peak_offered_utilisation: peak, workers_for_0_7: workersFor(s, peak, COMFORTABLE) } };
}

type Interval = [number, number];
type SizeFigures = { keys_per_action: number; keys_per_action_ci95?: Interval; keys_per_action_source: string; keys: number; keys_ci95?: Interval; key_store_mb: number; key_store_mb_ci95?: Interval };
type SizeResult = SizeFigures & { version: string; replay: string; rate_per_s: number; retention_ms: number; record_bytes: number; record_bytes_source?: string; capacity?: Simulated['capacity'] };

/** The workers' line: the offered utilisation at the peak, and the count for COMFORTABLE (retries come on top). */
function workersLine(c: NonNullable<Simulated['capacity']>): string {
  const near = c.peak_offered_utilisation >= NEAR_CAPACITY ? ', near capacity' : '';
  return `workers           ${num(c.workers)}: peak offered utilisation ${c.peak_offered_utilisation.toFixed(2)}${near} (first attempts; retries come on top); ${num(c.workers_for_0_7)} workers for ${COMFORTABLE}`;
}

function sizeTable(r: SizeResult, simulated: Simulated | undefined, style: ChalkInstance): string {
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
