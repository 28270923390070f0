/**
 * A tool's scenario as an agent file composes it (docs/agents.md): the agent's defaults under the
 * tool's own keys (and its extends: chain), where each key was written, what the agent sets in it
 * (its rate, and no retries where the client does not retry), and the agent file's expectations of
 * it. Pure.
 */
import { valueAt } from '../scenario/document.js';
import { InputError, type Origin } from '../scenario/errors.js';
import { merge, type Extended } from '../scenario/extends.js';
import type { ScenarioWarning } from '../scenario/parse.js';
import type { Composed } from '../scenario/provenance.js';
import { isMapping, type Locate } from './read.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;

/**
 * A tool's scenario: the agent's defaults, then its own keys (with its extends: chain), with where
 * each key came from, and whether the agent's defaults wrote it.
 */
export function compose(defaults: Raw, own: Extended, locate: Locate): { document: Raw; locate: Locate; fromDefaults: (path: Path) => boolean } {
  const layers = [{ data: defaults, at: ['defaults'] }, { data: own.document, at: [], locate: own.locate }];
  return { document: merge(defaults, own.document, []), locate: layered(layers, locate), fromDefaults: (path) => writer(layers, path)?.layer === layers[0] };
}

type Layer = { data: Raw; at: Path; locate?: Locate };

/** The layer that wrote a key path: the last that holds the whole path, else the one that holds most of it (a missing key's mapping). */
function writer<L extends Layer>(layers: readonly L[], path: Path): { depth: number; layer: L } | undefined {
  let best: { depth: number; layer: L } | undefined;
  for (const layer of layers) {
    let depth = 0;
    while (depth < path.length && valueAt(layer.data, path.slice(0, depth + 1)) !== undefined) depth++;
    if (depth > 0 && (!best || depth >= best.depth)) best = { depth, layer };
  }
  return best;
}

/** Where a key of a composed scenario was written: in the layer that wrote it (`writer`), else in the last layer (the tool's own). */
export function layered(layers: readonly Layer[], locate: Locate): Locate {
  return (path, keyNode) => {
    const best = writer(layers, path);
    const last = layers.at(-1);
    if (!best) return last?.locate ? last.locate(path, keyNode) : locate(path, keyNode);
    const held = path.slice(0, best.depth);
    return best.layer.locate ? best.layer.locate(held, keyNode) : locate([...best.layer.at, ...held], keyNode);
  };
}

/**
 * The keys the agent sets in every tool's scenario: its load (the agent's traffic times the
 * share) and, for a tool the client does not retry, no retries. A file that writes them is warned
 * that they have no effect; a load profile is refused (the agent's traffic is steady).
 */
export function forceAgentKeys(c: { document: Raw; locate: Locate }, tool: string, rate: number, retried: boolean):
  { document: Raw; locate: Locate; warnings: ScenarioWarning[]; unusedRetries?: Origin; setByAgent: Composed['setByAgent'] } {
  const warnings: ScenarioWarning[] = [];
  const d = c.document;
  const load = isMapping(d['load']) ? d['load'] : {};
  if (load['profile'] !== undefined && load['profile'] !== 'none' && load['profile'] !== null) {
    throw new InputError(c.locate(['load', 'profile'], true), 'load.profile', `cannot vary the rate of one tool (${tool}): the agent's traffic sets every tool's rate`,
      'Remove load.profile; run the tool\'s scenario alone to study a changing rate.');
  }
  if (load['rate_per_s'] !== undefined) {
    warnings.push({ origin: c.locate(['load', 'rate_per_s'], true), keyPath: 'load.rate_per_s', problem: `has no effect for ${tool}: the agent's traffic times the tool's share sets its rate (${+rate.toPrecision(6)}/s)`,
      fix: 'Remove it; change agent.calls_per_s (or conversations_per_s) or the tool\'s share instead.' });
  }
  const client = isMapping(d['client']) ? d['client'] : {};
  const document: Raw = { ...d, load: { ...load, rate_per_s: rate } };
  const setByAgent = [{ path: ['load', 'rate_per_s'], why: 'its calls a second times the tool\'s share' }];
  let unusedRetries: Origin | undefined;
  if (!retried) {
    if (client['retries'] !== undefined && client['retries'] !== 0) unusedRetries = c.locate(['client', 'retries'], true);
    document['client'] = { ...client, retries: 0 };
    setByAgent.push({ path: ['client', 'retries'], why: 'its client does not retry this tool (agent.auto_retry)' });
  }
  return { document, locate: c.locate, warnings, ...(unusedRetries ? { unusedRetries } : {}), setByAgent };
}

/** The agent file's `TOOL.METRIC` expectations of one tool, added to the tool scenario's own `expect:`. */
export function toolExpect(expect: unknown, tool: string, composed: Raw, scenario: Locate, locate: Locate): { raw: Raw; locate: Locate; fromAgent: ReadonlySet<string> } | undefined {
  if (!isMapping(expect)) return undefined;
  const mine = Object.keys(expect).filter((k) => k.startsWith(`${tool}.`));
  if (mine.length === 0) return undefined;
  const own = isMapping(composed['expect']) ? composed['expect'] : {};
  const entries: [string, unknown][] = [...Object.entries(own), ...(expect['confidence'] !== undefined && own['confidence'] === undefined ? [['confidence', expect['confidence']] as [string, unknown]] : [])];
  const from = new Map<string, string>();
  for (const k of mine) {
    const metric = k.slice(tool.length + 1);
    entries.push([metric, expect[k]]);
    from.set(metric, k);
  }
  // Each metric its own key, whatever its name: assigned, `TOOL.__proto__` would set the block's prototype and vanish.
  const raw: Raw = Object.fromEntries(entries);
  return {
    raw, fromAgent: new Set(from.keys()),
    locate: (path, keyNode) => (path[0] === 'expect' && typeof path[1] === 'string' && from.has(path[1]) ? locate(['expect', from.get(path[1]) as string, ...path.slice(2)], keyNode) : scenario(path, keyNode)),
  };
}

/**
 * Runs `parse`, and words an error of an expectation the agent file's `expect:` gave the tool
 * (`TOOL.METRIC`) by its key there, not the tool scenario's `expect.METRIC`.
 */
export function namingTool<T>(tool: string, fromAgent: ReadonlySet<string> | undefined, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    const metric = e instanceof InputError && e.keyPath.startsWith('expect.') ? e.keyPath.slice('expect.'.length) : undefined;
    const ours = metric !== undefined && [...(fromAgent ?? [])].some((m) => metric === m || metric.startsWith(`${m}.`));
    if (!(e instanceof InputError) || !ours) throw e;
    throw new InputError(e.origin, `expect.${tool}.${metric}`, e.problem, e.fix);
  }
}
