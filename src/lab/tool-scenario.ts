/**
 * One tool of an agent file as a scenario file of its own, for `idem-sim lab AGENT.yaml --tool
 * NAME`: the tool's scenario as the agent runs it (the built-in defaults, the agent's
 * `defaults:`, the file it extends, its own keys, and the agent's rate for it), every key
 * written out, with its expectations and the seed it runs on. The page's engine reads it as
 * any scenario file, so the page runs what `run AGENT.yaml` runs for the tool. Pure.
 */
import { stringify } from 'yaml';
import type { WrittenScenario } from '../model/types.js';
import type { Expectation } from '../scenario/expect.js';
import { writtenScenario } from '../report/json.js';
import { printable } from '../scenario/printable.js';
import { isDurationKey } from '../scenario/schema.js';
import { formatDuration, parseDuration } from '../scenario/duration.js';

/** The file the page's command names, and the page downloads (its "Download scenario.yaml"). */
export const TOOL_SCENARIO_FILE = 'scenario.yaml';

export interface ToolScenario {
  agent: string;
  /** The agent file as the command line named it. */
  file: string;
  tool: string;
  scenario: WrittenScenario;
  expectations: readonly Expectation[];
  /** The seed the tool runs on (`SEED/TOOL`). */
  seed: string;
}

/** The expect: block as written: each threshold's text, in the long form where it asks for the whole interval. */
function expectBlock(expectations: readonly Expectation[]): Record<string, unknown> | undefined {
  if (expectations.length === 0) return undefined;
  return Object.fromEntries(expectations.map((e) => [e.metric, e.confidence === 'ci95' ? { threshold: e.text, confidence: 'ci95' } : e.text]));
}

/** A duration as a file writes it: with its unit, the short form when it reads back exactly, else in ms. */
const durationText = (ms: number): string => {
  const short = formatDuration(ms);
  return parseDuration(short) === ms ? short : `${ms}ms`;
};

/**
 * A resolved value as a scenario file writes it: durations (ms) with their unit (a file refuses a
 * bare number), every other value as it is. `path` is the key path as isDurationKey reads it.
 */
function asWritten(v: unknown, path: string): unknown {
  if (typeof v === 'number' && isDurationKey(path)) return durationText(v);
  if (Array.isArray(v)) return v.map((item, i) => asWritten(item, `${path}[${i}]`));
  if (typeof v === 'object' && v !== null) {
    // A lognormal fitted to percentiles is written as them ({p50, p99}), as its file wrote it: fitted again, the same median and sigma.
    const fitted = (v as { fitted_to?: Record<string, number> }).fitted_to;
    if (fitted) return asWritten({ dist: (v as { dist: unknown }).dist, ...fitted }, path);
    // A histogram's keys left out (null; no buckets when a file holds them) are left out again: a file may not write them empty.
    const entries = Object.entries(v).filter(([, x]) => !(isHistogram(v) && (x === null || (Array.isArray(x) && x.length === 0))));
    return Object.fromEntries(entries.map(([k, x]) => [k, asWritten(x, path === '' ? k : `${path}.${k}`)]));
  }
  return v;
}

const isHistogram = (v: object): boolean => (v as { dist?: unknown }).dist === 'histogram';

/** The scenario file's text; comment lines say where it came from (the agent's and tools' names are printable already: the agent reader took them). */
export function toolScenarioText(t: ToolScenario): string {
  const expect = expectBlock(t.expectations);
  const doc = { description: `${t.tool}, a tool of the agent ${t.agent}`, seed: t.seed, ...(asWritten(writtenScenario(t.scenario), '') as object), ...(expect ? { expect } : {}) };
  const head = [
    `# ${t.tool}, a tool of the agent ${t.agent} (${printable(t.file)}), as the agent runs it:`,
    '# the built-in defaults, the agent\'s defaults:, the file the tool extends and its own',
    '# keys, with load.rate_per_s the agent\'s calls a second times its share. Every key is',
    '# written out.',
  ];
  return `${head.join('\n')}\n${stringify(doc)}`;
}
