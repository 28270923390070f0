/**
 * Understanding an agent file (docs/agents.md): text in, the agent's traffic, its annotations and
 * costs, and one ready-to-run scenario per tool out. Pure, as scenario/parse.ts: the CLI reads the
 * files. A tool's scenario is composed of the agent's `defaults:`, the tool's `extends:` chain and
 * its own keys (in that order, each winning over the one before), and its load is the agent's:
 * `load.rate_per_s` is the agent's calls a second times the tool's share.
 */
import { formatPath } from '../scenario/document.js';
import { InputError, type Origin } from '../scenario/errors.js';
import { applyOverride, parseScenarioMapping, readDocument, type Override, type ParsedScenario, type ScenarioWarning } from '../scenario/parse.js';
import { resolveExtends, type BaseFiles } from '../scenario/extends.js';
import { compose, forceAgentKeys, namingTool, toolExpect } from './compose.js';
import { hintWarnings, retriesWarnings } from './hints.js';
import { clipped, SEED_FORM, SEED_TEXT } from '../scenario/printable.js';
import { agentName } from './names.js';
import { isMapping, readParam, type Locate } from './read.js';
import { MIN_RATE_PER_S } from '../model/limits.js';
import { NAME_FORM } from '../model/params.js';
import { SCENARIO_SHAPE } from '../model/shape.js';
import { AGENT_SHAPE, FILE_KEYS, RESERVED_TOOL_NAMES, type AgentShape, type Annotations, type AutoRetry, type CostShape } from './shape.js';
import { readAgentExpectations, type AgentExpectation } from './expect.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;

/** ISO 4217's currency codes, as this Node knows them (read once, when a cost names a currency). */
let currencies: ReadonlySet<string> | undefined;
const CURRENCIES = (): ReadonlySet<string> => (currencies ??= new Set(Intl.supportedValuesOf('currency')));

/** The shares of an agent's tools must sum to 1 within this. */
export const SHARE_TOLERANCE = 1e-6;

/** What one duplicate or one lost action costs: `per` is the currency (money) or the unit counted. */
export interface Cost { amount: number; per: string; money: boolean }

export interface AgentTool {
  name: string;
  share: number;
  annotations: Annotations;
  cost: { duplicate: Cost | null; lost: Cost | null };
  /** Whether the agent's client retries this tool (agent.auto_retry and its annotations). */
  retried: boolean;
  /** The tool's scenario as a scenario file's: the load is the agent's, the expectations its own and the agent file's TOOL.METRIC ones. */
  parsed: ParsedScenario;
}

export interface ParsedAgent {
  name: string;
  description?: string;
  seed?: string;
  /** Tool calls a second across the tools; conversations a second when the file gives them. */
  callsPerS: number;
  conversationsPerS: number | null;
  callsPerConversation: number;
  autoRetry: AutoRetry;
  tools: AgentTool[];
  /** `expect:` on the agent's readings (agent.READING). */
  expectations: AgentExpectation[];
  /** The agent file's own warnings (each tool's scenario warnings are in its `parsed`). */
  warnings: ScenarioWarning[];
  locate: Locate;
}

/** Whether a document is an agent file rather than a scenario: it has `tools:`. */
export const isAgentDocument = (document: unknown): boolean => isMapping(document) && Object.hasOwn(document, 'tools');

/** The keys of a scenario's own `agent:` section (the model's re-plans), which an agent file's `agent:` is not. */
const SCENARIO_AGENT_KEYS = SCENARIO_SHAPE.params.agent.params;

/** Keys a scenario file may hold that are the file's, not the model's: not in `defaults:`. */
const NOT_DEFAULTS = ['expect', 'sweep', 'seed', 'description', 'hint', '$schema', 'extends'];

/**
 * Parses an agent file. `fileName`: the file's base name, the agent's name when the file gives
 * none (in the form a name takes, agent/names.ts, and warned of when that rewrote it);
 * `overrides`: --set on the agent's document (`defaults.client.timeout`, `agent.calls_per_s`,
 * `tools.NAME.KEY` for a tool's scenario key) and --actions (every tool's `actions`).
 */
export function parseAgent(text: string, source: string, fileName: string, overrides: readonly Override[] = [], files?: BaseFiles & { id: string }): ParsedAgent {
  const probe = readDocument(text, source);
  const toolNames = isMapping(probe.document) && Array.isArray(probe.document['tools'])
    ? (probe.document['tools'] as unknown[]).map((t) => (isMapping(t) ? String(t['name']) : '')) : [];
  const onAgent = overrides.filter((o) => o.path[0] !== 'actions').map((o) => toolPath(o, toolNames));
  const onTools = overrides.filter((o) => o.path[0] === 'actions');
  const { document, locate } = onAgent.length > 0 ? readDocument(text, source, onAgent) : probe;
  if (!isMapping(document)) {
    throw new InputError(locate([]), '', 'the agent file is not a mapping of keys to values', 'Write it as `agent:`, `defaults:` and `tools:` at the top level (docs/agents.md).');
  }
  for (const o of onAgent) {
    applyOverride(document, o);
    const other = o.path[0] === 'agent' && o.path.length === 2 ? TRAFFIC_FORMS.get(String(o.path[1])) : undefined;
    if (other !== undefined && isMapping(document['agent'])) delete document['agent'][other];
  }

  refuseModelAgentKeys(document['agent'], locate);
  const extra = (path: Path): readonly string[] =>
    path.length === 0 ? [...Object.keys(FILE_KEYS), 'defaults'] : path.length === 2 && path[0] === 'tools' ? ['scenario'] : [];
  const read = readParam(AGENT_SHAPE, document, [], locate, extra) as AgentShape & Raw;
  const agent = read.agent as AgentShape['agent'] & { calls_per_s?: number; conversations_per_s?: number; name?: string };
  const callsPerS = traffic(agent, locate);
  const defaults = readDefaults(document['defaults'], locate);
  const seed = fileSeed(document['seed'], locate);
  checkTools(read.tools, callsPerS, locate);

  const warnings: ScenarioWarning[] = [];
  const unusedRetries: { tool: string; at: Origin }[] = [];
  const tools = read.tools.map((t, i): AgentTool => {
    const retried = agent.auto_retry === 'all' || (agent.auto_retry === 'idempotent' && (t.annotations.readOnlyHint || t.annotations.idempotentHint));
    const own = t['scenario' as keyof typeof t] as unknown;
    if (own !== undefined && !isMapping(own)) {
      throw new InputError(locate(['tools', i, 'scenario']), `tools[${i}].scenario`, `got ${JSON.stringify(own)}, expected a mapping of scenario keys`, 'Write the tool\'s scenario keys under it, such as `idempotency: {scope: intent}`.');
    }
    const toolLocate: Locate = (path, keyNode) => locate(['tools', i, 'scenario', ...path], keyNode);
    const extended = resolveExtends(own ?? {}, toolLocate, { source, id: files?.id ?? source }, files);
    const composed = compose(defaults, extended, locate);
    const forced = forceAgentKeys(composed, t.name, callsPerS * t.share, retried);
    warnings.push(...forced.warnings);
    if (forced.unusedRetries) unusedRetries.push({ tool: t.name, at: forced.unusedRetries });
    const expect = toolExpect(document['expect'], t.name, composed.document, forced.locate, locate);
    const parsed = namingTool(t.name, expect?.fromAgent, () => parseScenarioMapping({ ...forced.document, ...(expect ? { expect: expect.raw } : {}) }, expect?.locate ?? forced.locate, onTools));
    warnings.push(...hintWarnings(t, i, parsed, locate));
    if (extended.bases.length > 0) parsed.bases = extended.bases;
    parsed.composed = { fromDefaults: composed.fromDefaults, setByAgent: forced.setByAgent };
    return { name: t.name, share: t.share, annotations: t.annotations, cost: { duplicate: cost(t.cost.duplicate, ['tools', i, 'cost', 'duplicate'], locate), lost: cost(t.cost.lost, ['tools', i, 'cost', 'lost'], locate) }, retried, parsed };
  });
  warnings.push(...retriesWarnings(unusedRetries, tools, agent.auto_retry));
  const named = agentName(agent.name, fileName);
  if (named.rewritten) warnings.push(renamedWarning(fileName, named.name, locate));
  const parsed: ParsedAgent = {
    name: named.name, callsPerS, conversationsPerS: agent.conversations_per_s ?? null, callsPerConversation: agent.calls_per_conversation,
    autoRetry: agent.auto_retry, tools, warnings, locate,
    expectations: readAgentExpectations(document['expect'], tools.map((t) => t.name), [...new Set(tools.flatMap((t) => [t.cost.duplicate, t.cost.lost]).filter((c) => c !== null).map((c) => (c as Cost).per))], locate),
  };
  if (typeof document['description'] === 'string') parsed.description = document['description'];
  if (seed !== undefined) parsed.seed = seed;
  return parsed;
}

/**
 * `--set tools.NAME.KEY=...` names a tool's scenario key: the document's path is
 * `tools[i].scenario.KEY`. An expectation is one key of the file's `expect:`, whose names hold
 * dots: `--set expect.agent.keys=...` and `--set tools.NAME.expect.METRIC=...` both set
 * `expect['agent.keys']` / `expect['NAME.METRIC']`, so a --set wins over the file's own.
 */
function toolPath(o: Override, names: readonly string[]): Override {
  if (o.path[0] === 'expect' && o.path.length > 2) return { ...o, path: ['expect', o.path.slice(1).join('.')] };
  if (o.path[0] !== 'tools' || typeof o.path[1] !== 'string') return o;
  const i = names.indexOf(o.path[1]);
  if (i < 0) {
    throw new InputError({ source: o.option }, formatPath(o.path.slice(0, 2)), `the agent has no tool named "${o.path[1]}"`, `Name one of its tools: ${names.join(', ')}.`);
  }
  if (o.path[2] === 'expect' && o.path.length > 3) return { ...o, path: ['expect', [o.path[1], ...o.path.slice(3)].join('.')] };
  return { ...o, path: ['tools', i, 'scenario', ...o.path.slice(2)] };
}

/** The agent named after its file, whose name is not a name: said, as what the outputs call it instead. */
function renamedWarning(fileName: string, name: string, locate: Locate): ScenarioWarning {
  return {
    origin: locate(['agent'], true), keyPath: 'agent.name', kind: 'name',
    problem: `is left out, so the agent is named after its file; the file's name, "${clipped(fileName, 80)}", is not ${NAME_FORM}, so the outputs call the agent ${name}`,
    fix: `Give the agent its name: \`agent: {name: ${name}}\`, or another name of that form.`,
  };
}

/** The agent's traffic is one of two forms: a --set of one replaces the other the file gives. */
const TRAFFIC_FORMS: ReadonlyMap<string, string> = new Map([['calls_per_s', 'conversations_per_s'], ['conversations_per_s', 'calls_per_s']]);

/** A key of the model's agent (re-plans) written in the agent file's `agent:` (its traffic): refused with where it goes. */
function refuseModelAgentKeys(agent: unknown, locate: Locate): void {
  const own = isMapping(agent) ? Object.keys(agent) : [];
  const misplaced = own.find((k) => !Object.hasOwn(AGENT_SHAPE.params.agent.params, k) && Object.hasOwn(SCENARIO_AGENT_KEYS, k));
  if (misplaced !== undefined) {
    throw new InputError(locate(['agent', misplaced], true), `agent.${misplaced}`, 'is a key of the model\'s agent (a scenario\'s agent: section), not of the agent file\'s agent: (its traffic)',
      `Write it under defaults.agent.${misplaced} for every tool, or under a tool's scenario.agent.${misplaced}.`);
  }
}

/** Tool calls a second: calls_per_s, or conversations_per_s × calls_per_conversation; exactly one is given. */
function traffic(agent: { calls_per_s?: number; conversations_per_s?: number; calls_per_conversation: number }, locate: Locate): number {
  if ((agent.calls_per_s === undefined) === (agent.conversations_per_s === undefined)) {
    const both = agent.calls_per_s !== undefined;
    throw new InputError(locate(['agent', ...(both ? ['conversations_per_s'] : [])], both), both ? 'agent.conversations_per_s' : 'agent',
      both ? 'gives the traffic a second time: agent.calls_per_s gives it too' : 'does not say how busy the agent is',
      both ? 'Keep one: calls_per_s, or conversations_per_s with calls_per_conversation.' : 'Add `calls_per_s:` (tool calls a second), or `conversations_per_s:` with `calls_per_conversation:`.');
  }
  return agent.calls_per_s ?? (agent.conversations_per_s as number) * agent.calls_per_conversation;
}

function readDefaults(v: unknown, locate: Locate): Raw {
  if (v === undefined || v === null) return {};
  if (!isMapping(v)) throw new InputError(locate(['defaults']), 'defaults', `got ${JSON.stringify(v)}, expected a mapping of scenario keys`, 'Write the keys every tool shares under it, such as `client: {timeout: 2s}`.');
  for (const key of NOT_DEFAULTS) {
    if (Object.hasOwn(v, key)) {
      throw new InputError(locate(['defaults', key], true), `defaults.${key}`, `is a key of a scenario file, not of the model every tool shares`,
        key === 'expect' ? 'Write expectations in the agent file\'s own `expect:` (agent.READING or TOOL.METRIC).' : key === 'extends' ? 'Give each tool its `scenario: {extends: FILE}`.' : `Remove it from defaults${key === 'seed' ? '; the agent file takes `seed:` at its top level' : ''}.`);
    }
  }
  return v;
}

function fileSeed(v: unknown, locate: Locate): string | undefined {
  if (v === undefined) return undefined;
  // A number only where it is exact, as a scenario's seed (scenario/schema.ts).
  const text = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : typeof v === 'string' ? v : undefined;
  if (text === undefined || !SEED_TEXT.test(text)) {
    throw new InputError(locate(['seed']), 'seed', `got ${JSON.stringify(v)}, expected a whole number of at most 9007199254740991 either way (quote a longer one) or a string of ${SEED_FORM}`, 'Give a seed such as `seed: 42`.');
  }
  return text;
}

function checkTools(tools: AgentShape['tools'], callsPerS: number, locate: Locate): void {
  if (tools.length === 0) throw new InputError(locate(['tools']), 'tools', 'lists no tool', 'List the agent\'s tools, each with its name and share (docs/agents.md).');
  const seen = new Map<string, number>();
  tools.forEach((t, i) => {
    const first = seen.get(t.name);
    if (first !== undefined) throw new InputError(locate(['tools', i, 'name']), `tools[${i}].name`, `"${t.name}" names tools[${first}] too`, 'Give each tool a name of its own.');
    if (RESERVED_TOOL_NAMES.includes(t.name)) {
      throw new InputError(locate(['tools', i, 'name']), `tools[${i}].name`, `"${t.name}" is the name expect: gives the agent's readings (agent.READING), so a tool cannot take it`, `Give the tool another name, such as ${t.name}_tool.`);
    }
    seen.set(t.name, i);
    if (t.share <= 0) throw new InputError(locate(['tools', i, 'share']), `tools[${i}].share`, 'is 0: the tool would never be called', 'Give it its share of the calls, or leave the tool out.');
    if (t.share * callsPerS < MIN_RATE_PER_S) {
      throw new InputError(locate(['tools', i, 'share']), `tools[${i}].share`, `gives the tool ${t.share * callsPerS} calls a second, under the least a rate may be (${MIN_RATE_PER_S}/s: one call per 27.8 hours)`,
        `Give it a share of at least ${+(MIN_RATE_PER_S / callsPerS).toPrecision(3)} of the agent's ${callsPerS} calls a second, or leave the tool out.`);
    }
  });
  const sum = tools.reduce((s, t) => s + t.share, 0);
  if (Math.abs(sum - 1) > SHARE_TOLERANCE) {
    throw new InputError(locate(['tools']), 'tools[].share', `the shares sum to ${+sum.toFixed(9)}, not 1`, 'Make the shares of the calls the tools get add up to 1.');
  }
}

function cost(c: CostShape | null, path: Path, locate: Locate): Cost | null {
  if (c === null) return null;
  const { currency, unit } = c as CostShape & { currency?: string; unit?: string };
  if ((currency === undefined) === (unit === undefined)) {
    throw new InputError(locate(path), formatPath(path), currency === undefined ? 'gives neither a currency nor a unit' : 'gives both a currency and a unit',
      'Give `currency:` (an ISO 4217 code such as USD) for money, or `unit:` (such as ticket) for what is not money.');
  }
  if (currency !== undefined && !CURRENCIES().has(currency)) {
    throw new InputError(locate([...path, 'currency']), `${formatPath(path)}.currency`, `"${currency}" is not an ISO 4217 currency code`,
      'Give the code of the currency, such as USD, EUR or JPY; for what is not money, write unit: instead (such as unit: ticket).');
  }
  return { amount: c.amount, per: currency ?? (unit as string), money: currency !== undefined };
}
