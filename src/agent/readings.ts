/**
 * The agent's readings (docs/agents.md, "Readings"): sums and products of its tools' own results,
 * nothing simulated anew. Each tool runs on its own stream, so the tools' estimates are
 * independent: a sum's 95% half-widths are the roots of the sums of the squares of its terms'
 * (a tool with none seen adds its rule-of-three bound above, nothing below), and the chance that a conversation meets a
 * duplicate carries its terms' half-widths through its derivative (the delta method). A tool
 * marked read-only is left out of the agent's duplicates: repeating a read changes nothing (a read
 * that does change something is a lying hint, warned of by agent/parse.ts). Pure.
 */
import type { Estimate, Metrics } from '../results/metrics.js';
import type { Cost } from './parse.js';

const DAY_S = 86_400;

/** What the readings need of one tool's run. */
export interface ToolResult {
  name: string;
  share: number;
  cost: { duplicate: Cost | null; lost: Cost | null };
  metrics: Metrics;
  /** Actions executed more than once, per action (the `duplicated` counter's mean and 95% half-width). */
  duplicated: { mean: number; half: number };
  /** Marked readOnlyHint: its repeats change nothing, so the agent's duplicates leave them out (its own column still shows them). */
  readOnly: boolean;
}

/** One reading of the agent: its path under `agent.` (expect:), its kind and how it reads. */
export interface ReadingDef {
  readonly path: string;
  readonly kind: 'estimate' | 'value';
  /** As docs/csv.md words units. */
  readonly unit: string;
  readonly label: string;
  readonly description: string;
}

/** Every reading, in the order the outputs list them; `cost_per_day` has one entry per currency or unit. */
export const AGENT_READINGS = [
  { path: 'calls_per_day', kind: 'value', unit: 'per day', label: 'tool calls per day', description: 'calls a day across the tools at the agent\'s traffic (twins included)' },
  { path: 'duplicates_per_day', kind: 'estimate', unit: 'per day', label: 'duplicates per day', description: 'executions beyond each action\'s first, a day, summed over the tools' },
  { path: 'duplicates_per_1000_calls', kind: 'estimate', unit: 'per 1000 calls', label: 'duplicates per 1000 calls', description: 'duplicates per 1000 of the agent\'s calls (the tools weighed by their calls)' },
  { path: 'lost_per_day', kind: 'estimate', unit: 'per day', label: 'lost actions per day', description: 'actions that never executed, a day, summed over the tools' },
  { path: 'duplicated_calls_per_1000', kind: 'estimate', unit: 'per 1000 calls', label: 'calls duplicated per 1000', description: 'calls executed more than once per 1000 of the agent\'s calls (twins counted with the call that made them)' },
  { path: 'conversation_duplicate_chance', kind: 'estimate', unit: 'fraction (0 to 1)', label: 'chance a conversation meets a duplicate', description: 'chance that at least one of a conversation\'s agent.calls_per_conversation calls is executed more than once' },
  { path: 'keys', kind: 'value', unit: 'key records', label: 'steady-state keys (all tools)', description: 'key records held at once, summed over the tools\' key stores' },
  { path: 'key_store_mb', kind: 'value', unit: 'MB (10^6 bytes)', label: 'steady-state key store (MB, all tools)', description: 'the tools\' key stores summed (MB)' },
] as const satisfies readonly ReadingDef[];

export type ReadingPath = (typeof AGENT_READINGS)[number]['path'];
/** The cost a day in one currency or unit: `cost_per_day.USD`, `cost_per_day.ticket`. */
export const COST_READING = 'cost_per_day';
export const COST_DESCRIPTION = 'what the duplicates and lost actions of a day cost, summed over the tools, one reading per currency or unit';

/** A reading's value with its 95% interval (estimates), or its value alone. */
export interface Reading { value: number; ci95?: [number, number] }

/**
 * Cost a day by currency (money) or unit, in the order the tools first name them. A map: a unit
 * is the user's word (`constructor` is one), which an object's prototype would answer for.
 */
export type Costs = ReadonlyMap<string, Reading & { money: boolean }>;

/** One tool's part of the agent's readings (the agent's are their sums). */
export interface ToolReadings {
  name: string;
  share: number;
  calls_per_day: Reading;
  duplicates_per_day: Reading;
  lost_per_day: Reading;
  /** Calls (primary actions) executed more than once, per 1000 of the tool's calls. */
  duplicated_calls_per_1000: Reading;
  cost_per_day: Costs;
}

export interface AgentReadings {
  readings: Record<ReadingPath, Reading>;
  cost_per_day: Costs;
  tools: ToolReadings[];
}

/**
 * A term of a sum: its value and the 95% half-widths below and above it. A zero count's interval
 * is one-sided (0 to its rule-of-three bound): it widens a sum's upper end only, so a sum is never
 * said to reach below what its counted terms make sure of.
 */
interface Term { value: number; below: number; above: number }
const termOf = (e: Estimate, k = 1): Term => ({ value: e.value * k, below: (e.value - e.ci95[0]) * k, above: (e.ci95[1] - e.value) * k });
const scaled = (t: Term, k: number): Term => ({ value: t.value * k, below: t.below * k, above: t.above * k });
const root = (xs: readonly number[]): number => Math.sqrt(xs.reduce((s, x) => s + x * x, 0));
const sum = (terms: readonly Term[]): Term => ({ value: terms.reduce((s, t) => s + t.value, 0), below: root(terms.map((t) => t.below)), above: root(terms.map((t) => t.above)) });
const estimate = (t: Term, max = Infinity): Reading => ({ value: t.value, ci95: [Math.max(0, t.value - t.below), Math.min(max, t.value + t.above)] });

/** A tool's terms: duplicates and lost a day, and the chance that one of its calls is executed more than once. */
function termsOf(t: ToolResult): { dupDay: Term; lostDay: Term; duplicated: Term; callsPerDay: number } {
  const m = t.metrics;
  const callsPerDay = m.actions_per_second * DAY_S;
  // A call is a primary action: its twin's duplicate counts with it (an upper bound on the chance the call meets one).
  const perPrimary = m.primary_actions > 0 ? m.actions / m.primary_actions : 1;
  const none = t.duplicated.mean === 0;
  const above = none ? (m.actions > 0 ? 3 / m.actions : 1) : t.duplicated.half;
  const value = Math.min(1, t.duplicated.mean * perPrimary);
  return {
    dupDay: termOf(m.duplicates_per_day), lostDay: termOf(m.lost_per_1000, callsPerDay / 1000), callsPerDay,
    duplicated: { value, below: none ? 0 : Math.min(value, t.duplicated.half * perPrimary), above: above * perPrimary },
  };
}

/** Cost a day of each currency or unit that `costs` name, from the duplicates and lost actions a day they price. */
function costsOf(priced: readonly (readonly [Cost | null, Term])[]): Costs {
  const out = new Map<string, Reading & { money: boolean }>();
  for (const [c] of priced) {
    if (c === null || out.has(c.per)) continue;
    const terms = priced.filter(([d]) => d?.per === c.per).map(([d, t]) => scaled(t, (d as Cost).amount));
    out.set(c.per, { ...estimate(sum(terms)), money: c.money });
  }
  return out;
}

/** The agent's readings from its tools' results; `callsPerConversation` for the conversation's chance. */
export function agentReadings(results: readonly ToolResult[], callsPerConversation: number): AgentReadings {
  const terms = results.map(termsOf);
  const tools = results.map((t, i): ToolReadings => {
    const x = terms[i] as ReturnType<typeof termsOf>;
    return {
      name: t.name, share: t.share, calls_per_day: { value: x.callsPerDay }, duplicates_per_day: estimate(x.dupDay), lost_per_day: estimate(x.lostDay),
      duplicated_calls_per_1000: estimate(scaled(x.duplicated, 1000), 1000), cost_per_day: costsOf([[t.cost.duplicate, x.dupDay], [t.cost.lost, x.lostDay]]),
    };
  });
  const callsPerDay = terms.reduce((s, x) => s + x.callsPerDay, 0);
  const harmful = (i: number) => !(results[i] as ToolResult).readOnly;
  const dup = sum(terms.flatMap((x, i) => (harmful(i) ? [x.dupDay] : [])));
  const pCall = sum(terms.flatMap((x, i) => (harmful(i) ? [scaled(x.duplicated, (results[i] as ToolResult).share)] : [])));
  const n = callsPerConversation;
  const none = Math.max(0, 1 - pCall.value);
  const slope = n * none ** (n - 1);
  const chance: Term = { value: 1 - none ** n, below: slope * pCall.below, above: slope * pCall.above };
  return {
    readings: {
      calls_per_day: { value: callsPerDay },
      duplicates_per_day: estimate(dup),
      duplicates_per_1000_calls: estimate(scaled(dup, 1000 / callsPerDay)),
      lost_per_day: estimate(sum(terms.map((x) => x.lostDay))),
      duplicated_calls_per_1000: estimate(scaled(pCall, 1000), 1000),
      conversation_duplicate_chance: estimate(chance, 1),
      keys: { value: results.reduce((s, t) => s + t.metrics.keys, 0) },
      key_store_mb: { value: results.reduce((s, t) => s + t.metrics.key_store_mb, 0) },
    },
    cost_per_day: costsOf(results.flatMap((t, i) => [[t.cost.duplicate, (terms[i] as ReturnType<typeof termsOf>).dupDay], [t.cost.lost, (terms[i] as ReturnType<typeof termsOf>).lostDay]] as const)),
    tools,
  };
}

/** A reading by its path under `agent.` (`duplicates_per_day`, `cost_per_day.USD`); undefined when the agent has none such. */
export function readReading(r: AgentReadings, path: string): Reading | undefined {
  if (path.startsWith(`${COST_READING}.`)) return r.cost_per_day.get(path.slice(COST_READING.length + 1));
  if (path === COST_READING) {
    const all = [...r.cost_per_day.values()];
    return all.length === 1 ? all[0] : undefined;
  }
  return Object.hasOwn(r.readings, path) ? r.readings[path as ReadingPath] : undefined;
}
