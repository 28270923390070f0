/**
 * An agent file as a command runs it (docs/agents.md): each tool's scenario with its data files
 * read (the shell reads them: cli/shared/agent-load.ts), each tool a run of its own, named by
 * the tool and on a seed of its own. Pure.
 */
import type { Scenario } from '../model/types.js';
import type { ToolResult } from './readings.js';
import { isAgentDocument, type AgentTool, type ParsedAgent } from './parse.js';
import { readDocument, type ParsedScenario, type ScenarioWarning } from '../scenario/parse.js';

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

/** A tool's run, for the agent's report (in the agent's order, `run` each one's run name). */
export type ToolRun = Pick<ToolResult, 'metrics' | 'duplicated'> & { run: string };
