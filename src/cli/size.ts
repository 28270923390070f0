/** `idem-sim size`: keys and memory of a key store, from a rate and a retention (and a scenario's keys per action). */
import { runScenario } from '../exec/runner.js';
import { checkTimeRun } from './shared/time.js';
import { noKeyReason, SET_SCOPE } from '../model/inert.js';
import { InputError } from '../scenario/errors.js';
import { checkSizeGiven, simulatedSize, sizeResult, sizeTable, type SimulatedSize } from '../report/size.js';
import { toolVersion, warn, type Io } from '../io/streams.js';
import { readProbeFile } from './probe-file.js';
import { sayNotes, scenarioReader, warningTexts } from './shared/load.js';
import { withOutput } from '../io/output.js';
import { ReplayLine } from './shared/replay.js';
import { runSeed, threadSetting } from './shared/simulate.js';
import { Given } from './settings/given.js';
import type { Override } from '../scenario/parse.js';
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

/** A scenario's run for `size`: its figures, and what the command says of it on stderr. */
type Simulated = SimulatedSize & { warnings: string[]; notes: string[] };

export async function sizeCommand(files: string[], s: SizeSettings, io: Io, signal?: AbortSignal): Promise<number> {
  const file = scenarioFile(files, s);
  if (s.fromProbe !== undefined && s.recordBytes !== undefined) {
    throw new InputError({ source: `--from-probe ${s.fromProbe}` }, '', 'and --record-bytes both give the bytes per record',
      'Keep one: --from-probe for the measured size, or --record-bytes for an assumed one.');
  }
  const probed = s.fromProbe === undefined ? undefined : readProbeFile(s.fromProbe);
  const given = { rate: s.rate?.value, retention: s.retention?.value, recordBytes: s.recordBytes?.value };
  checkSizeGiven({ rate: s.rate, recordBytes: s.recordBytes });
  const simulated = file ? await simulateKeys(file, s, io, signal) : undefined;
  // As run reports them: the version, and a command that gives these numbers again (not --threads, which never changes one).
  const replay = new ReplayLine('size', file ? [file] : [], s.scenario).overrides(s.scenario).option('--seed', simulated?.seed).given('--rate', s.rate)
    .given('--retention', s.retention).given('--record-bytes', s.recordBytes).option('--from-probe', s.fromProbe).flag('--json', s.json).text();
  const result = sizeResult(given, simulated, probed, { version: toolVersion(), replay, warnings: simulated?.warnings ?? [] });
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

async function simulateKeys(file: string, s: SizeSettings, io: Io, signal: AbortSignal | undefined): Promise<Simulated> {
  const notes: string[] = [];
  // Keys per action depend on the retention (a replay after its key expired claims a new one): simulated at --retention's.
  const retention = s.retention && Given.parse(s.retention.text, (text): Override => ({ path: ['idempotency', 'retention'], text, option: `--retention ${text}` }));
  const { scenario, seed: fileSeed, locate, warnings } = scenarioReader(retention ? { ...s.scenario, set: [...s.scenario.set, retention] } : s.scenario, io, notes)(file);
  const seed = runSeed(s.simulation.seed?.value, fileSeed);
  const threads = threadSetting(s.simulation.threads, io)(scenario.actions);
  checkTimeRun({ scenario, seed, locate });
  const outcome = await runScenario({ scenario, seed, threads, ...(signal ? { signal } : {}) });
  const m = outcome.state.finish(scenario);
  const noKey = noKeyReason(scenario);
  const emptyStore = noKey === null ? [] : warningTexts([{ ...(locate ? { origin: locate(['idempotency', 'scope']) } : {}), keyPath: 'idempotency.scope',
    problem: `sizes an empty key store: ${noKey}`, fix: `${SET_SCOPE} to size the store its keys would fill.` }]);
  for (const text of emptyStore) warn(io, text);
  return { ...simulatedSize(file, seed, scenario, m, noKey !== null), warnings: [...warningTexts(warnings), ...emptyStore], notes };
}
