/**
 * Understanding a scenario: YAML/JSON text (plus `--set` overrides) in, a validated,
 * fully resolved `WrittenScenario` out. Pure: reading files is the CLI's job (it loads the data
 * files a scenario names into the `Scenario` the engine runs).
 */
import type { ErrorObject } from 'ajv';
import type { MetricPath } from '../results/metric-paths.js';
import type { WrittenScenario } from '../model/types.js';
import { checkKeyPath, checkSize, formatPath, readValue, valueAt } from './document.js';
import { resolveExtends, type BaseFiles } from './extends.js';
import { overrideFor, readDocument, type Locate } from './read-document.js';
import { checkAlertNames, confidenceWarnings, readExpectations, type Expectation } from './expect.js';
import { applyPresets } from './presets.js';
import { capacityFix, checkCapacity, openedSection } from './capacity-checks.js';
import { checkTrigger, missingKeyFix, triggerFix, triggerKindFix } from './trigger-checks.js';
import { InputError, type Origin } from './errors.js';
import { checkBareDurations, checkCrossField, checkDurations, resolve } from './resolve.js';
import { checkTime } from './time-checks.js';
import { didYouMean } from './suggest.js';
import { unknownKeyHint } from './suggest-home.js';
import { durationSpellingHint } from './duration.js';
import { isDurationKey } from './schema.js';
import { validate } from './validate.generated.js';
import { inertWarnings, type ScenarioWarning } from './warnings.js';
import type { Composed } from './provenance.js';

export type { ScenarioWarning } from './warnings.js';

export { formatPath } from './document.js';
export { readDocument, type Locate } from './read-document.js';

/** One `--set key.path=value` (or `--actions N`) override. */
export interface Override {
  /** Keys, and list indexes as numbers (`components[0].weight` is ['components', 0, 'weight']). */
  path: readonly (string | number)[];
  /** The value as written; parsed as a YAML scalar or flow collection. */
  text: string;
  /** How the user wrote it, for error messages (`--set client.timeout=2s`). */
  option: string;
}

/** One `sweep.vary` entry of the file: a key path and its values as written. */
export interface FileVary {
  path: string;
  /** A mapping in a list is given as its JSON text, which a `--set` value reads as a YAML flow mapping. */
  values: string | readonly (string | number | boolean)[];
  origin: Origin;
}

/** A parsed scenario: `S` is the scenario as written (the shell then loads its data files into a `Scenario`). */
export interface ParsedScenario<S = WrittenScenario> {
  scenario: S;
  /** `seed:` from the file, if any. */
  seed?: string;
  description?: string;
  hint?: string;
  /** `expect:`, for `idem-sim check`. */
  expectations: Expectation[];
  /** `sweep:`, for `idem-sim sweep`. */
  sweep?: { vary: FileVary[]; metric?: MetricPath };
  /** Settings written that have no effect under the others (model/inert.ts), for a warning. */
  warnings: ScenarioWarning[];
  /** Where a key path was written (the file's line, or the `--set` that gave it), for errors found later. */
  locate?: (path: readonly (string | number)[]) => Origin;
  /** The files `extends:` read (their sources, nearest first): a key's origin names one of them or the scenario's own file. */
  bases?: readonly string[];
  /**
   * The keys as written: the file with its `extends:` chain (an agent's tool: with the agent's
   * `defaults:`) and `--set`, before presets fill theirs; where each came from is `locate`'s
   * answer (scenario/provenance.ts reads the two).
   */
  written: Readonly<Raw>;
  /** An agent's tool: which keys its `defaults:` wrote and which the agent sets itself (agent/compose.ts). */
  composed?: Composed;
}

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;

/**
 * Parses and validates a scenario; `source` names the file in error messages. `files`: how the
 * shell reads the files its `extends:` chain names (scenario/extends.ts), and the file's own
 * identity (its real path); without it an `extends:` is refused. `--set` applies after the chain.
 */
export function parseScenario(text: string, source: string, overrides: readonly Override[] = [], files?: BaseFiles & { id: string }): ParsedScenario {
  if (text === '' && overrides.length === 0) return { scenario: resolve(applyPresets({})), expectations: [], warnings: [], locate: () => ({ source, line: 1, col: 1 }), written: {} };
  const { document, locate } = readDocument(text, source, overrides);
  if (!isPlainObject(document) || !Object.hasOwn(document, 'extends')) return parseScenarioMapping(document, locate, overrides);
  // The file's own tokens count against its chain's allowance: every file read stays in memory for its lines.
  if (files) checkSize(text, { source, lines: true }, files.budget);
  const chain = resolveExtends(document, locate, { source, id: files?.id ?? source }, files);
  return { ...parseScenarioMapping(chain.document, chain.locate, overrides), bases: chain.bases };
}

/**
 * A scenario already read into plain data (a file's document, or an agent's tool, composed of
 * several), validated and resolved: `locate` says where each key path was written, for errors;
 * a key `overrides` set was written by its option.
 */
export function parseScenarioMapping(document: unknown, where: Locate, overrides: readonly Override[] = []): ParsedScenario {
  const locate: Locate = (path, keyNode) => { const o = overrideFor(path, overrides); return o ? { source: o.option } : where(path, keyNode); };
  if (isPlainObject(document) && Object.hasOwn(document, 'tools')) {
    throw new InputError(locate(['tools'], true), 'tools', 'makes this an agent file (docs/agents.md), which this command does not take as a scenario',
      'Give run, check, sweep, report or lab the agent file (lab and report with --tool NAME), or give this command one tool\'s scenario file.');
  }
  if (!isPlainObject(document)) {
    throw new InputError(locate([]), '', 'the document is not a mapping of keys to values',
      'Write the scenario as keys such as `client:` and `idempotency:` at the top level (see `idem-sim schema`).');
  }
  refuseExtends(document, locate, overrides);
  for (const o of overrides) applyOverride(document, o);
  const raw = applyPresets(document);

  checkBareDurations(raw, locate);
  if (!validate(raw)) throw withOverrideHint(schemaError(raw, validate.errors ?? [], locate), overrides);
  checkDurations(raw, locate);
  const scenario = resolve(raw, locate);
  checkCrossField(scenario, locate);
  checkCapacity(scenario, locate);
  checkTrigger(scenario, locate);
  checkTime(raw, scenario, locate);
  const expectations = checkedExpectations(readExpectations(raw, locate), scenario);

  const parsed: ParsedScenario = {
    scenario, expectations, warnings: [...inertWarnings(document, scenario, locate), ...confidenceWarnings(expectations)], locate: (path) => locate(path, true), written: document,
  };
  Object.assign(parsed, metaOf(raw, locate));
  return parsed;
}

type Meta = Omit<ParsedScenario, 'scenario' | 'expectations' | 'warnings' | 'locate' | 'written'>;

/** What a file says besides the model's keys: seed, description, hint and `sweep:`. */
function metaOf(raw: Raw, locate: (p: Path, keyNode?: boolean) => Origin): Meta {
  const parsed: Meta = {};
  if (raw['seed'] !== undefined) parsed.seed = String(raw['seed']);
  if (typeof raw['description'] === 'string') parsed.description = raw['description'];
  if (typeof raw['hint'] === 'string') parsed.hint = raw['hint'];
  const sweep = raw['sweep'] as { vary?: Raw; metric?: MetricPath } | undefined;
  if (sweep?.vary) {
    parsed.sweep = {
      vary: Object.entries(sweep.vary).map(([path, values]) => ({
        path: keyPathOf(path, locate(['sweep', 'vary', path], true)), values: Array.isArray(values) ? values.map((v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : v as string | number | boolean)) : values as string,
        origin: locate(['sweep', 'vary', path], true),
      })),
      ...(sweep.metric ? { metric: sweep.metric } : {}),
    };
  }
  return parsed;
}

/** An `extends:` left in a mapping (its chain is followed before: resolveExtends), or given by --set, which comes after the chain. */
function refuseExtends(document: Raw, locate: Locate, overrides: readonly Override[]): void {
  const set = overrides.find((o) => o.path[0] === 'extends');
  if (set) {
    throw new InputError({ source: set.option }, 'extends', 'cannot be set with --set: the files a scenario starts from are read before --set applies',
      'Write extends: in the scenario file (or in a file that extends it), and give --set the keys to change.');
  }
  if (Object.hasOwn(document, 'extends')) {
    throw new InputError(locate(['extends'], true), 'extends', 'names a file that was not read here', 'Follow the chain with resolveExtends (scenario/extends.ts) before parsing the mapping.');
  }
}

/** When the file is blamed but an override changed the same mapping, say so. */
function withOverrideHint(e: InputError, overrides: readonly Override[]): InputError {
  if (overrides.some((o) => e.origin?.source === o.option)) return e;
  const parent = e.keyPath.replace(/(\.[^.]+|\[\d+\])$/, '');
  const near = overrides.filter((o) => parent !== '' && formatPath(o.path).startsWith(parent));
  if (near.length === 0) return e;
  return new InputError(e.origin, e.keyPath, e.problem, `${e.fix} (${near.map((o) => o.option).join(', ')} changed this mapping.)`);
}

/** A `sweep.vary` key, checked: it becomes a --set path at every point. */
function keyPathOf(path: string, where: Origin): string {
  checkKeyPath(path, where, `sweep.vary.${path}`);
  return path;
}

function isPlainObject(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function applyOverride(raw: Raw, o: Override): void {
  checkKeyPath(o.path, { source: o.option });
  // Text that is not YAML is taken as a string, as before.
  const read = readValue(o.text, { source: o.option, prefix: o.path });
  const value: unknown = read.ok ? read.value : o.text;
  let node: Raw | unknown[] = raw;
  o.path.forEach((key, i) => {
    const container = node as Record<string | number, unknown>;
    if (Array.isArray(node) && typeof key === 'number' && key > node.length) {
      const n = node.length;
      throw new InputError({ source: o.option }, formatPath(o.path.slice(0, i + 1)),
        `index ${key} is out of range: ${formatPath(o.path.slice(0, i))} holds ${n} item${n === 1 ? '' : 's'}`,
        n === 0 ? 'Use [0] to add the first item.' : `Use an index from 0 to ${n - 1}, or [${n}] to add an item.`);
    }
    if (i === o.path.length - 1) { container[key] = value; return; }
    const written = Object.hasOwn(container, key) ? container[key] : undefined; // not Object.prototype's toString
    // A key inside an optional section written `none` or as a preset: the section, opened.
    const next = openedSection(o.path.slice(0, i + 1), written) ?? written;
    if (next !== written) node = container[key] = next as Raw;
    else if (next === undefined) node = container[key] = typeof o.path[i + 1] === 'number' ? [] : {};
    else if (typeof next === 'object' && next !== null) node = next as Raw;
    else {
      throw new InputError({ source: o.option }, formatPath(o.path.slice(0, i + 1)),
        `cannot set a key inside ${JSON.stringify(next)}, which is not a mapping`,
        'Set the whole value instead, for example --set service.latency="{dist: constant, value: 300ms}".');
    }
  });
}

function pointerToPath(pointer: string, raw: unknown): (string | number)[] {
  if (!pointer) return [];
  const path: (string | number)[] = [];
  let cur: unknown = raw;
  for (const part of pointer.slice(1).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) { path.push(Number(key)); cur = cur[Number(key)]; }
    else { path.push(key); cur = isPlainObject(cur) ? cur[key] : undefined; }
  }
  return path;
}

/** Picks the error that tells the user most and words it as problem + fix. */
function schemaError(raw: Raw, errors: readonly ErrorObject[], locate: (p: Path, keyNode?: boolean) => Origin): InputError {
  const all = errors.filter((e) => e.keyword !== 'if');
  const best = (useful: readonly ErrorObject[]) =>
    useful.find((e) => e.keyword === 'additionalProperties') ??
    useful.find((e) => e.keyword === 'enum') ??
    useful.find((e) => e.keyword === 'required') ??
    useful.find((e) => e.keyword === 'anyOf') ??
    useful[0];
  let pick = best(all);
  // A list that may also be `none` (incidents, alerts): the error inside its item says more than "not a list".
  const inside = pick?.keyword === 'anyOf' ? all.filter((e) => e.instancePath.startsWith(`${pick?.instancePath}/`)) : [];
  if (inside.length > 0) pick = best(inside);
  if (!pick) return new InputError(locate([]), '', 'the scenario is not valid', 'Compare it with `idem-sim schema`.');
  const path = pointerToPath(pick.instancePath, raw);
  const described = (pick.parentSchema as { description?: string } | undefined)?.description;
  const params = pick.params as Record<string, unknown>;

  if (pick.keyword === 'additionalProperties') {
    const key = String(params['additionalProperty']);
    const allowed = Object.keys((pick.parentSchema as { properties?: object }).properties ?? {}).filter((k) => k !== '$schema');
    return new InputError(locate([...path, key], true), formatPath([...path, key]), `unknown key "${key}"`,
      unknownKeyHint(key, path, allowed, valueAt(raw, [...path, key])) + `Keys allowed ${path.length ? `under ${formatPath(path)}` : 'at the top level'}: ${allowed.join(', ')}.`);
  }
  if (pick.keyword === 'required') {
    const key = String(params['missingProperty']);
    return new InputError(locate(path), formatPath(path), `missing key "${key}"`,
      missingKeyFix(path, key) ?? `Add \`${key}:\` here; this kind of value needs it (see \`idem-sim schema\`).`);
  }
  const value = valueAt(raw, path);
  const shown = describeValue(value);
  if (pick.keyword === 'enum') {
    const allowed = (params['allowedValues'] as unknown[]).map(String);
    const guess = typeof value === 'string' ? didYouMean(value, allowed) : undefined;
    return new InputError(locate(path), formatPath(path), `${shown} is not one of the allowed values`,
      (guess ? undefined : triggerKindFix(path, value)) ?? (guess ? `Did you mean \`${guess}\`? ` : '') + `Use one of: ${allowed.join(', ')}.`);
  }
  const expected = described ?? `${pick.message ?? 'a valid value'}`;
  const spelling = isDurationKey(formatPath(path)) ? durationSpellingHint(value) : '';
  return new InputError(locate(path), formatPath(path), `got ${shown}, expected ${expected}`,
    spelling || triggerFix(path, value) || capacityFix(path, value) || 'Change the value to one of that form.');
}

/** A value as the user would recognise it. */
function describeValue(value: unknown): string {
  if (value === undefined || value === null) return 'an empty value';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN (not a number)';
  if (typeof value === 'number' && !Number.isFinite(value)) return `${value} (a number too large to use)`;
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 60)}... (${text.length} characters)` : text;
}


/** Expectations whose alerts and incidents are the scenario's. */
function checkedExpectations(expectations: Expectation[], scenario: WrittenScenario): Expectation[] {
  checkAlertNames(expectations, scenario);
  return expectations;
}
