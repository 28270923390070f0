/**
 * `--tool NAME` of `report` and `lab`: one tool of an agent file, picked by name, with the seed it
 * runs on (the agent's, made its own: loaded.ts toolSeed), so a tool's page has the numbers of
 * its column in `run AGENT.yaml`. Pure.
 */
import { InputError, type Origin } from '../scenario/errors.js';
import { clipped } from '../scenario/printable.js';
import type { Scenario } from '../model/types.js';
import { toolSeed, type LoadedAgent } from './loaded.js';

/** A tool picked from an agent file, ready to run as a scenario. */
export interface PickedTool {
  agent: LoadedAgent;
  tool: LoadedAgent['tools'][number];
  scenario: Scenario;
  /** The agent's seed (--seed, else the file's) and the tool's own (`SEED/TOOL`). */
  agentSeed: string;
  seed: string;
  locate?: (path: readonly (string | number)[]) => Origin;
}

/** The agent's tools, as an error lists them. */
const toolList = (agent: LoadedAgent): string => agent.tools.map((t) => t.name).join(', ');

/** The tool `--tool NAME` names, run on `agentSeed` (the agent's seed: --seed, else the file's); an unknown name is refused with the agent's tools. */
export function pickTool(agent: LoadedAgent, name: string, agentSeed: string): PickedTool {
  const tool = agent.tools.find((t) => t.name === name);
  if (!tool) {
    throw new InputError({ source: '--tool' }, '', `the agent ${agent.name} (${agent.file}) has no tool named "${clipped(name, 60)}"`, `Name one of its tools: ${toolList(agent)}.`);
  }
  return { agent, tool, scenario: tool.scenario, agentSeed, seed: toolSeed(agentSeed, tool.name), ...(tool.parsed.locate ? { locate: tool.parsed.locate } : {}) };
}

/** `--tool` given with a scenario file (or none): there is no tool to pick. */
export function refuseToolOfScenario(file: string | null, command: string): never {
  throw new InputError({ source: '--tool' }, '', `names a tool of an agent file, but ${file ?? 'the built-in lab defaults'} ${file ? 'is a scenario file (it has no tools:)' : 'are a scenario'}`,
    `Leave --tool out to ${command} the scenario, or give an agent file (docs/agents.md).`);
}

/** An agent file where `command` needs one scenario (`why`, a clause): which tools there are, and how to pick one. */
export function refuseAgentWithoutTool(agent: LoadedAgent, command: string, why: string): never {
  throw new InputError({ source: agent.file }, '', `is an agent file of ${agent.tools.length} tool${agent.tools.length === 1 ? '' : 's'} (${toolList(agent)}), and ${why}`,
    `Pick one with --tool NAME, such as \`idem-sim ${command} ${agent.file} --tool ${agent.tools[0]?.name ?? 'NAME'}\`.`);
}
