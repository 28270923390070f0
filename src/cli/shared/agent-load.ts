/**
 * Reading an agent file (docs/agents.md) for a command: the file, the scenario files its tools
 * extend (the same folder rules as data files), and each tool's data files. `run` and `check`
 * take an agent file wherever they take a scenario: its tools become runs of their own, named by
 * the tool (agent/loaded.ts), and the agent's readings come from their results (report/agent-run.ts).
 */
import { basename, extname } from 'node:path';
import { agentWarnings, isAgentText, toolScenarios, type LoadedAgent } from '../../agent/loaded.js';
import { parseAgent } from '../../agent/parse.js';
import type { Override } from '../../scenario/parse.js';
import { baseFiles, loadEmpiricalData, readUserFile, type DataAccess } from '../../io/files.js';
import { warn, type Io } from '../../io/streams.js';
import { overridesOf, type ScenarioSettings } from '../settings/scenario.js';
import { forCommand, labDefaultsNote, warningTexts } from './load.js';

export { agentWarnings, isAgentText, toolRunName, toolScenarios, toolSeed, type LoadedAgent, type ToolRun } from '../../agent/loaded.js';
export { agentRun } from '../../report/agent-run.js';

/** Reads an agent file, with the files its tools extend and their data files. */
export function loadAgent(file: string, text: string, overrides: readonly Override[], access: DataAccess): LoadedAgent {
  const name = basename(file, extname(file));
  const agent = parseAgent(text, file, name, overrides, baseFiles(file, access));
  const tools = agent.tools.map((t) => {
    const bases = t.parsed.bases ?? [];
    const writtenIn = (keyPath: readonly (string | number)[]): string | undefined => {
      const source = t.parsed.locate?.(keyPath).source;
      return source !== undefined && bases.includes(source) ? source : undefined;
    };
    return { ...t, scenario: loadEmpiricalData(t.parsed.scenario, file, t.parsed.locate, access, writtenIn), writtenIn };
  });
  return { ...agent, file, tools };
}

/** Reads a file that may be an agent file: the agent, or undefined for a scenario (read as before). */
export function readAgentFile(file: string | null, overrides: readonly Override[], access: DataAccess): LoadedAgent | undefined {
  if (file === null) return undefined;
  const text = readUserFile(file, 'the scenario file');
  return isAgentText(text, file) ? loadAgent(file, text, overrides, access) : undefined;
}

/**
 * The command's reader of agent files, as scenarioReader reads scenarios: undefined for a file that
 * is not one (the built-in defaults, a scenario). Warns on `io` of the agent's settings that have
 * no effect, its own and its tools' (of expectations only when `checking`, as scenarioReader); with `notes`, it adds there the note of the lab values its tools run on.
 */
export function agentReader(settings: ScenarioSettings, io: Pick<Io, 'stderr'>, notes?: string[], checking = false): (file: string | null) => LoadedAgent | undefined {
  const overrides = overridesOf(settings);
  const access: DataAccess = { allowOutside: settings.allowOutside };
  return (file) => {
    const read = readAgentFile(file, overrides, access);
    const agent = read && {
      ...read, warnings: forCommand(read.warnings, checking),
      tools: read.tools.map((t) => ({ ...t, parsed: { ...t.parsed, warnings: forCommand(t.parsed.warnings, checking) } })),
    };
    if (agent) for (const text of warningTexts(agentWarnings(agent))) warn(io, text);
    const text = agent && notes && labDefaultsNote(file, toolScenarios(agent));
    if (text) notes?.push(text);
    return agent;
  };
}
