/**
 * `idem-sim lab [SCENARIO]`: the guide's interactive lab as one self-contained HTML page, with
 * the engine bundled for the browser (dist/browser/, built by `npm run build`) and the missions'
 * files inline. The page itself is src/lab/page.ts; this reads its inputs and writes it.
 */
import { dirname, relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import type { LatencySpec } from '../model/latency.js';
import type { LabConfig, LabMission, LabScenario } from '../lab/config.js';
import type { LabScripts } from '../lab/page.js';
import type { Io } from '../io/streams.js';
import type { PickedTool } from '../agent/pick-tool.js';
import type { Given } from './settings/given.js';
import { overridesOf, SCENARIO_OPTIONS, scenarioSettings, type ScenarioOptions, type ScenarioSettings } from './settings/scenario.js';
import { SIMULATION_OPTIONS } from './settings/simulation.js';

/** `lab`'s command line as commander parsed it. */
export interface LabOptions extends ScenarioOptions {
  out?: string;
  seed?: Given<string>;
  /** `--tool NAME`: of an agent file, the tool whose scenario the page starts from. */
  tool?: string;
}

/** What `lab` is asked: the scenario the page starts from, its seed, and where the page goes. */
export interface LabSettings {
  scenario: ScenarioSettings;
  seed: Given<string> | undefined;
  out: string | undefined;
  tool: string | undefined;
}

export function labSettings(opts: LabOptions): LabSettings {
  return { scenario: scenarioSettings(opts), seed: opts.seed, out: opts.out, tool: opts.tool };
}

/** Registers `lab` on the program (a small block of main.ts's list); its modules load when it runs. */
export function declareLab(cmd: Command, { io, signal, setCode }: { io: Io; signal: AbortSignal; setCode: (code: number) => void }): void {
  cmd.command('lab')
    .description("the guide's interactive lab: one offline HTML page of knobs, missions and the action timeline, the real engine inside")
    .argument('[scenario]', 'the scenario to start from, or an agent file with --tool (the built-in lab defaults when none is given)')
    .option('--out <file>', 'write the page to a file instead of stdout (such as lab.html)')
    .option('--tool <name>', 'of an agent file, start from this tool\'s scenario as the agent runs it')
    .addOption(SIMULATION_OPTIONS.seed('random seed to start with (overrides the file; default 1)'))
    .addOption(SCENARIO_OPTIONS.set('start with one key changed, e.g. idempotency.scope=intent (repeatable)'))
    .addOption(SCENARIO_OPTIONS.actions('primary actions to start with (overrides the file)'))
    .addOption(SCENARIO_OPTIONS.allowOutside())
    .action(async (file: string | undefined, opts: LabOptions) => setCode(await labCommand(file, labSettings(opts), io, signal)));
}

/** Where the page goes without --out on a terminal (see `terminalDefault`), and how an earlier one is known. */
const DEFAULT_FILE = 'lab.html';
const isLabPage = (head: string) => head.startsWith('<!doctype html>') && head.includes('<title>idem-sim lab: ');

export async function labCommand(file: string | undefined, s: LabSettings, io: Io, signal?: AbortSignal): Promise<number> {
  const [{ terminalDefault, withOutput }, { toolVersion }, { labPage }, { Interrupted }] = await Promise.all([
    import('../io/output.js'), import('../io/streams.js'), import('../lab/page.js'), import('../exec/interrupted.js'),
  ]);
  const fallback = terminalDefault(io, s.out, DEFAULT_FILE, isLabPage);
  return withOutput(io, s.out ?? fallback?.path, file ? [file] : [], async (out) => {
    const config: LabConfig = { version: toolVersion(), start: await startScenario(file ?? null, s, io), missions: await missions() };
    // A signal while the page's parts were read (between tasks): stop, and write nothing (before
    // looking for the browser scripts, whose absence is another matter).
    if (signal?.aborted) throw new Interrupted();
    const text = labPage(config, await labScripts());
    if (signal?.aborted) throw new Interrupted();
    out.write(text);
    fallback?.announce(text);
    return 0;
  });
}

/** The browser scripts `npm run build` bundles. */
export async function labScripts(): Promise<LabScripts> {
  const [{ readFileSync }, { InputError }] = await Promise.all([import('node:fs'), import('../scenario/errors.js')]);
  const read = (name: string) => {
    const url = new URL(`../../dist/browser/lab-${name}.js`, import.meta.url);
    try {
      return readFileSync(url, 'utf8');
    } catch {
      throw new InputError({ source: 'idem-sim lab' }, '', `the page's ${name} script is not built (${url.pathname} is missing)`,
        'Run `npm run build` in the idem-sim folder: it bundles the engine for the browser.');
    }
  };
  return { engine: read('engine'), ui: read('ui') };
}

/** The scenario the page starts from, read and checked as `run` reads it (a bad one fails here, exit 2). */
export async function startScenario(file: string | null, s: LabSettings, io: Io): Promise<LabScenario> {
  const [{ scenarioReader }, { scenarioName }, { readUserFile }, { runSeed }, { agentReader }, { pickTool, refuseAgentWithoutTool, refuseToolOfScenario }, { labScenario }] = await Promise.all([
    import('./shared/load.js'), import('../scenario/names.js'), import('../io/files.js'), import('./shared/simulate.js'), import('./shared/agent-load.js'), import('../agent/pick-tool.js'), import('../lab/start.js'),
  ]);
  const agent = agentReader(s.scenario, io)(file);
  if (agent) {
    if (s.tool === undefined) return refuseAgentWithoutTool(agent, 'lab', 'the lab starts from one scenario');
    return toolStart(pickTool(agent, s.tool, runSeed(s.seed?.value, agent.seed)), s);
  }
  if (s.tool !== undefined) refuseToolOfScenario(file, 'lab');
  const loaded = scenarioReader(s.scenario, io)(file);
  const seed = runSeed(s.seed?.value, loaded.seed);
  const text = file === null ? '' : readUserFile(file, 'the scenario file');
  return labScenario(file, text, loaded, { name: scenarioName(file), overrides: overridesOf(s.scenario), seed, allowOutside: s.scenario.allowOutside });
}

/** A tool of an agent file as the page's start (lab/start.ts), its data files named as the agent file's directory sees them. */
async function toolStart(picked: PickedTool, s: LabSettings): Promise<LabScenario> {
  const [{ toolStartScenario }, { ReplayLine }] = await Promise.all([import('../lab/start.js'), import('./shared/replay.js')]);
  const { agent, tool } = picked;
  const latency = rebased(picked.scenario.service.latency, ['service', 'latency'], tool.writtenIn, dirname(resolve(agent.file)));
  return toolStartScenario(picked, latency, s.scenario.allowOutside, new ReplayLine('run', [agent.file], s.scenario).overrides(s.scenario).option('--seed', picked.agentSeed).text());
}

/**
 * A tool's latency with each data file named as the agent file's directory sees it: a file the tool
 * extends names its data relative to itself, and the page's download (kept beside the agent file)
 * and the data the page carries name it so (`writtenIn`: the file that wrote a key, if not the agent file).
 */
function rebased(spec: LatencySpec, keyPath: readonly (string | number)[], writtenIn: (keyPath: readonly (string | number)[]) => string | undefined, agentDir: string): LatencySpec {
  if (spec.dist === 'mixture') return { ...spec, components: spec.components.map((c, i) => ({ ...rebased(c, [...keyPath, 'components', i], writtenIn, agentDir), weight: c.weight })) };
  const file = spec.dist === 'empirical' || spec.dist === 'histogram' ? spec.file : null;
  const writer = file === null ? undefined : writtenIn([...keyPath, 'file']);
  if (file === null || writer === undefined) return spec;
  return { ...spec, file: relative(agentDir, resolve(dirname(resolve(writer)), file)).split(sep).join('/') } as LatencySpec;
}

/** The guide's missions: the bundled scenarios/mission-*.yaml, named as `idem-sim missions` names them. */
export async function missions(): Promise<LabMission[]> {
  const [{ readdirSync, readFileSync }, { relative }, { SCENARIOS_DIR }, { loadScenario }, { scenarioName }, { runSeed }, { labMission }] = await Promise.all([
    import('node:fs'), import('node:path'), import('./missions.js'), import('./shared/load.js'), import('../scenario/names.js'), import('./shared/simulate.js'), import('../lab/start.js'),
  ]);
  const files = readdirSync(SCENARIOS_DIR).filter((f) => /^mission-.*\.ya?ml$/.test(f)).sort();
  return files.map((f, i) => {
    const path = relative(process.cwd(), `${SCENARIOS_DIR}${f}`) || f;
    const loaded = loadScenario(path, []);
    return labMission(i + 1, path, readFileSync(path, 'utf8'), loaded, scenarioName(path), runSeed(undefined, loaded.seed));
  });
}
