/**
 * What an agent file writes that its own other settings contradict or make inert: the "lying
 * hint" and a read-only tool whose duplicate costs something (docs/agents.md, "Annotations drive
 * the client"), and retries the client never makes. Pure.
 */
import type { Origin } from '../scenario/errors.js';
import type { ParsedScenario, ScenarioWarning } from '../scenario/parse.js';
import type { Locate } from './read.js';
import type { AgentShape, AutoRetry } from './shape.js';
import type { AgentTool } from './parse.js';

/**
 * A `client.retries` the client never uses under agent.auto_retry: one warning for each place it
 * is written, naming the tools it does not reach, and none where a tool the client retries takes
 * it (a key in defaults: that every tool shares).
 */
export function retriesWarnings(unused: readonly { tool: string; at: Origin }[], tools: readonly AgentTool[], autoRetry: AutoRetry): ScenarioWarning[] {
  const same = (a: Origin, b: Origin | undefined) => b !== undefined && a.source === b.source && a.line === b.line && a.col === b.col;
  const places: { at: Origin; tools: string[] }[] = [];
  for (const u of unused) {
    const place = places.find((p) => same(p.at, u.at));
    if (place) place.tools.push(u.tool); else places.push({ at: u.at, tools: [u.tool] });
  }
  return places.filter((p) => !tools.some((t) => t.retried && same(p.at, t.parsed.locate?.(['client', 'retries'])))).map((p) => ({
    origin: p.at, keyPath: 'client.retries',
    problem: `has no effect: agent.auto_retry is ${autoRetry}, so the client does not retry ${p.tools.join(', ')} (${autoRetry === 'none' ? 'no tool is retried' : 'marked neither idempotentHint nor readOnlyHint'}), and no tool it retries takes this key`,
    fix: autoRetry === 'none' ? 'Remove it, or set agent.auto_retry: idempotent or all.' : 'Remove it, or mark the tool idempotent if a repeat of it is harmless (with a key that makes it so), or set agent.auto_retry: all.',
  }));
}

/**
 * Annotations that contradict the tool's scenario: the "lying hint" (marked idempotent, but no
 * key survives a repeat, so a retry executes again), a read-only tool whose duplicate costs
 * something, and hints the specification says mean nothing beside readOnlyHint.
 */
export function hintWarnings(t: AgentShape['tools'][number], i: number, parsed: ParsedScenario, locate: Locate): ScenarioWarning[] {
  const out: ScenarioWarning[] = [];
  const a = t.annotations;
  const at = (hint: string) => locate(['tools', i, 'annotations', hint], true);
  const scope = parsed.scenario.idempotency.scope;
  if (a.idempotentHint && !a.readOnlyHint && (scope === 'none' || scope === 'attempt')) {
    out.push({ origin: at('idempotentHint'), keyPath: `tools[${i}].annotations.idempotentHint`,
      problem: `${t.name} is marked idempotent, but ${scope === 'none' ? 'uses no idempotency key' : 'its key changes with every attempt'}: a repeat executes again, and a client that trusts the hint retries it (a lying hint)`,
      fix: 'Give the tool a key that identifies the intent (idempotency.scope: intent), or mark it idempotentHint: false.' });
  }
  const dup = t.cost.duplicate;
  if (a.readOnlyHint && dup !== null && dup.amount > 0) {
    out.push({ origin: at('readOnlyHint'), keyPath: `tools[${i}].annotations.readOnlyHint`,
      problem: `${t.name} is marked read-only, but a duplicate of it costs ${dup.amount}: its executions change the world`,
      fix: 'Mark it readOnlyHint: false (and say whether it is idempotent), or set its duplicate cost to 0.' });
  }
  return out;
}
