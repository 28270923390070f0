/** `idem-sim size`: keys and memory of a key store, from a rate and a retention (and a scenario's keys per action). */
import type { ChalkInstance } from 'chalk';
import { runScenario } from '../exec/runner.js';
import { checkTimeRun } from './shared/time.js';
import { meanRatePerS } from '../model/clock.js';
import { keyStoreSize } from '../model/metrics.js';
import { DURATION_PATTERN, parseDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { toolVersion, type Io } from './io.js';
import { positiveInteger, positiveNumber, seedOption } from './options.js';
import { readProbeFile } from './probe-file.js';
import { duration, num } from './report/format.js';
import { scenarioReader } from './shared/load.js';
import { withOutput } from './shared/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, threadSetting, type SimulationOptions } from './shared/simulate.js';
import { clipped } from '../scenario/printable.js';

export interface SizeOptions extends SimulationOptions {
  rate?: string;
  retention?: string;
  recordBytes?: string;
  /** A `probe --json` result whose measured bytes per record (and rate and retention) size the store. */
  fromProbe?: string;
  json?: boolean;
}

/** Keys per action from simulating a scenario, and the rate, retention and record size it gives. */
interface Simulated {
  keysPerAction: number;
  source: string;
  seed: string;
  /** The actions simulated, as the table says them. */
  actions: string;
  rate: number;
  retention: number;
  recordBytes: number;
}

export async function sizeCommand(files: string[], opts: SizeOptions, io: Io, signal?: AbortSignal): Promise<number> {
  const file = scenarioFile(files, opts);
  if (opts.fromProbe !== undefined && opts.recordBytes !== undefined) {
    throw new InputError({ source: `--from-probe ${opts.fromProbe}` }, '', 'and --record-bytes both give the bytes per record',
      'Keep one: --from-probe for the measured size, or --record-bytes for an assumed one.');
  }
  const probed = opts.fromProbe === undefined ? undefined : readProbeFile(opts.fromProbe);
  const givenRate = opts.rate === undefined ? undefined : positiveNumber('--rate', opts.rate);
  const givenRetention = opts.retention === undefined ? undefined : retentionMs(opts.retention);
  const givenRecordBytes = opts.recordBytes === undefined ? undefined : positiveInteger('--record-bytes', opts.recordBytes);
  const simulated = file ? await simulateKeys(file, opts, io, signal) : undefined;
  // What is given wins, then the scenario's, then the probe's; the probe's measured size wins over the scenario's assumed one.
  const rate = givenRate ?? simulated?.rate ?? probed?.ratePerS;
  const retention = givenRetention ?? simulated?.retention ?? probed?.retentionMs;
  if (rate === undefined || retention === undefined) {
    throw new InputError({ source: 'size' }, '', `${rate === undefined ? '--rate' : '--retention'} is missing`,
      'Give --rate (actions per second) and --retention (such as 1h), or a scenario that has them.');
  }
  const recordBytes = probed?.bytesPerRecord ?? givenRecordBytes ?? simulated?.recordBytes ?? 200;
  const keysPerAction = simulated?.keysPerAction ?? 1;
  const source = simulated?.source ?? 'assumed: one key per action';
  const recordSource = probed?.source ?? '';
  // As run reports them: the version, and a command that gives these numbers again (not --threads, which never changes one).
  const replay = new ReplayLine('size', file ? [file] : [], opts).overrides(opts).option('--seed', simulated?.seed).option('--rate', opts.rate)
    .option('--retention', opts.retention).option('--record-bytes', opts.recordBytes).option('--from-probe', opts.fromProbe).flag('--json', opts.json).text();
  const result = {
    tool: 'idem-sim', version: toolVersion(), replay,
    // The seed of the simulation behind keys_per_action; null when nothing was simulated (no scenario).
    seed: simulated?.seed ?? null,
    rate_per_s: rate, retention_ms: retention, record_bytes: recordBytes, ...(recordSource ? { record_bytes_source: recordSource } : {}),
    keys_per_action: keysPerAction, keys_per_action_source: source, ...keyStoreSize(keysPerAction, rate, retention, recordBytes),
  };
  return withOutput(io, undefined, [], (out) => {
    out.write(opts.json ? `${JSON.stringify(result, null, 2)}\n` : sizeTable(result, simulated, out.style()));
    return 0;
  });
}

/** The scenario to simulate, if any: at most one, and the options that simulate only with one. */
function scenarioFile(files: readonly string[], opts: SizeOptions): string | undefined {
  if (files.length > 1) throw new InputError(undefined, '', 'size takes one scenario at most', 'Size one scenario at a time.');
  const file = files[0];
  if (!file) {
    const given = (['set', 'actions', 'seed', 'threads'] as const).filter((k) => opts[k] !== undefined);
    if (given.length > 0) {
      throw new InputError({ source: `--${given[0]}` }, '', 'only applies with a scenario to simulate', 'Name a scenario, or drop the option.');
    }
  }
  return file;
}

function retentionMs(text: string): number {
  // A bare number gets both units to choose from: `24`, where retentions are hours, is far likelier hours than ms.
  if (/^\s*[0-9.]+\s*$/.test(text)) {
    throw new InputError({ source: `--retention ${text}` }, '', 'the duration has no unit',
      `Write the unit: ${text.trim()}h for hours, ${text.trim()}m for minutes (or ${text.trim()}ms if you mean milliseconds).`);
  }
  if (!new RegExp(DURATION_PATTERN).test(text)) {
    throw new InputError({ source: `--retention ${text}` }, '', `"${clipped(text, 80)}" is not a duration`, 'Write it as 5m, 1h, 24h or 7d.');
  }
  return parseDuration(text);
}

async function simulateKeys(file: string, opts: SizeOptions, io: Io, signal: AbortSignal | undefined): Promise<Simulated> {
  const { scenario, seed: fileSeed, locate } = scenarioReader(opts, io)(file);
  const seed = runSeed(seedOption(opts.seed), fileSeed);
  const threads = threadSetting(opts.threads, io)(scenario.actions);
  checkTimeRun({ scenario, seed, locate });
  const outcome = await runScenario({ scenario, seed, threads, ...(signal ? { signal } : {}) });
  const m = outcome.state.finish(scenario);
  return {
    // Twins arrive on top of rate_per_s: count keys per primary action.
    keysPerAction: (m.keys_per_action.value * m.actions) / m.primary_actions,
    source: `simulated: ${file}, ${num(m.primary_actions)} actions, seed ${seed}`,
    seed, actions: `${num(m.actions)}${m.actions !== m.primary_actions ? ` (${num(m.primary_actions)} primary)` : ''}`,
    rate: meanRatePerS(scenario), retention: scenario.idempotency.retention, recordBytes: scenario.idempotency.record_bytes,
  };
}

type SizeResult = { version: string; replay: string; rate_per_s: number; retention_ms: number; record_bytes: number; record_bytes_source?: string;
  keys_per_action: number; keys_per_action_source: string; keys: number; key_store_mb: number };

function sizeTable(r: SizeResult, simulated: Simulated | undefined, style: ChalkInstance): string {
  const recordSource = r.record_bytes_source ?? '';
  return [
    `keys per action   ${r.keys_per_action.toFixed(4).replace(/\.?0+$/, '')} (${r.keys_per_action_source})`,
    `rate              ${num(r.rate_per_s)} actions/s`,
    `retention         ${duration(r.retention_ms)}`,
    `keys              ${num(Math.round(r.keys))}   = keys per action × rate × retention`,
    `key store         ${num(r.key_store_mb)} MB   at ${num(r.record_bytes)} bytes a record${recordSource ? ` (${recordSource})` : ''}`,
    style.dim([
      `${simulated ? `actions simulated: ${simulated.actions}; seed ${simulated.seed}` : 'nothing simulated (no scenario), so no seed'}; idem-sim ${r.version}`,
      `replay: ${r.replay}`,
    ].join('\n')),
  ].join('\n') + '\n';
}
