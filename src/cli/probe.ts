/**
 * `idem-sim probe [SCENARIO] --store URL`: the scenario's requests against a real key store,
 * side by side with the model's prediction, and the store's bytes per record (docs/stores.md).
 */
import type { Scenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import type { Override } from '../scenario/parse.js';
import type { Backend } from '../stores/backend.js';
import { StoreError } from '../stores/errors.js';
import { STORE_EXAMPLES } from '../stores/registry.js';
import { parseStoreUrl, type StoreUrl } from '../stores/url.js';
import { DEFAULT_PROBE_ACTIONS } from '../probe/defaults.js';
import { checkConnections, checkReplayBytes, checkResponseBytes, measureRecords } from '../probe/limits.js';
import { checkProbeable, checkProbeActions, connectionWarning, speedupWarning, startLine, startWarning } from '../probe/plan.js';
import type { ProbeResult, StartInfo } from '../probe/probe.js';
import { renderProbeJson, renderProbeTable } from '../probe/render.js';
import { toolVersion, warn, type Io } from '../io/streams.js';
import { progressBar } from './progress.js';
import { scenarioReader } from './shared/load.js';
import { withOutput } from '../io/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed } from './shared/simulate.js';
import type { Given } from './settings/given.js';
import { outputSettings, type OutputOptions, type OutputSettings } from './settings/output.js';
import { scenarioSettings, type ScenarioSettings } from './settings/scenario.js';

/** `probe`'s command line as commander parsed it (main.ts declares it). */
export interface ProbeOptions extends OutputOptions {
  store?: string;
  /** Primary actions in the probe's stream (not an override of the scenario's). */
  actions?: Given<number>;
  seed?: Given<string>;
  set?: readonly Given<Override>[];
  allowOutside?: boolean;
  speedup?: Given<number>;
  connections?: Given<number>;
  responseBytes?: Given<number>;
  records?: Given<number>;
  keep?: boolean; cleanUp?: boolean; force?: boolean;
}

/** What `probe` is asked: the store, the scenario and its stream, how to drive the store, and the output. */
export interface ProbeSettings {
  /** --store URL, read against the store registry when the probe starts (stores/url.ts). */
  store: string | undefined;
  /** --set and --allow-outside: --actions is the probe's stream, not the scenario's. */
  scenario: ScenarioSettings;
  seed: Given<string> | undefined;
  actions: Given<number> | undefined;
  speedup: Given<number> | undefined;
  connections: Given<number> | undefined;
  responseBytes: Given<number> | undefined;
  records: Given<number> | undefined;
  keep: boolean; cleanUp: boolean; force: boolean;
  output: OutputSettings<never>;
}

export function probeSettings(opts: ProbeOptions): ProbeSettings {
  return {
    store: opts.store, scenario: scenarioSettings({ set: opts.set, allowOutside: opts.allowOutside }),
    seed: opts.seed, actions: opts.actions, speedup: opts.speedup, connections: opts.connections, responseBytes: opts.responseBytes, records: opts.records,
    keep: opts.keep === true, cleanUp: opts.cleanUp === true, force: opts.force === true, output: outputSettings(opts),
  };
}

/** A StoreError as the CLI reports it: exit 2, naming --store and the fix. */
export function asInputError(e: unknown): unknown {
  return e instanceof StoreError ? new InputError({ source: `--store ${e.url}` }, '', e.problem, e.fix) : e;
}

export async function probeCommand(files: string[], s: ProbeSettings, io: Io, signal?: AbortSignal): Promise<number> {
  if (files.length > 1) throw new InputError(undefined, '', 'probe takes one scenario at most', 'Probe one scenario at a time.');
  if (s.cleanUp) return (await import('./clean-up.js')).cleanUpCommand(files, s, io);
  if (s.force) throw new InputError({ source: '--force' }, '', 'goes with --clean-up only', 'Write idem-sim probe --clean-up --force --store URL, or leave --force out.');
  return withOutput(io, s.output.out, files, async (out) => {
    const plan = probePlan(files, s);
    const { defaultConnections } = await import('../probe/setup.js');
    const connections = connectionCount(plan.scenario, s.connections, defaultConnections(plan.scenario), io);
    const slow = speedupWarning(plan.scenario, plan.speedup, s.speedup?.text);
    if (slow !== undefined) warn(io, slow);
    const result = await runProbe(plan, connections, s, io, signal);
    const replay = new ReplayLine('probe', files, s.scenario).option('--store', plan.url.display).option('--seed', plan.seed).option('--actions', String(plan.actions))
      .each('--set', s.scenario.set.map((given) => given.text)).given('--speedup', s.speedup).given('--response-bytes', s.responseBytes).given('--connections', s.connections)
      .given('--records', s.records).flag('--json', s.output.json).text();
    out.write(s.output.json
      ? renderProbeJson(result, { file: plan.file, seed: plan.seed, scenario: plan.scenario, replay, version: toolVersion() })
      : renderProbeTable(result, { seed: plan.seed, replay, version: toolVersion() }, out.style()));
    return 0;
  });
}

/** What the settings and the scenario ask of the probe, all checked before it connects to anything. */
interface ProbePlan {
  store: string;
  url: StoreUrl;
  file: string | null;
  scenario: Scenario;
  seed: string;
  actions: number;
  speedup: number | undefined;
  responseBytes: number | undefined;
  records: number;
}

function probePlan(files: readonly string[], s: ProbeSettings): ProbePlan {
  if (s.store === undefined) {
    throw new InputError({ source: 'probe' }, '', '--store is missing',
      `Name the store to probe, such as ${STORE_EXAMPLES}.`);
  }
  const store = s.store;
  const url = (() => { try { return parseStoreUrl(store); } catch (e) { throw asInputError(e); } })();
  const read = scenarioReader(s.scenario, null);
  const seedGiven = s.seed?.value;
  const actions = checkProbeActions(s.actions === undefined ? DEFAULT_PROBE_ACTIONS : s.actions.value, s.actions?.text);
  const speedup = s.speedup?.value;
  const recordsGiven = s.records?.value;
  const responseBytes = s.responseBytes?.value;
  const file = files[0] ?? null;
  const { scenario, seed } = read(file);
  checkProbeable(scenario, file, url.kind);
  const body = checkResponseBytes(responseBytes === undefined || s.responseBytes === undefined ? undefined : { flag: '--response-bytes', text: s.responseBytes.text, value: responseBytes },
    scenario.idempotency.record_bytes, file ?? '(built-in lab defaults)');
  const records = measureRecords(s.records?.text, recordsGiven, body);
  checkReplayBytes(actions, body);
  return { store, url, file, scenario, seed: runSeed(seedGiven, seed), actions, speedup, responseBytes, records };
}

/** --connections, or as many as the scenario's running handlers need; a warning when transactional handlers will queue for one. */
function connectionCount(scenario: Scenario, given: Given<number> | undefined, needed: number, io: Io): number {
  const connections = given === undefined ? needed : checkConnections(given.text, given.value);
  const warning = connectionWarning(scenario, connections, needed);
  if (warning !== undefined) warn(io, warning);
  return connections;
}

/** Connects, replays the stream with a progress bar, and closes the connections, whatever happens. */
async function runProbe(p: ProbePlan, connections: number, s: ProbeSettings, io: Io, signal: AbortSignal | undefined): Promise<ProbeResult> {
  const [{ probe }, { openBackend }] = await Promise.all([import('../probe/probe.js'), import('../stores/open.js')]);
  let backend: Backend;
  try {
    backend = await openBackend(p.store, connections);
  } catch (e) {
    throw asInputError(e);
  }
  const bar = progressBar(io.stderr, 'probe');
  try {
    return await probe({
      scenario: p.scenario, seed: p.seed, actions: p.actions, backend, measureRecords: p.records, keep: s.keep,
      ...(p.speedup !== undefined ? { speedup: p.speedup } : {}), ...(p.responseBytes !== undefined ? { responseBytes: p.responseBytes } : {}),
      ...(signal ? { signal } : {}), onProgress: bar.update, onStart: (info) => startNotes(info, p, s.speedup?.text, io),
    }).finally(() => bar.stop());
  } catch (e) {
    throw asInputError(e);
  } finally {
    await backend.close().catch(() => undefined);
  }
}

/** Once the store's speed is measured: a warning when --speedup asks more of it than the model assumes, and on a terminal what the probe will do. */
function startNotes(info: StartInfo, p: ProbePlan, speedupText: string | undefined, io: Io): void {
  const warning = startWarning(info, p.speedup, speedupText);
  if (warning !== undefined) warn(io, warning);
  if (io.stderr.isTTY) io.stderr.write(startLine(p.url.display, info));
}
