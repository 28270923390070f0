/**
 * Reading an agent file (docs/agents.md) for a command: the file, the scenario files its tools
 * extend (the same folder rules as data files), and each tool's data files; then, after the runs,
 * the agent's readings from its tools' results. `run` and `check` take an agent file wherever
 * they take a scenario: its tools become runs of their own, named by the tool.
 */
import { basename, extname } from 'node:path';
import { parseAgent, type AgentTool, type ParsedAgent } from '../../agent/parse.js';
import { agentReadings, type ToolResult } from '../../agent/readings.js';
import type { Scenario } from '../../model/types.js';
import type { AgentRun } from '../../report/agent.js';
import { readDocument, type Override, type ParsedScenario, type ScenarioWarning } from '../../scenario/parse.js';
import { isAgentDocument } from '../../agent/parse.js';
import { baseFiles, loadEmpiricalData, readUserFile, type DataAccess } from '../files.js';
import { warn, type Io } from '../io.js';
import { overridesOf, type ScenarioSettings } from '../settings/scenario.js';
import { labDefaultsNote, warningTexts } from './load.js';

/** An agent whose tools' scenarios are ready to run (their data files read). */
export interface LoadedAgent extends ParsedAgent {
  file: string;
  /** Each tool with its data read, and `writtenIn`: the file it extends that wrote a key, if one did (data files are read relative to it). */
  tools: (AgentTool & { scenario: Scenario; writtenIn: (keyPath: readonly (string | number)[]) => string | undefined })[];
}

/** Whether a file is an agent file: its text has `tools:` at the top level (a scenario never has). */
export function isAgentText(text: string, source: string): boolean {
  // Most scenario files never say "tools": only those that do are read twice.
  return /\btools\b/.test(text) && isAgentDocument(readDocument(text, source).document);
}

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
 * no effect, its own and its tools'; with `notes`, it adds there the note of the lab values its tools run on.
 */
export function agentReader(settings: ScenarioSettings, io: Pick<Io, 'stderr'>, notes?: string[]): (file: string | null) => LoadedAgent | undefined {
  const overrides = overridesOf(settings);
  const access: DataAccess = { allowOutside: settings.allowOutside };
  return (file) => {
    const agent = readAgentFile(file, overrides, access);
    if (agent) for (const text of warningTexts(agentWarnings(agent))) warn(io, text);
    const text = agent && notes && labDefaultsNote(file, toolScenarios(agent));
    if (text) notes?.push(text);
    return agent;
  };
}

/** An agent's tools' scenarios, each by the tool's name (for labDefaultsNote). */
export const toolScenarios = (agent: ParsedAgent): { name: string; parsed: ParsedScenario }[] => agent.tools.map((t) => ({ name: t.name, parsed: t.parsed }));

/** Every warning of an agent: its own, then each tool's (named by the tool). */
export function agentWarnings(agent: ParsedAgent): ScenarioWarning[] {
  return [...agent.warnings, ...agent.tools.flatMap((t) => t.parsed.warnings.map((w) => ({ ...w, problem: `${w.problem} (tool ${t.name})` })))];
}

/** A tool's run, named by the tool; after its file's name when the command was given several files. */
export const toolRunName = (fileName: string, tool: string, severalFiles: boolean): string => (severalFiles ? `${fileName}.${tool}` : tool);

/** The seed a tool runs on: the agent's, then the tool's name (each tool its own stream). */
export const toolSeed = (seed: string, tool: string): string => `${seed}/${tool}`;

/** The agent as reported, from its tools' runs (in the agent's order, `run` each one's run name). */
export type ToolRun = Pick<ToolResult, 'metrics' | 'duplicated'> & { run: string };

export function agentRun(agent: LoadedAgent, seed: string, runs: readonly ToolRun[], warnings: readonly string[]): AgentRun {
  const results = agent.tools.map((t, i): ToolResult => ({ name: t.name, share: t.share, cost: t.cost, metrics: (runs[i] as ToolRun).metrics, duplicated: (runs[i] as ToolRun).duplicated, readOnly: t.annotations.readOnlyHint }));
  return {
    name: agent.name, file: agent.file, seed,
    traffic: { calls_per_s: agent.callsPerS, conversations_per_s: agent.conversationsPerS, calls_per_conversation: agent.callsPerConversation, auto_retry: agent.autoRetry },
    tools: agent.tools.map((t, i) => ({ name: t.name, run: (runs[i] as ToolRun).run, share: t.share, annotations: t.annotations, retried: t.retried, cost: t.cost })),
    readings: agentReadings(results, agent.callsPerConversation),
    warnings,
  };
}
