/**
 * An agent file's sweep (docs/sweeps.md, "Agent files"): which keys of an agent file a sweep
 * may vary, the grid's axes with the limit counting every tool's run, each point's labels, and
 * the metric its heat map shows. Pure: the command (cli/agent-sweep.ts) reads the files and
 * runs the tools. A point's overrides are the scenario sweep's (plan.ts `pointOverrides`): the
 * agent file's reader takes `tools.NAME.KEY`, `defaults.KEY` and `agent.KEY` as `--set` does.
 */
import type { ParsedAgent } from '../agent/parse.js';
import { AGENT_READINGS, COST_READING } from '../agent/readings.js';
import { InputError } from '../scenario/errors.js';
import { parseKeyPath } from '../scenario/overrides.js';
import { didYouMean } from '../scenario/suggest.js';
import { SWEEP_METRIC_PATHS, type MetricPath } from '../results/metric-registry.js';
import type { WrittenScenario } from '../model/types.js';
import type { GridPoint } from './grid.js';
import { pointLabel, type Label } from './labels.js';
import { readAxes, type SweepAxis } from './plan.js';

/**
 * What a point's labels read of its agent: its traffic, and each tool's scenario as written with
 * whether it takes a key from the agent's `defaults:` (neither its own keys, nor the file it
 * extends, nor the agent, which sets a tool's load and a tool it does not retry's retries, set it).
 */
export interface AgentPointView {
  callsPerS: number;
  conversationsPerS: number | null;
  callsPerConversation: number;
  autoRetry: string;
  tools: readonly { name: string; written: WrittenScenario; inherits: (path: readonly (string | number)[]) => boolean }[];
}

/**
 * The view of `agent` (with `written`, each tool's scenario as written, in its order): a tool
 * takes a default when its scenario's key was written in the agent's `defaults:` (the last
 * layer that holds it: agent/parse.ts `layered`), and the agent does not set it (a tool it does
 * not retry has no retries).
 */
export function agentPointView(agent: ParsedAgent, written: readonly WrittenScenario[]): AgentPointView {
  return {
    callsPerS: agent.callsPerS, conversationsPerS: agent.conversationsPerS, callsPerConversation: agent.callsPerConversation, autoRetry: agent.autoRetry,
    tools: agent.tools.map((t, i) => ({
      name: t.name, written: written[i] as WrittenScenario,
      inherits: (path) => {
        if (!t.retried && path[0] === 'client' && path[1] === 'retries') return false;
        // A tool's locate gives a key's own place (parseScenarioMapping): the defaults' key is asked for the same.
        const here = t.parsed.locate?.(path);
        return here !== undefined && JSON.stringify(here) === JSON.stringify(agent.locate(['defaults', ...path], true));
      },
    })),
  };
}

/** The agent's own keys a sweep may vary (agent/shape.ts): its traffic, and what its client retries. */
export const AGENT_SWEEP_KEYS = ['calls_per_s', 'conversations_per_s', 'calls_per_conversation', 'auto_retry'] as const;
type AgentKey = (typeof AGENT_SWEEP_KEYS)[number];

/** What a varied path of an agent file names: the agent's own key, a key every tool shares, or one tool's key. */
export type AgentAxisKey =
  | { kind: 'agent'; key: AgentKey }
  | { kind: 'defaults'; key: string }
  | { kind: 'tool'; tool: string; key: string };

const FIX = 'Vary a key every tool shares (--vary defaults.client.timeout=1s,2s), one tool\'s key by its name (--vary tools.NAME.idempotency.retention=5m,1h), or the agent\'s traffic or retries (agent.calls_per_s, agent.conversations_per_s, agent.calls_per_conversation, agent.auto_retry).';

/** What `path` names in an agent with tools `tools`; refused (with `option`, how it was given) when it names no key a sweep may vary. */
export function agentAxisKey(path: string, tools: readonly string[], option: string): AgentAxisKey {
  const parts = parseKeyPath(path) ?? [];
  const [head, second] = parts;
  const rest = (n: number) => path.slice(path.split('.').slice(0, n).join('.').length + 1);
  if (head === 'agent' && parts.length === 2 && AGENT_SWEEP_KEYS.includes(second as AgentKey)) return { kind: 'agent', key: second as AgentKey };
  if (head === 'defaults' && parts.length >= 2 && typeof second === 'string') return modelKey({ kind: 'defaults', key: rest(1) }, path, option);
  if (head === 'tools' && typeof second === 'string' && parts.length >= 3) {
    if (!tools.includes(second)) {
      const guess = didYouMean(second, tools);
      throw new InputError({ source: option }, '', `the agent has no tool named "${second}"`, `${guess ? `Did you mean ${guess}? ` : ''}Name one of its tools: ${tools.join(', ')}.`);
    }
    if (parts[2] === 'share' || parts[2] === 'annotations' || parts[2] === 'cost') {
      throw new InputError({ source: option }, '', `${path} is the tool's ${String(parts[2])}, which a sweep does not vary (a tool's path names its scenario's keys)`,
        parts[2] === 'share' ? 'The shares sum to 1: vary the agent\'s traffic (agent.calls_per_s), or the tool\'s scenario keys.' : 'Run the agent file once per setting with --set, or vary the tool\'s scenario keys.');
    }
    return modelKey({ kind: 'tool', tool: second, key: rest(2) }, path, option);
  }
  throw new InputError({ source: option }, '', `${path} is not a key an agent file's sweep varies`, FIX);
}

/** A scenario key of the defaults or a tool: refused when the agent sets it (the load) or it is the file's, not the model's. */
function modelKey<K extends AgentAxisKey & { key: string }>(k: K, path: string, option: string): K {
  const top = k.key.split(/[.[]/)[0] ?? '';
  if (top === 'load' && /^load\.(rate_per_s|profile)\b/.test(k.key)) {
    throw new InputError({ source: option }, '', `${path} is set by the agent: its traffic times the tool's share is every tool's rate, and it is steady`,
      'Vary the agent\'s traffic (--vary agent.calls_per_s=1,5,20, or agent.conversations_per_s), or sweep the tool\'s scenario file alone for a changing rate.');
  }
  if (['seed', 'description', 'hint', 'expect', 'sweep', '$schema', 'extends'].includes(top)) {
    throw new InputError({ source: option }, '', `${path} is not a setting of the model`,
      top === 'seed' ? 'Every point runs each tool on SEED/TOOL (common random numbers); to compare seeds, run the sweep with --seed.' : 'Vary the tools\' settings, such as defaults.client.timeout.');
  }
  return k;
}

/** The scenario key a varied path names (its unit and kind: a duration, a whole number), or the path itself for the agent's own keys. */
export const scenarioKeyOf = (k: AgentAxisKey): string => (k.kind === 'agent' ? `agent.${k.key}` : k.key);

/**
 * The grid's axes for an agent of `tools`: the --vary options (an agent file has no `sweep:`
 * block), each naming a key `agentAxisKey` takes. A point runs every tool, so the grid's size
 * counts its runs, points × tools, against `limit()` (--max-points).
 */
export function readAgentAxes(file: string, vary: readonly string[], tools: readonly string[], limit: () => number): { axes: SweepAxis[]; keys: AgentAxisKey[] } {
  if (vary.length === 0) {
    throw new InputError({ source: file }, '', 'nothing to vary', `Give --vary PATH=VALUES, such as --vary tools.${tools[0] ?? 'NAME'}.idempotency.retention=5m,1h or --vary defaults.client.timeout=500ms..2s:4.`);
  }
  const keys = new Map<string, AgentAxisKey>();
  for (const arg of vary) {
    const eq = arg.indexOf('=');
    const path = eq > 0 ? arg.slice(0, eq).trim() : '';
    if (path && parseKeyPath(path)) keys.set(path, agentAxisKey(path, tools, `--vary ${arg}`));
  }
  // A path that does not parse is refused by readAxes, as for a scenario.
  const keyOf = (path: string) => { const k = keys.get(path); return k ? scenarioKeyOf(k) : path; };
  const axes = readAxes(file, [], vary, limit, { perPoint: tools.length, what: 'tools', keyOf });
  return { axes, keys: axes.map((a) => keys.get(a.path) as AgentAxisKey) };
}

/**
 * A point's labels: each varied key's value as the point's agent holds it (a duration in ms, a
 * preset by its name): a tool's key as its scenario holds it; a default as the first tool that
 * takes it from the defaults holds it; the agent's own key as the agent reads it. The value as
 * the sweep wrote it where none holds it.
 */
export function agentPointParams(axes: readonly SweepAxis[], keys: readonly AgentAxisKey[], pt: GridPoint, agent: AgentPointView): Record<string, Label> {
  return Object.fromEntries(axes.map((a, i) => [a.path, agentLabel(keys[i] as AgentAxisKey, agent) ?? (pt.values[i] as string)]));
}

function agentLabel(k: AgentAxisKey, agent: AgentPointView): Label | undefined {
  if (k.kind === 'agent') {
    const v = { calls_per_s: agent.callsPerS, conversations_per_s: agent.conversationsPerS, calls_per_conversation: agent.callsPerConversation, auto_retry: agent.autoRetry }[k.key];
    return v ?? undefined;
  }
  const path = parseKeyPath(k.key) ?? [];
  const tool = k.kind === 'tool' ? agent.tools.find((t) => t.name === k.tool) : agent.tools.find((t) => t.inherits(path));
  return tool ? pointLabel(tool.written, path) : undefined;
}

/** The tools that take a default from the agent's `defaults:` (none: a `--vary defaults.KEY` has no effect). */
export const inheritingTools = (k: AgentAxisKey, agent: AgentPointView): string[] =>
  (k.kind === 'defaults' ? agent.tools.filter((t) => t.inherits(parseKeyPath(k.key) ?? [])).map((t) => t.name) : []);

/** What a heat map or the table's last column of an agent's sweep shows: one of the agent's readings, or one tool's metric. */
export type AgentSweepMetric = { kind: 'agent'; reading: string; path: string } | { kind: 'tool'; tool: string; metric: MetricPath; path: string };

/** The metric without --metric: the duplicates a day across the tools. */
export const DEFAULT_AGENT_METRIC = 'agent.duplicates_per_day';

/**
 * --metric of an agent's sweep: `agent.READING` (agent/readings.ts; `cost_per_day.PER` for a
 * currency or unit the tools' costs name, `cost_per_day` alone when they name one) or
 * `TOOL.METRIC` (a metric `sweep --metric` takes, of one of the tools).
 */
export function agentSweepMetric(text: string, tools: readonly string[], costs: readonly string[]): AgentSweepMetric {
  const source = { source: `--metric ${text}` };
  const dot = text.indexOf('.');
  const head = dot < 0 ? text : text.slice(0, dot);
  const rest = text.slice(dot + 1);
  if (head === 'agent' && dot > 0) {
    const readings = [...AGENT_READINGS.map((d) => d.path), ...(costs.length === 1 ? [COST_READING] : []), ...costs.map((c) => `${COST_READING}.${c}`)];
    if (readings.includes(rest)) return { kind: 'agent', reading: rest, path: text };
    const guess = didYouMean(rest, readings);
    throw new InputError(source, '', `"${rest}" is not a reading of the agent${rest === COST_READING && costs.length > 1 ? ` alone: its tools cost in ${costs.join(', ')}` : ''}`,
      `${guess ? `Did you mean agent.${guess}? ` : ''}Readings: ${readings.map((r) => `agent.${r}`).join(', ')}.`);
  }
  if (tools.includes(head) && dot > 0) {
    if ((SWEEP_METRIC_PATHS as readonly string[]).includes(rest)) return { kind: 'tool', tool: head, metric: rest as MetricPath, path: text };
    const guess = didYouMean(rest, SWEEP_METRIC_PATHS);
    throw new InputError(source, '', `"${rest}" is not a metric of a tool's run`, `${guess ? `Did you mean ${head}.${guess}? ` : ''}Give ${head}.METRIC with a metric such as duplicates_per_1000 (docs/csv.md lists them).`);
  }
  const guess = didYouMean(head, [...tools, 'agent']);
  throw new InputError(source, '', `names neither the agent's readings nor one of its tools' metrics`,
    `${guess ? `Did you mean ${guess}? ` : ''}Give agent.READING (such as ${DEFAULT_AGENT_METRIC}) or TOOL.METRIC with TOOL one of: ${tools.join(', ')}.`);
}

/** --find and --series are a scenario's sweep's (an agent's tools keep no alerts at its points, and no saturation reading is the agent's): refused, given as `find` and `series`. */
export function refuseForAgent(find: string | undefined, series: string | undefined): void {
  if (find === undefined && series === undefined) return;
  throw new InputError({ source: find !== undefined ? `--find ${find}` : `--series ${series ?? ''}` }, '', 'applies to a scenario\'s sweep, and this is an agent file',
    'Sweep the tool\'s own scenario file with it (idem-sim sweep TOOL.yaml --vary ...), or drop it.');
}
