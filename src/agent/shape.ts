/**
 * Every key of an agent file (docs/agents.md), declared once: its kind, default and meaning. The
 * reader (agent/read.ts) checks and resolves a file against it, and docs/agent-keys.md is rendered
 * from it (agent/key-docs.ts). A tool's `scenario:` and the agent's `defaults:` are scenarios:
 * their keys are the scenario's own (model/shape.ts).
 */
import { MAX_RATE_PER_S, MIN_RATE_PER_S } from '../model/limits.js';
import { choice, count, flag, list, NAME_FORM, NAME_PATTERN, optional, real, section, text, type ValueOf } from '../model/params.js';
import { UNPRINTABLE_CLASS } from '../scenario/printable.js';

/** Tools of one agent at most: each is a run of its own. */
export const MAX_TOOLS = 100;
/** Tool calls of one conversation at most. */
export const MAX_CALLS_PER_CONVERSATION = 10_000;
/** A cost's amount at most (in its currency or unit). */
export const MAX_COST = 1e9;

/**
 * Which tools the agent's client retries on its own (`client.retries`), as an MCP client decides
 * from a tool's annotations: every tool; only those marked idempotent or read-only (the hints
 * that make a repeat harmless, by the MCP specification); or none.
 */
export const AUTO_RETRY = ['all', 'idempotent', 'none'] as const;
export type AutoRetry = (typeof AUTO_RETRY)[number];

const CURRENCY_PATTERN = '^[A-Z]{3}$';
const UNIT_PATTERN = '^[a-z][a-z_-]{0,31}$';

/** Names a tool cannot take: `agent` names the agent's readings in expect: (agent.READING). */
export const RESERVED_TOOL_NAMES: readonly string[] = ['agent'];

/** A cost gives one of these: money's currency, or the unit of what it counts. */
export const COST_EITHER = ['currency', 'unit'] as const;

/** What one duplicate, or one lost action, of a tool costs: money (amount and currency), or a count of something else. */
const COST = optional('what one costs: {amount, currency} for money, {amount, unit} otherwise', {
  amount: real(undefined, 0, MAX_COST, 'a number from 0 to 10^9 (the cost of one, in its currency or unit)'),
  currency: text('an ISO 4217 code of three capital letters (USD, EUR, JPY), for money', CURRENCY_PATTERN),
  unit: text('what is counted when the cost is not money, in the singular: lower-case letters, _ and -, beginning with a letter (so not __proto__), at most 32 (ticket, email)', UNIT_PATTERN),
});

/** The hints of MCP's ToolAnnotations, each with the value the specification gives a hint left out. */
export const HINT_PARAMS = {
  readOnlyHint: flag(false, 'the tool does not change its environment'),
  destructiveHint: flag(true, 'a change it makes may destroy or overwrite (meaningful when not read-only)'),
  idempotentHint: flag(false, 'calling it again with the same arguments has no further effect (meaningful when not read-only)'),
  openWorldHint: flag(true, 'it reaches entities outside the agent\'s own world'),
};
export type Hint = keyof typeof HINT_PARAMS;
export const HINTS = Object.keys(HINT_PARAMS) as Hint[];

/** The longest `annotations.title` (MCP's title for people; servers' titles are a few words). */
export const MAX_TITLE_CHARS = 200;

/** MCP's ToolAnnotations: its title, for people, and its hints. */
export const ANNOTATIONS = section('the tool\'s MCP annotations as its server declares them (hints, not guarantees)', {
  title: text(`a title for people (MCP's annotations.title), 1 to ${MAX_TITLE_CHARS} printable characters, not blank: kept in the JSON output, not read by the model`,
    `^[^${UNPRINTABLE_CLASS}]{1,${MAX_TITLE_CHARS}}$`),
  ...HINT_PARAMS,
});

export const AGENT_SHAPE = section('an agent: its traffic and its tools', {
  agent: section('the agent and its traffic', {
    name: text(`${NAME_FORM}; the file's name when left out`, NAME_PATTERN),
    calls_per_s: real(undefined, MIN_RATE_PER_S, MAX_RATE_PER_S, 'a number from 0.00001 to 10^9 (tool calls a second across all tools; or give conversations_per_s)'),
    conversations_per_s: real(undefined, MIN_RATE_PER_S, MAX_RATE_PER_S, 'a number from 0.00001 to 10^9 (conversations a second; with calls_per_conversation)'),
    calls_per_conversation: count(1, 'tool calls one conversation makes, at most 10^4', 1, MAX_CALLS_PER_CONVERSATION),
    auto_retry: choice(AUTO_RETRY, 'all', 'which tools the client retries (client.retries): all, only those marked idempotentHint or readOnlyHint, or none'),
  }),
  tools: list('the agent\'s tools', MAX_TOOLS, section('a tool {name, share, annotations, cost, scenario}', {
    name: text(`${NAME_FORM}, unique among the tools (expect: and the outputs name it)`, NAME_PATTERN),
    share: real(undefined, 0, 1, 'a number from 0 to 1 (share of the agent\'s tool calls that go to this tool; the shares sum to 1)'),
    annotations: ANNOTATIONS,
    cost: section('what a duplicate and a lost action of this tool cost', {
      duplicate: COST,
      lost: COST,
    }),
  })),
});

export type AgentShape = ValueOf<typeof AGENT_SHAPE, never>;
export type ToolShape = AgentShape['tools'][number];
export type Annotations = ToolShape['annotations'];
export type CostShape = NonNullable<ToolShape['cost']['duplicate']>;

/**
 * The keys of an agent file that are not declared above: a tool's scenario, the shared
 * defaults, and the file's own (for the reader and the key table).
 */
export const SCENARIO_KEYS = {
  defaults: 'scenario keys every tool starts from (a tool\'s extends: file and its own keys win)',
  scenario: 'the tool\'s scenario: its keys, and extends: FILE to start from a scenario file',
} as const;
export const FILE_KEYS = {
  description: 'what the agent is',
  seed: 'the random seed (each tool runs on SEED/NAME); --seed overrides it',
  expect: 'thresholds: agent.READING (agent/readings.ts) or TOOL.METRIC, checked by idem-sim check',
  $schema: 'a schema for editors',
} as const;
