/**
 * `reconcile --expect-file FILE`: an `expect:` mapping as a scenario's (docs/reconcile.md, "A
 * gate in CI"), each expectation remembered at its line so that GitHub's annotations and the
 * errors point there:
 *
 *   expect:
 *     confidence: ci95                     # optional: duplicates_per_1000 held over its whole interval
 *     duplicates_per_1000: "<= 100"        # all the tools together
 *     diagnosis.same_key_after_expiry: "== 0"
 *     tools:
 *       refund:                            # one tool's readings, by its name in the rows
 *         duplicates_per_1000: {threshold: "<= 5", confidence: ci95}
 *
 * Pure: the text comes in (the shell reads the file under the data files' rules).
 */
import type { Locate } from '../scenario/read-document.js';
import { readDocument } from '../scenario/read-document.js';
import { InputError } from '../scenario/errors.js';
import { clipped } from '../scenario/printable.js';
import { gateMetric, gateThreshold, gateTool, INTERVAL_READINGS, refuseUnanswerable, type GateExpectation } from './gate.js';

type Path = readonly (string | number)[];

const isMapping = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const keyOf = (path: Path): string => path.join('.');
const EXAMPLE = 'expect: {duplicates_per_1000: "<= 100", tools: {refund: {duplicates_per_1000: "<= 5"}}}';

/** The expectations a file's text holds, each at its line. */
export function readExpectFile(text: string, source: string): GateExpectation[] {
  const { document, locate } = readDocument(text, source);
  const refuse = (path: Path, problem: string, fix: string, keyNode = true): never => {
    throw new InputError(locate(path, keyNode), keyOf(path), problem, fix);
  };
  if (!isMapping(document) || !('expect' in document)) return refuse([], 'holds no expect: mapping', `Write the expectations under expect:, such as ${EXAMPLE}.`);
  for (const key of Object.keys(document)) {
    if (key !== 'expect') refuse([key], `is not read by reconcile: an expectations file holds expect: alone`, 'Remove it.');
  }
  const block = document['expect'];
  if (!isMapping(block)) return refuse(['expect'], 'is not a mapping of readings to thresholds', `Write it as ${EXAMPLE}.`, false);
  const confidence = confidenceOf(block['confidence'], ['expect', 'confidence'], refuse) ?? 'none';
  const found = entries(block, null, ['expect'], confidence, locate, refuse);
  const tools = block['tools'];
  if (tools !== undefined) {
    if (!isMapping(tools)) refuse(['expect', 'tools'], "is not a mapping of tools' names to their expectations", `Write it as ${EXAMPLE}.`, false);
    for (const [tool, inner] of Object.entries(tools as Record<string, unknown>)) {
      const path = ['expect', 'tools', tool];
      gateTool(tool, locate(path, true), keyOf(path));
      if (!isMapping(inner)) refuse(path, 'is not a mapping of readings to thresholds', `Write it as ${EXAMPLE}.`, false);
      found.push(...entries(inner as Record<string, unknown>, tool, path, confidence, locate, refuse));
    }
  }
  if (found.length === 0) refuse(['expect'], 'has no expectations', `Write one at least, such as ${EXAMPLE}.`);
  return found;
}

type Refuse = (path: Path, problem: string, fix: string, keyNode?: boolean) => never;

function confidenceOf(value: unknown, path: Path, refuse: Refuse): 'ci95' | 'none' | undefined {
  if (value === undefined || value === 'ci95' || value === 'none') return value;
  return refuse(path, `"${clipped(String(value), 40)}" is not a confidence`, 'Write ci95 (the whole 95% interval must pass) or none (the value alone).', false);
}

/** One mapping's readings (the block's, or a tool's): each a threshold, or {threshold, confidence}. */
function entries(block: Record<string, unknown>, tool: string | null, at: Path, defaultConfidence: 'ci95' | 'none', locate: Locate, refuse: Refuse): GateExpectation[] {
  return Object.entries(block).filter(([k]) => tool !== null || (k !== 'confidence' && k !== 'tools')).map(([metric, spec]) => {
    const path = [...at, metric];
    const origin = locate(path, true);
    gateMetric(metric, origin, keyOf(path));
    let text = spec;
    let confidence: 'ci95' | 'none' | undefined;
    if (isMapping(spec)) {
      for (const k of Object.keys(spec)) if (k !== 'threshold' && k !== 'confidence') refuse([...path, k], 'is not a key of an expectation', 'Write threshold and, if you want it, confidence.');
      text = spec['threshold'];
      confidence = confidenceOf(spec['confidence'], [...path, 'confidence'], refuse);
      if (confidence === 'ci95' && !INTERVAL_READINGS.includes(metric)) {
        refuse([...path, 'confidence'], `has no effect: ${metric} has no 95% interval (only ${INTERVAL_READINGS.join(', ')} has one)`, 'Remove confidence for it.');
      }
    }
    if (typeof text !== 'string') {
      refuse(path, typeof text === 'number' ? 'is a number with no operator' : 'is not a threshold', `Write an operator and a number in quotes, such as ${metric}: "${typeof text === 'number' ? `== ${text}` : '<= 5'}".`, false);
    }
    const interval = INTERVAL_READINGS.includes(metric) ? confidence ?? defaultConfidence : 'none';
    return { tool, metric, ...gateThreshold(text as string, locate(path, false), keyOf(path)), confidence: interval, origin };
  });
}

/** The gate's expectations: --expect's, then the file's (its text read by the shell); refused when the readings asked cannot answer one. */
export function gateExpectations(given: readonly GateExpectation[], file: { text: string; source: string } | undefined, retention: boolean): GateExpectation[] {
  const all = [...given, ...(file === undefined ? [] : readExpectFile(file.text, file.source))];
  refuseUnanswerable(all, retention);
  return all;
}
