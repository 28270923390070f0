/**
 * `reconcile`'s gate (docs/reconcile.md, "A gate in CI"): expectations on the readings, written
 * as `check`'s expect: entries are (`duplicates_per_1000 <= 5`), each on all the tools together
 * or on one (`refund:duplicates_per_1000 <= 5`), and judged as `check` judges its own
 * (scenario/expect.ts's judge: an order on the value, or with confidence ci95 on the whole 95%
 * interval). The readings are named as the JSON names them. Pure: the shell reads the
 * expectations file (gate-file.ts reads its text) and says the verdicts.
 */
import type { MetricReading } from '../results/metric-paths.js';
import type { Origin } from '../scenario/errors.js';
import { InputError } from '../scenario/errors.js';
import { judge, type Operator } from '../scenario/expect.js';
import { clipped, printable } from '../scenario/printable.js';
import { didYouMean } from '../scenario/suggest.js';
import { ONE_TOOL } from './effects.js';
import { DIAGNOSES, GAP_BINS, type Readings, type Reconciliation } from './readings.js';

/** How a reading is read from one tool's readings (or all of theirs). */
type Read = (r: Readings) => MetricReading;

const count = (pick: (r: Readings) => number): Read => (r) => ({ value: pick(r) });

/** Every reading a gate can name, by its path in the JSON's readings (`overall`, `tools[]`). */
export const GATE_READINGS: Readonly<Record<string, Read>> = {
  effects: count((r) => r.effects),
  business_keys: count((r) => r.businessKeys),
  duplicates: count((r) => r.duplicates),
  duplicates_per_1000: (r) => (r.per1000 === null ? { value: null } : { value: r.per1000.value, ci95: [r.per1000.low, r.per1000.high] }),
  effects_per_day: (r) => ({ value: r.effectsPerDay }),
  duplicates_per_day: (r) => ({ value: r.duplicatesPerDay }),
  ...Object.fromEntries(DIAGNOSES.map((d) => [`diagnosis.${d}`, count((r) => r.diagnosis[d])])),
  ...Object.fromEntries(GAP_BINS.map((b, i) => [`gaps.${b.id}`, count((r) => r.gaps[i] ?? 0)])),
};
export const GATE_READING_NAMES = Object.keys(GATE_READINGS);
/** The one reading with a 95% interval, which `confidence: ci95` can hold whole. */
export const INTERVAL_READINGS: readonly string[] = ['duplicates_per_1000'];
/** The reading that needs --retention: without it such duplicates are `same_key`. */
const NEEDS_RETENTION = 'diagnosis.same_key_after_expiry';

export interface GateExpectation {
  /** The tool whose readings it holds, or null for all the tools together. */
  readonly tool: string | null;
  /** One of GATE_READING_NAMES. */
  readonly metric: string;
  readonly op: Operator;
  readonly threshold: number;
  /** As written: `<= 5`. */
  readonly text: string;
  readonly confidence: 'ci95' | 'none';
  /** Where it was written: `--expect`, or the expectations file's line. */
  readonly origin: Origin;
}

export interface GateVerdict {
  readonly expectation: GateExpectation;
  readonly measured: MetricReading;
  /** For confidence ci95: the interval that was checked. */
  readonly interval?: [number, number];
  readonly pass: boolean;
  /** Why there is no value: the rows hold no effect of its tool. */
  readonly missing?: string;
}

const OPERATOR = /(<=|>=|==|!=|<|>)/;
const THRESHOLD = new RegExp(`^\\s*${OPERATOR.source}\\s*(.*?)\\s*$`);
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** `[TOOL:]READING OP VALUE`: the tool is all before the last colon ahead of the metric. */
const EXPECT = new RegExp(`^\\s*(?:(.*):)?\\s*([A-Za-z0-9_.]+)\\s*${OPERATOR.source}\\s*(.*?)\\s*$`);

const FORM = "Write it as [TOOL:]READING OP VALUE, such as 'duplicates_per_1000 <= 5' (a tool's own: 'refund:duplicates_per_1000 <= 5')";

/** A reading's name checked: one of GATE_READING_NAMES, or refused with the closest. */
export function gateMetric(name: string, origin: Origin, keyPath = ''): string {
  if (Object.hasOwn(GATE_READINGS, name)) return name;
  const guess = didYouMean(name, GATE_READING_NAMES);
  throw new InputError(origin, keyPath, `"${clipped(name, 80)}" is not a reading reconcile gives`,
    `${guess ? `Did you mean ${guess}? ` : ''}Name one of: ${GATE_READING_NAMES.join(', ')} (docs/reconcile.md, "A gate in CI").`);
}

/** `OP VALUE` (`<= 5`) into its operator and number: the readings are counts and rates, so no unit. */
export function gateThreshold(text: string, origin: Origin, keyPath = ''): { op: Operator; threshold: number; text: string } {
  const m = THRESHOLD.exec(text);
  const fix = 'Write an operator (<, <=, ==, !=, >=, >) and a number, such as "<= 5" or "== 0".';
  if (!m) throw new InputError(origin, keyPath, `"${clipped(text, 80)}" is not a threshold`, fix);
  const amount = m[2] as string;
  if (!NUMBER.test(amount)) {
    throw new InputError(origin, keyPath, `"${clipped(amount, 80)}" is not a number`, `${fix} The readings are counts and rates: they take no unit.`);
  }
  const threshold = Number(amount);
  if (!Number.isFinite(threshold)) throw new InputError(origin, keyPath, 'the threshold is a number too large to use (it reads as infinite)', fix);
  return { op: m[1] as Operator, threshold, text: `${m[1]} ${amount}` };
}

/** A tool's name as written before the colon. */
export function gateTool(text: string, origin: Origin, keyPath = ''): string {
  const tool = text.trim();
  if (tool === '' || printable(tool) !== tool) {
    throw new InputError(origin, keyPath, tool === '' ? 'names no tool before its colon' : 'names a tool with control or invisible characters', `Name the tool as its rows do, or leave TOOL: out for all the tools together. ${FORM}.`);
  }
  return tool;
}

/** `--expect TEXT`: `[TOOL:]READING OP VALUE`. */
export function expectOption(text: string): GateExpectation {
  const origin: Origin = { source: `--expect ${clipped(text, 120)}` };
  const m = EXPECT.exec(text);
  if (!m) throw new InputError(origin, '', 'is not an expectation', `${FORM}.`);
  const [, tool, metric, op, amount] = m as unknown as [string, string | undefined, string, string, string];
  return {
    tool: tool === undefined ? null : gateTool(tool, origin),
    metric: gateMetric(metric, origin),
    ...gateThreshold(`${op} ${amount}`, origin),
    confidence: 'none',
    origin: { source: '--expect' },
  };
}

/** Refuses what the readings asked cannot answer: an after-expiry count without --retention. */
export function refuseUnanswerable(expectations: readonly GateExpectation[], retention: boolean): void {
  const e = expectations.find((x) => x.metric === NEEDS_RETENTION);
  if (e !== undefined && !retention) {
    throw new InputError(e.origin, e.origin.source === '--expect' ? '' : `expect.${e.metric}`, `${NEEDS_RETENTION} is read only with --retention (without it those duplicates count as same_key)`,
      "Give --retention, the key store's retention, such as --retention 24h.");
  }
}

/** Each expectation judged on the readings of its tool, or of all of them. */
export function checkGate(expectations: readonly GateExpectation[], r: Reconciliation): GateVerdict[] {
  return expectations.map((e) => {
    const readings = e.tool === null ? r.overall : r.tools.find((t) => t.name === e.tool);
    if (readings === undefined) {
      const held = r.columns.tool === null ? `the rows have no tool column (their effects are one tool, ${ONE_TOOL})` : `the rows name ${r.tools.length === 0 ? 'no tool' : r.tools.map((t) => t.name).join(', ')}`;
      return { expectation: e, measured: { value: null }, pass: false, missing: clipped(`no effect of the tool ${e.tool}: ${held}`, 300) };
    }
    const read = GATE_READINGS[e.metric] as Read;
    return { expectation: e, ...judge(e, read(readings)) };
  });
}

/** 0 when every expectation passes, else 1 (a malformed one never gets here: it is an InputError, exit 2). */
export const gateStatus = (verdicts: readonly GateVerdict[]): number => (verdicts.every((v) => v.pass) ? 0 : 1);

/** What the command line asks of a gate. */
export interface GateAsked {
  expectations: number;
  expectFile: string | undefined;
  junit: string | undefined;
  summary: string | undefined;
  out: string | undefined;
  format: string;
}

/**
 * Whether there is a gate: --expect or --expect-file. Its reports are refused without one (they
 * would have nothing to say), and two reports on standard output at once, as `check` refuses them.
 */
export function gateAsked(o: GateAsked): boolean {
  const asked = o.expectations > 0 || o.expectFile !== undefined;
  const reports = [['--junit', o.junit !== undefined, 'JUnit XML'], ['--summary', o.summary !== undefined, 'Markdown summary'], ['--format github', o.format === 'github', '']] as const;
  for (const [flag, given] of reports) {
    if (given && !asked) {
      throw new InputError({ source: flag }, '', 'reports on expectations, and none is given', `Give --expect 'duplicates_per_1000 <= 5' or --expect-file FILE (docs/reconcile.md, "A gate in CI"), or leave ${flag} out.`);
    }
  }
  for (const [flag, , what] of reports.slice(0, 2)) {
    const path = flag === '--junit' ? o.junit : o.summary;
    if (path === '-' && (o.out === undefined || o.out === '-')) {
      throw new InputError({ source: `${flag} -` }, '', `the ${what} and the report would both go to standard output`, `Write the report elsewhere with --out FILE, or the ${what} with ${flag} FILE.`);
    }
  }
  return asked;
}
