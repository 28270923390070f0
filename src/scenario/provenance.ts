/**
 * Where each key of a scenario came from (`idem-sim explain`), and the lab values a scenario runs
 * on without writing them (the note of run, sweep and check). Read from what the reader recorded
 * (`ParsedScenario`: the keys written, `locate`, the files of the `extends:` chain, and for an
 * agent's tool what its `defaults:` wrote and what the agent sets): a key written is the file's
 * own line, a base file's line, an option, or the agent's; a key not written comes from a preset
 * the scenario names, or is the built-in default. Pure.
 */
import { writtenLatency } from '../model/latency.js';
import { meanRatePerS } from '../model/clock.js';
import { inertSettings } from '../model/inert.js';
import type { Probability } from '../model/params.js';
import { DEFAULT_SCENARIO, EVENT_CHANCES, paramAt } from '../model/shape.js';
import { formatPath, valueAt } from './document.js';
import { formatDuration } from './duration.js';
import type { Origin } from './errors.js';
import type { ParsedScenario } from './parse.js';
import { asInput } from './names.js';
import { namedPresets } from './presets.js';
import { clipped, printable } from './printable.js';
import { isDurationKey } from './schema.js';
import { shellQuote } from './shell-quote.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;

/** What an agent file adds to a tool's scenario (agent/compose.ts). */
export interface Composed {
  /** Whether the agent's `defaults:` wrote a key path the tool's scenario holds (rather than the tool's own keys). */
  fromDefaults: (path: Path) => boolean;
  /** The keys the agent sets itself, each with why. */
  setByAgent: readonly { path: Path; why: string }[];
}

export type SourceKind = 'default' | 'preset' | 'file' | 'base' | 'set' | 'agent-defaults' | 'agent';

/** Where a key's value came from. */
export interface KeySource {
  kind: SourceKind;
  /** The file and line that wrote it, or the option (no line); for a preset, where the preset is named. */
  at?: Origin;
  /** The preset's name. */
  preset?: string;
  /** Why the agent sets it. */
  why?: string;
  /** A latency's parameter the model fitted to the percentiles written `at`. */
  fitted?: true;
}

/** One key of the scenario a run takes. */
export interface ExplainedKey {
  /** Its path (`client.backoff.base`, `incidents[0].from`). */
  key: string;
  /** Its value as the run takes it: durations in ms, `none` as null. */
  value: unknown;
  /** Its value for a person: as written (in the file, the option or the preset), else in a readable form (`1h`). */
  text: string;
  from: KeySource;
}

const isMapping = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const samePath = (a: Path, b: Path): boolean => a.length === b.length && a.every((k, i) => String(k) === String(b[i]));

/** Every key of the scenario, in the order of its shape, with its value and where it came from. */
export function explainKeys(parsed: ParsedScenario): ExplainedKey[] {
  const s = parsed.scenario;
  const shown = { ...s, service: { ...s.service, latency: writtenLatency(s.service.latency) } };
  return leaves(shown, []).map(({ path, value }) => {
    const from = keySource(parsed, path);
    if (formatPath(path) === 'actions' && s.load.duration !== null) {
      // Under load.duration, which sets how many arrive (model/clock.ts, withPrimaries): the expected count, not the unread default.
      const mean = (meanRatePerS(s) * s.load.duration) / 1000;
      const expected = mean < 100 ? Number(mean.toPrecision(2)) : Math.round(mean); // 0.1 for 10 s at 0.01/s, not 0
      return { key: 'actions', value: expected, text: `set by load.duration: about ${expected.toLocaleString('en-US')} (a Poisson count a seed draws)`, from };
    }
    return { key: formatPath(path), value, text: textOf(parsed, path, value, from), from };
  });
}

/**
 * The leaves of a resolved scenario: each scalar, `none` (null) and empty list with its path. A
 * fitted latency's `fitted_to` percentiles stand where they were written (`service.latency.p99`).
 */
function leaves(v: unknown, path: (string | number)[]): { path: (string | number)[]; value: unknown }[] {
  if (Array.isArray(v)) return v.length === 0 ? [{ path, value: v }] : v.flatMap((x, i) => leaves(x, [...path, i]));
  if (!isMapping(v)) return [{ path, value: v }];
  return Object.entries(v).flatMap(([k, x]) => (k === 'fitted_to' && isMapping(x) ? leaves(x, path) : leaves(x, [...path, k])));
}

/** Where the key at `path` came from. */
export function keySource(parsed: ParsedScenario, path: Path): KeySource {
  const agent = parsed.composed?.setByAgent.find((f) => samePath(f.path, path));
  if (agent) return { kind: 'agent', why: agent.why };
  const written = parsed.written;
  if (valueAt(written, path) !== undefined) return writer(parsed, path);
  let held = path.length - 1;
  while (held > 0 && valueAt(written, path.slice(0, held)) === undefined) held--;
  if (held > 0) {
    const at = path.slice(0, held);
    const v = valueAt(written, at);
    // A section written as a preset's name (client.retry_budget: aws-standard), or a value written whole.
    if (typeof v === 'string' && sectionPreset(at, v)) return { kind: 'preset', preset: v, at: locate(parsed, at) };
    if (!isMapping(v)) return writer(parsed, at);
    if (fittedAt(parsed, path)) return { ...writer(parsed, at), fitted: true };
  }
  for (const named of namedPresets(written as Raw)) {
    if (valueAt(named.preset.values, path) !== undefined) return { kind: 'preset', preset: String(valueAt(written, named.path)), at: locate(parsed, named.path) };
  }
  return { kind: 'default' };
}

const locate = (parsed: ParsedScenario, path: Path): Origin => parsed.locate?.(path) ?? { source: '' };

/** Who wrote a key the scenario holds: an option (no line), a file of the chain, the agent's defaults, or the file itself. */
function writer(parsed: ParsedScenario, path: Path): KeySource {
  const at = locate(parsed, path);
  if (at.line === undefined) return { kind: 'set', at };
  if (parsed.bases?.includes(at.source)) return { kind: 'base', at };
  if (parsed.composed?.fromDefaults(path)) return { kind: 'agent-defaults', at };
  return { kind: 'file', at };
}

/** Whether `name` is a preset of the optional section at `path` (model/params.ts `Optional`). */
function sectionPreset(path: Path, name: string): boolean {
  const p = paramAt(formatPath(path));
  return p?.kind === 'optional' && Object.hasOwn(p.presets, name);
}

/** Whether `path` lies in a latency the model fitted to percentiles (its resolved form has `fitted_to`). */
function fittedAt(parsed: ParsedScenario, path: Path): boolean {
  for (let k = path.length - 1; k > 0; k--) {
    const r = valueAt(parsed.scenario, path.slice(0, k));
    if (isMapping(r) && Object.hasOwn(r, 'fitted_to')) return true;
  }
  return false;
}

/** A value as written: a duration in its unit, `none`, a number or a word. */
function scalarText(v: unknown): string | undefined {
  if (v === null) return 'none';
  if (typeof v === 'string') return v.trim();
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

/** What a key of each kind reads when it holds null (the word a file writes for it), where that is not `none`. */
const NULL_WORDS: Readonly<Record<string, string>> = { override: 'unchanged', count_or_unbounded: 'unbounded' };

function textOf(parsed: ParsedScenario, path: Path, value: unknown, from: KeySource): string {
  const asWritten = from.kind === 'preset' ? presetValue(parsed, path) : from.kind === 'default' || from.fitted ? undefined : valueAt(parsed.written, path);
  const written = scalarText(asWritten);
  if (written !== undefined) return printable(clipped(written, 80));
  if (value === null) return NULL_WORDS[paramAt(formatPath(path))?.kind ?? ''] ?? 'none';
  if (Array.isArray(value)) return 'none';
  if (typeof value === 'number' && isDurationKey(formatPath(path))) return formatDuration(value);
  // A number the model computed (a fitted sigma): six significant digits.
  if (typeof value === 'number') return String(+value.toPrecision(6));
  return printable(clipped(String(value), 80));
}

/** The value a server or client preset the scenario names gives the key, as the preset writes it. */
function presetValue(parsed: ParsedScenario, path: Path): unknown {
  return namedPresets(parsed.written as Raw).map((n) => valueAt(n.preset.values, path)).find((v) => v !== undefined);
}

/** A lab value a scenario runs on without writing it. */
export interface LabDefault { path: string; value: number; meaning: string }

/** The keys of EVENT_CHANCES whose default is not 0: the guide's lab values. */
export const LAB_DEFAULTS: readonly string[] = EVENT_CHANCES.filter((p) => valueAt(DEFAULT_SCENARIO, p.split('.')) !== 0);

/**
 * The lab values the scenario runs on without writing them (nor its presets, bases, `--set` or an
 * agent's defaults), leaving out those its other settings make inert (model/inert.ts: re-plans
 * with `agent.max_replans: 0`), which change none of its numbers.
 */
export function labDefaultsInherited(parsed: ParsedScenario): LabDefault[] {
  const inherited = LAB_DEFAULTS.filter((p) => keySource(parsed, p.split('.')).kind === 'default');
  const inert = new Set(inertSettings(parsed.scenario, inherited).map((i) => i.path));
  return inherited.filter((p) => !inert.has(p))
    .map((p) => ({ path: p, value: valueAt(DEFAULT_SCENARIO, p.split('.')) as number, meaning: (paramAt(p) as Probability).meaning }));
}

/**
 * The note of the lab values `file` runs on without writing them, one line; `tools`: for an agent
 * file, the tools that run on each (all of them: none named).
 */
export function labNote(file: string, inherited: readonly (LabDefault & { tools?: readonly string[] })[], agent?: { tools: number }): string {
  const each = inherited.map((d) => `${d.path} ${d.value} (${d.meaning}${d.tools && agent && d.tools.length < agent.tools ? `: tools ${d.tools.join(', ')}` : ''})`);
  const listed = each.length < 2 ? each.join('') : `${each.slice(0, -1).join(', ')} and ${each.at(-1)}`;
  const first = inherited[0] as LabDefault;
  const [s, them] = inherited.length > 1 ? ['s', 'them'] : ['', 'it'];
  const where = agent ? 'under defaults: (every tool) or in a tool\'s scenario:' : 'in the scenario';
  return printable(`${clipped(file)} runs on the guide's lab value${s} of ${listed}, built-in default${s} it does not write. `
    + `Write ${them} ${where} to keep or change ${them} (such as ${first.path}: ${first.value}, which keeps the value) and this note ends; `
    + `idem-sim explain ${shellQuote(asInput(clipped(file)))} shows where every key comes from.`);
}
