/** `idem-sim size`: keys and memory of a key store, from a rate and a retention (and a scenario's keys per action). */
import { runScenario } from '../exec/runner.js';
import { keyStoreSize } from '../model/metrics.js';
import { DURATION_PATTERN, parseDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { chalkFor, shellQuote, toolVersion, type Io } from './io.js';
import { threadCount, positiveInteger, positiveNumber, seedOption } from './options.js';
import { duration, num } from './report/format.js';
import { DEFAULT_SEED, defaultThreads, loadScenario, parseOverrides } from './run.js';

export interface SizeOptions {
  threads?: string;
  /** Read data files outside the scenario file's directory. */
  allowOutside?: boolean;
  rate?: string;
  retention?: string;
  recordBytes?: string;
  /** A `probe --json` result whose measured bytes per record (and rate and retention) size the store. */
  fromProbe?: string;
  actions?: string;
  seed?: string;
  set?: string[];
  json?: boolean;
}

/** The arguments that give the same numbers again (not --threads, which never changes one). */
function replayArgs(file: string | undefined, opts: SizeOptions, seed: string | undefined): string[] {
  const flag = (name: string, value: string | undefined): string[] => (value === undefined ? [] : [name, value]);
  return ['idem-sim', 'size', ...(file ? [file] : []), ...(opts.allowOutside ? ['--allow-outside'] : []), ...(opts.set ?? []).flatMap((s) => ['--set', s]),
    ...flag('--actions', opts.actions), ...flag('--seed', seed), ...flag('--rate', opts.rate), ...flag('--retention', opts.retention),
    ...flag('--record-bytes', opts.recordBytes), ...flag('--from-probe', opts.fromProbe), ...(opts.json ? ['--json'] : [])];
}

function retentionMs(text: string): number {
  if (!new RegExp(DURATION_PATTERN).test(text)) {
    throw new InputError({ source: `--retention ${text}` }, '', `"${text}" is not a duration`, 'Write it as 5m, 1h, 24h or 7d.');
  }
  // In a scenario a bare number is ms; here, where retentions are hours, `24` is far likelier a slip.
  if (/^\s*[0-9.]+\s*$/.test(text)) {
    throw new InputError({ source: `--retention ${text}` }, '', 'the duration has no unit',
      `Write the unit: ${text.trim()}h for hours, ${text.trim()}m for minutes (or ${text.trim()}ms if you mean milliseconds).`);
  }
  return parseDuration(text);
}

export async function sizeCommand(files: string[], opts: SizeOptions, io: Io, signal?: AbortSignal): Promise<number> {
  if (files.length > 1) throw new InputError(undefined, '', 'size takes one scenario at most', 'Size one scenario at a time.');
  const file = files[0];
  if (!file) {
    const given = (['set', 'actions', 'seed', 'threads'] as const).filter((k) => opts[k] !== undefined);
    if (given.length > 0) {
      throw new InputError({ source: `--${given[0]}` }, '', 'only applies with a scenario to simulate', 'Name a scenario, or drop the option.');
    }
  }
  if (opts.fromProbe !== undefined && opts.recordBytes !== undefined) {
    throw new InputError({ source: `--from-probe ${opts.fromProbe}` }, '', 'and --record-bytes both give the bytes per record',
      'Keep one: --from-probe for the measured size, or --record-bytes for an assumed one.');
  }
  const probed = opts.fromProbe === undefined ? undefined : (await import('./probe.js')).readProbeFile(opts.fromProbe);
  let keysPerAction = 1;
  let source = 'assumed: one key per action';
  let rate = opts.rate === undefined ? undefined : positiveNumber('--rate', opts.rate);
  let retention = opts.retention === undefined ? undefined : retentionMs(opts.retention);
  let recordBytes = opts.recordBytes === undefined ? undefined : positiveInteger('--record-bytes', opts.recordBytes);
  /** The seed and actions of the simulation behind keys per action; none without a scenario. */
  let simulated: { seed: string; actions: string } | undefined;
  if (file) {
    const { scenario, seed } = loadScenario(file, parseOverrides(opts), { allowOutside: opts.allowOutside === true });
    const useSeed = seedOption(opts.seed) ?? seed ?? DEFAULT_SEED;
    const threads = opts.threads === undefined ? defaultThreads(scenario.actions) : threadCount(opts.threads, io);
    const outcome = await runScenario({ scenario, seed: useSeed, threads, ...(signal ? { signal } : {}) });
    const m = outcome.state.finish(scenario);
    // Twins arrive on top of rate_per_s: count keys per primary action.
    keysPerAction = (m.keys_per_action.value * m.actions) / m.primary_actions;
    source = `simulated: ${file}, ${num(m.primary_actions)} actions, seed ${useSeed}`;
    simulated = { seed: useSeed, actions: `${num(m.actions)}${m.actions !== m.primary_actions ? ` (${num(m.primary_actions)} primary)` : ''}` };
    rate ??= scenario.load.rate_per_s;
    retention ??= scenario.idempotency.retention;
    recordBytes ??= scenario.idempotency.record_bytes;
  }
  if (probed) {
    recordBytes = probed.bytesPerRecord;
    rate ??= probed.ratePerS;
    retention ??= probed.retentionMs;
  }
  const recordSource = probed?.source ?? '';
  if (rate === undefined || retention === undefined) {
    throw new InputError({ source: 'size' }, '', `${rate === undefined ? '--rate' : '--retention'} is missing`,
      'Give --rate (actions per second) and --retention (such as 1h), or a scenario that has them.');
  }
  recordBytes ??= 200;
  const size = keyStoreSize(keysPerAction, rate, retention, recordBytes);
  // As run reports them: the version, and a command that gives these numbers again.
  const replay = replayArgs(file, opts, simulated?.seed).map(shellQuote).join(' ');
  const result = {
    tool: 'idem-sim', version: toolVersion(), replay,
    // The seed of the simulation behind keys_per_action; null when nothing was simulated (no scenario).
    seed: simulated?.seed ?? null,
    rate_per_s: rate, retention_ms: retention, record_bytes: recordBytes, ...(recordSource ? { record_bytes_source: recordSource } : {}),
    keys_per_action: keysPerAction, keys_per_action_source: source, ...size,
  };
  io.stdout.write(opts.json ? `${JSON.stringify(result, null, 2)}\n` : [
    `keys per action   ${keysPerAction.toFixed(4).replace(/\.?0+$/, '')} (${source})`,
    `rate              ${num(rate)} actions/s`,
    `retention         ${duration(retention)}`,
    `keys              ${num(Math.round(size.keys))}   = keys per action × rate × retention`,
    `key store         ${num(size.key_store_mb)} MB   at ${num(recordBytes)} bytes a record${recordSource ? ` (${recordSource})` : ''}`,
    chalkFor(io.stdout, io.env).dim([
      `${simulated ? `actions simulated: ${simulated.actions}; seed ${simulated.seed}` : 'nothing simulated (no scenario), so no seed'}; idem-sim ${toolVersion()}`,
      `replay: ${replay}`,
    ].join('\n')),
  ].join('\n') + '\n');
  return 0;
}
