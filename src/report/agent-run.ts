/** An agent as reported (report/agent.ts AgentRun), from its tools' runs: the agent's readings are sums of their results. Pure. */
import type { LoadedAgent, ToolRun } from '../agent/loaded.js';
import { agentReadings, type ToolResult } from '../agent/readings.js';
import type { AgentRun } from './agent.js';

/** The agent's report from its tools' runs, in the agent's order; `warnings`: the agent file's own, as texts. */
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
