/**
 * An agent as reported (docs/agents.md), and its readings as the `agents` field of the run JSON.
 * Its table is agent-table.ts (kept apart: the lab's page loads this file, and no table library);
 * its CSV rows, runs-csv.ts. Pure.
 */
import type { Annotations, AutoRetry } from '../agent/shape.js';
import { COST_READING, type AgentReadings, type Costs, type ToolReadings } from '../agent/readings.js';
import type { Cost } from '../agent/parse.js';

/** One agent as run: its traffic, its tools (each also a run of the report, named `run`) and its readings. */
export interface AgentRun {
  name: string;
  file: string;
  seed: string;
  traffic: { calls_per_s: number; conversations_per_s: number | null; calls_per_conversation: number; auto_retry: AutoRetry };
  tools: { name: string; run: string; share: number; annotations: Annotations; retried: boolean; cost: { duplicate: Cost | null; lost: Cost | null } }[];
  readings: AgentReadings;
  /** The agent file's own warnings (its tools' are their runs'), as one-paragraph texts. */
  warnings: readonly string[];
}

/** A cost as the file writes it: {amount, currency} for money, {amount, unit} otherwise. */
const writtenCost = (c: Cost | null) => (c === null ? null : c.money ? { amount: c.amount, currency: c.per } : { amount: c.amount, unit: c.per });

/** Costs as a JSON object, a field per currency or unit (each its own, whatever its name). */
const costsJson = (c: Costs): Record<string, unknown> => Object.fromEntries(c);

/** The `agents` field of the run JSON. */
export function agentsJson(agents: readonly AgentRun[]): unknown[] {
  return agents.map((a) => ({
    name: a.name, file: a.file, seed: a.seed, traffic: a.traffic, warnings: a.warnings,
    tools: a.tools.map((t, i) => {
      const { name: _name, ...readings } = a.readings.tools[i] as ToolReadings;
      void _name;
      return { name: t.name, run: t.run, annotations: t.annotations, retried: t.retried, cost: { duplicate: writtenCost(t.cost.duplicate), lost: writtenCost(t.cost.lost) }, readings: { ...readings, [COST_READING]: costsJson(readings.cost_per_day) } };
    }),
    readings: { ...a.readings.readings, [COST_READING]: costsJson(a.readings.cost_per_day) },
  }));
}
