/**
 * The scenarios `idem-sim lab` writes into its page (config.ts), from what the command read: the
 * scenario to start from (a file, or a tool of an agent file as the agent composes it) and the
 * missions, each with the data of the latency files it names. Pure: the shell reads the files.
 */
import type { PickedTool } from '../agent/pick-tool.js';
import type { LatencySpec } from '../model/latency.js';
import type { Scenario } from '../model/types.js';
import type { ParsedScenario } from '../scenario/parse.js';
import type { LabMission, LabScenario } from './config.js';
import { carried, histogramKey } from './histogram-files.js';
import { TOOL_SCENARIO_FILE, toolScenarioText } from './tool-scenario.js';

/**
 * The contents of the data files a loaded latency names: empirical values by file name as written,
 * histogram buckets by histogramKey. Objects without a prototype: a file may be named `__proto__`,
 * which an assignment to an ordinary object would take for its prototype, and the page lose.
 */
function latencyData(spec: LatencySpec, into: Pick<LabScenario, 'data' | 'histograms'> = { data: Object.create(null) as LabScenario['data'], histograms: Object.create(null) as LabScenario['histograms'] }): Pick<LabScenario, 'data' | 'histograms'> {
  if (spec.dist === 'empirical') into.data[spec.file] = [...spec.values];
  if (spec.dist === 'histogram' && spec.file !== null) into.histograms[histogramKey(spec)] = [...carried(spec.values)];
  if (spec.dist === 'mixture') for (const c of spec.components) latencyData(c, into);
  return into;
}

/** What the page takes of a scenario the command read: its data loaded, and its goals. */
export type LoadedForLab = Pick<ParsedScenario<Scenario>, 'scenario' | 'expectations'>;

/** A scenario as the page gets it: the file's text, what the CLI read of it, and how the command names it. */
export function labScenario(file: string | null, text: string, loaded: LoadedForLab, rest: Pick<LabScenario, 'name' | 'overrides' | 'seed' | 'allowOutside'>): LabScenario {
  return {
    ...rest, source: file ?? '(built-in lab defaults)', file, text,
    ...latencyData(loaded.scenario.service.latency), goals: loaded.expectations.map((e) => ({ metric: e.metric, text: e.text })),
  };
}

/**
 * A tool of an agent file as the page's start: its scenario as the agent composes it, written out
 * (tool-scenario.ts), on the tool's seed. The page's command and download name that text as
 * TOOL_SCENARIO_FILE: the file "Download scenario.yaml" writes, which runs as the page does.
 * `latency`: the tool's, each data file named as the agent file's directory sees it;
 * `agentCommand`: the run of the agent whose column of this tool has the page's numbers.
 */
export function toolStartScenario(picked: PickedTool, latency: LatencySpec, allowOutside: boolean, agentCommand: string): LabScenario {
  const { agent, tool, seed } = picked;
  const scenario = { ...picked.scenario, service: { ...picked.scenario.service, latency } };
  const text = toolScenarioText({ agent: agent.name, file: agent.file, tool: tool.name, scenario, expectations: tool.parsed.expectations, seed });
  return {
    name: `${agent.name}.${tool.name}`, source: `${TOOL_SCENARIO_FILE} (${tool.name} of ${agent.file})`, file: TOOL_SCENARIO_FILE, text, overrides: [], seed,
    ...latencyData(scenario.service.latency), allowOutside, goals: tool.parsed.expectations.map((e) => ({ metric: e.metric, text: e.text })),
    tool: { agent: agent.name, file: agent.file, name: tool.name, agentCommand },
  };
}

/** The `number`th of the guide's missions (from 1): the bundled scenario `path` as read, named `name`, on `seed`. */
export function labMission(number: number, path: string, text: string, loaded: LoadedForLab & Pick<ParsedScenario, 'description' | 'hint'>, name: string, seed: string): LabMission {
  const scenario = labScenario(path, text, loaded, { name, overrides: [], seed, allowOutside: false });
  return { id: scenario.name, number, description: loaded.description ?? scenario.name, hint: loaded.hint ?? '', scenario };
}
