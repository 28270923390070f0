/**
 * An agent file's `expect:`: `agent.READING` thresholds on the agent's readings (agent/readings.ts)
 * are read here; `TOOL.METRIC` ones go to that tool's scenario (agent/parse.ts), where they are
 * read as a scenario's own. The thresholds' syntax and checking are the scenario's.
 */
import type { Confidence } from '../model/enums.js';
import { THRESHOLD_PATTERN } from '../scenario/schema.js';
import { InputError, type Origin } from '../scenario/errors.js';
import { judge, parseThreshold, type Operator, type Verdict } from '../scenario/expect.js';
import { didYouMean } from '../scenario/suggest.js';
import { isMapping, type Locate } from './read.js';
import { AGENT_READINGS, COST_READING, readReading, type AgentReadings } from './readings.js';

export interface AgentExpectation {
  /** The reading under `agent.` (`duplicates_per_day`, `cost_per_day.USD`). */
  reading: string;
  op: Operator;
  threshold: number;
  text: string;
  confidence: Confidence;
  origin: Origin;
}

export type AgentVerdict = Omit<Verdict, 'expectation'> & { expectation: AgentExpectation };

/** The prefix of an agent's own readings in `expect:` and in check's verdicts (`agent.cost_per_day`). */
export const AGENT_PREFIX = 'agent.';
const PREFIX = AGENT_PREFIX;

/**
 * The `agent.` expectations of `expect:`, each key checked: a reading of the agent's, or a tool's
 * name followed by one of its metrics (read with the tool). `costs`: the currencies and units the
 * tools' costs name, which `cost_per_day.X` may take (`cost_per_day` alone when there is one).
 */
export function readAgentExpectations(expect: unknown, tools: readonly string[], costs: readonly string[], locate: Locate): AgentExpectation[] {
  if (expect === undefined || expect === null) return [];
  if (!isMapping(expect)) throw new InputError(locate(['expect']), 'expect', `got ${JSON.stringify(expect)}, expected a mapping of readings to thresholds`, 'Write `agent.READING: "< N"` or `TOOL.METRIC: "< N"` entries.');
  const confidence = expect['confidence'];
  if (confidence !== undefined && confidence !== 'ci95' && confidence !== 'none') {
    throw new InputError(locate(['expect', 'confidence']), 'expect.confidence', `got ${JSON.stringify(confidence)}, expected ci95 or none`, 'Write `confidence: ci95` to check the whole 95% interval.');
  }
  const readings = [...AGENT_READINGS.map((d) => d.path), ...(costs.length === 1 ? [COST_READING] : []), ...costs.map((c) => `${COST_READING}.${c}`)];
  const out: AgentExpectation[] = [];
  for (const [key, spec] of Object.entries(expect)) {
    if (key === 'confidence') continue;
    const where = locate(['expect', key], true);
    const dot = key.indexOf('.');
    const head = dot < 0 ? key : key.slice(0, dot);
    if (head !== 'agent') {
      if (tools.includes(head)) continue;
      const guess = didYouMean(head, [...tools, 'agent']);
      throw new InputError(where, `expect.${key}`, `names neither the agent nor one of its tools ("${head}")`,
        `${guess ? `Did you mean \`${guess}\`? ` : ''}Write agent.READING or TOOL.METRIC, with TOOL one of: ${tools.join(', ')}.`);
    }
    const reading = key.slice(PREFIX.length);
    if (!readings.includes(reading)) {
      const guess = didYouMean(reading, readings);
      throw new InputError(where, `expect.${key}`, `"${reading}" is not a reading of the agent${reading === COST_READING && costs.length > 1 ? ` alone: its tools cost in ${costs.join(', ')}` : ''}`,
        `${guess ? `Did you mean \`agent.${guess}\`? ` : ''}Readings: ${readings.join(', ')}.`);
    }
    const long = isMapping(spec) ? spec : undefined;
    const text = String(long ? long['threshold'] : spec);
    if (!new RegExp(THRESHOLD_PATTERN).test(text) || /[a-z]\s*$/.test(text)) {
      throw new InputError(locate(['expect', key]), `expect.${key}`, `got ${JSON.stringify(text)}, expected a threshold such as "< 100" (an operator and a number)`,
        'Write an operator (<, <=, ==, !=, >=, >) and a number.');
    }
    const own = long?.['confidence'];
    out.push({ reading, ...parseThreshold(text), text: text.trim(), confidence: (own ?? confidence ?? 'none') as Confidence, origin: where });
  }
  return out;
}

/** An expectation checked against the agent's readings, as a scenario's against its metrics. */
export function checkAgentExpectation(e: AgentExpectation, r: AgentReadings): AgentVerdict {
  return { expectation: e, ...judge(e, readReading(r, e.reading) ?? { value: null }) };
}
