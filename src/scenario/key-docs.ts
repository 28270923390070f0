/**
 * docs/scenario-keys.md: every key a scenario file may hold, with its kind, default and meaning,
 * rendered from `model/shape.ts` (the model's keys, worded as declared there), `model/latency.ts`
 * (the latency forms) and the schema (the keys that are not the model's: `preset`, `expect`,
 * `sweep`, `client.preset` ...). Pure: `npm run generate` writes the file, and
 * test/scenario-keys-doc.test.ts fails when it differs from what this renders.
 */
import { assertNever } from '../model/enums.js';
import { DEFAULT_DISTRIBUTION, DISTRIBUTIONS, LATENCY_FORMS, type Distribution } from '../model/latency.js';
import { MAX_DURATION_MS } from '../model/limits.js';
import { rangeEnds, required, type Param, type Params, type Section } from '../model/params.js';
import { SCENARIO_SHAPE } from '../model/shape.js';
import { formatDuration } from './duration.js';
import { scenarioSchema } from './schema.js';
import { DEFAULT_SEED } from './seed.js';

/** One row of a table: each field already written as markdown. */
export interface Row { key: string; kind: string; default: string; meaning: string }
type Json = Readonly<Record<string, unknown>>;

const code = (text: string): string => `\`${text}\``;
/**
 * A table cell: a `|` would end it, and outside code spans a `_` or `*` at a word's edge would
 * start emphasis (`__proto__`).
 */
const cell = (text: string): string => text.replace(/\|/g, '\\|').split(/(`[^`]*`)/)
  .map((part, i) => (i % 2 === 1 ? part : part.replace(/[_*](?![A-Za-z0-9])|(?<![A-Za-z0-9])[_*]/g, '\\$&'))).join('');

function kindOf(p: Param): string {
  switch (p.kind) {
    case 'probability': return 'probability from 0 to 1';
    case 'count': return `whole number >= ${p.min}`;
    case 'count_or_unbounded': return `whole number >= ${p.min}, or \`unbounded\``;
    case 'number': return 'number';
    case 'flag': return '`true` or `false`';
    case 'choice': return `one of ${p.values.map(code).join(', ')}`;
    case 'duration': return 'duration';
    case 'optional_duration': return 'duration or `none`';
    case 'durations': return `list of ${p.min} to ${p.max} durations`;
    case 'range': return 'range `{min, max}` of durations';
    case 'text': return 'text';
    case 'latency': return 'latency distribution';
    case 'components': return 'list of distributions';
    case 'section': return 'mapping';
    case 'optional': return `\`none\`, ${Object.keys(p.presets).map((k) => `${code(k)} (a preset), `).join('')}or a mapping`;
    case 'list': return `list of at most ${p.max} mappings, or \`none\``;
    case 'override': return kindOf(p.of);
    default: return assertNever(p);
  }
}

function meaningOf(p: Param): string {
  switch (p.kind) {
    case 'number': case 'text': case 'components': return p.description;
    case 'latency': return `a latency distribution: one of the forms below, chosen by \`dist\` (${DEFAULT_DISTRIBUTION} when it is left out)`;
    case 'override': return meaningOf(p.of);
    default: return p.meaning;
  }
}

/** The default as a file would write it (durations with their unit); `required` where a list's item or a form must give it. */
function defaultOf(p: Param, mustGive: boolean): string {
  if (mustGive) return 'required';
  switch (p.kind) {
    case 'probability': case 'flag': return code(String(p.default));
    case 'count': return p.default === undefined ? '' : code(String(p.default));
    case 'count_or_unbounded': return code(p.default === null ? 'unbounded' : String(p.default));
    case 'number': return p.default === undefined ? '' : code(String(p.default));
    case 'choice': return p.default === undefined ? '' : code(p.default);
    case 'duration': return p.default === undefined ? '' : code(formatDuration(p.default));
    case 'optional_duration': case 'list': case 'optional': return code('none');
    case 'durations': return code(`[${p.default.map(formatDuration).join(', ')}]`);
    case 'range': return code(`{min: ${formatDuration(p.default.min)}, max: ${formatDuration(p.default.max)}}`);
    case 'latency': return code(`{${formDefaults(DEFAULT_DISTRIBUTION)}}`);
    case 'override': return 'no change';
    case 'text': case 'components': case 'section': return '';
    default: return assertNever(p);
  }
}

/** A form's defaults as a file writes them (`median: 300ms, sigma: 0.6`). */
function formDefaults(dist: Distribution): string {
  return Object.entries(LATENCY_FORMS[dist].keys as Params).map(([k, p]) => `${k}: ${defaultOf(p, false).replace(/`/g, '')}`).join(', ');
}

const rowOf = (path: string, p: Param, mustGive: boolean): Row => ({ key: code(path), kind: kindOf(p), default: defaultOf(p, mustGive), meaning: meaningOf(p) });

/** The rows of a parameter and of every key under it; `inList` when it is a key of a list's item. */
export function rowsOf(path: string, p: Param, inList: boolean): Row[] {
  const row = rowOf(path, p, inList && required(p));
  // A section's keys are its own: not required by the list its item is in (agent/read.ts reads them so).
  if (p.kind === 'section') return [row, ...paramRows(path, p.params, false)];
  // Written as a mapping, an optional section must give its keys without a default.
  if (p.kind === 'optional') return [row, ...paramRows(path, p.params, true)];
  if (p.kind === 'list') return [row, ...paramRows(`${path}[]`, p.of.params, true)];
  if (p.kind === 'range') return [row, ...paramRows(path, rangeEnds(p), inList)];
  return [row];
}

const paramRows = (prefix: string, params: Params, inList: boolean): Row[] =>
  Object.entries(params).flatMap(([k, p]) => rowsOf(`${prefix}.${k}`, p, inList));

/**
 * `text`, split at its last parenthesised phrase: the schema words a key "what it takes (what it
 * means)". The phrase's parentheses may hold others.
 */
function splitDescription(text: string): { head: string; tail?: string } {
  if (!text.endsWith(')')) return { head: text };
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    depth += text[i] === ')' ? 1 : text[i] === '(' ? -1 : 0;
    if (depth === 0) return { head: text.slice(0, i).trim(), tail: text.slice(i + 1, -1) };
  }
  return { head: text };
}

/** The row of a key that only the schema knows, worded as the schema words it. */
function schemaRow(path: string, node: Json): Row {
  const description = String(node['description'] ?? '');
  // The seed's default is the CLI's and the lab's (scenario/seed.ts), not the schema's: a file without one runs with it.
  const def = node['default'] !== undefined ? code(String(node['default'])) : path === 'seed' ? code(DEFAULT_SEED) : '';
  const key = code(path);
  if (node['type'] === 'object') return { key, kind: 'mapping', default: def, meaning: description };
  const { head, tail } = splitDescription(description);
  const values = node['enum'];
  if (Array.isArray(values)) return { key, kind: `one of ${values.map((v) => code(String(v))).join(', ')}`, default: def, meaning: tail ?? description };
  return { key, kind: node['type'] === 'string' ? 'text' : head, default: def, meaning: tail ?? '' };
}

/** The schema's keys of a mapping that the model's `params` do not hold, as rows under `prefix`. */
function schemaOnlyRows(prefix: string, node: Json | undefined, params: Params): Row[] {
  const properties = (node?.['properties'] ?? {}) as Readonly<Record<string, Json>>;
  return Object.entries(properties).filter(([k]) => !Object.hasOwn(params, k)).map(([k, n]) => schemaRow(`${prefix}${k}`, n));
}

export function table(rows: readonly Row[]): string[] {
  return [
    '| key | kind | default | meaning |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${cell(r.key)} | ${cell(r.kind)} | ${r.default === '' ? '' : cell(r.default)} | ${cell(r.meaning)} |`),
  ];
}

const SCHEMA_PROPERTIES = scenarioSchema()['properties'] as Readonly<Record<string, Json>>;
const DEFINITIONS = scenarioSchema()['definitions'] as Readonly<Record<string, Json>>;
/** The schema of a key of a latency distribution (`dist`), or of a mixture's component (`weight`). */
function latencyKeySchema(definition: 'latency' | 'component', key: string): Json {
  const node = DEFINITIONS[definition] as Json;
  if (definition === 'latency') return (node['properties'] as Readonly<Record<string, Json>>)[key] as Json;
  const branch = (node['allOf'] as readonly Json[])[0] as Json;
  return ((branch['then'] as Json)['properties'] as Readonly<Record<string, Json>>)[key] as Json;
}

/** The keys of each latency form at `path`, a table per form. */
function latencySection(path: string): string[] {
  const lines = [`### ${code(path)}: latency distributions`, '', ...table([schemaRow(`${path}.dist`, latencyKeySchema('latency', 'dist'))])];
  for (const dist of DISTRIBUTIONS) {
    const form = LATENCY_FORMS[dist];
    const must = new Set<string>(form.required);
    // A key's own row, then those of the keys under it (a list's items: `buckets[].le`).
    const keys = Object.entries(form.keys as Params).flatMap(([k, p]) => [rowOf(`${path}.${k}`, p, must.has(k)), ...rowsOf(`${path}.${k}`, p, false).slice(1)]);
    const fits = Object.entries(form.fit?.keys ?? {}).map(([k, p]) => rowOf(`${path}.${k}`, p, false));
    const weight = Object.values(form.keys as Params).some((p) => p.kind === 'components')
      ? [{ ...schemaRow(`${path}.components[].weight`, latencyKeySchema('component', 'weight')), default: 'required' }] : [];
    lines.push('', `#### ${code(`dist: ${dist}`)}${dist === DEFAULT_DISTRIBUTION ? ' (the default)' : ''}`, '');
    if (form.fit) lines.push(`${Object.keys(form.keys).map(code).join(' and ')}, or instead the keys the form is fitted to (${Object.keys(form.fit.keys).map(code).join(', ')}), as their meanings say.`, '');
    lines.push(...table([...keys, ...fits, ...weight]));
    if (weight.length > 0) lines.push('', `Each item of ${code(`${path}.components`)} is a distribution of one of these forms with its ${code('weight')}.`);
  }
  return lines;
}

/** The latency keys at or under `p`. */
function latencyPaths(path: string, p: Param): string[] {
  if (p.kind === 'latency') return [path];
  return p.kind === 'section' ? Object.entries(p.params).flatMap(([k, q]) => latencyPaths(`${path}.${k}`, q)) : [];
}

/** The schema of an optional section written as a mapping (the branch of its forms that is one). */
const mappingOf = (node: Json | undefined): Json | undefined => (node?.['anyOf'] as readonly Json[] | undefined)?.find((b) => b['type'] === 'object') ?? node;

type Block = Section | Extract<Param, { kind: 'list' | 'optional' }>;

/**
 * A top-level section, list or optional section: its heading, its table (the section's own row
 * first when it may be left out, then the schema's extra keys, as it lists them) and its latency forms.
 */
function sectionBlock(key: string, p: Block): string[] {
  const rows = p.kind === 'list' ? rowsOf(key, p, false) : [
    ...(p.kind === 'optional' ? [rowOf(key, p, false)] : []),
    ...schemaOnlyRows(`${key}.`, mappingOf(SCHEMA_PROPERTIES[key]), p.params),
    ...paramRows(key, p.params, p.kind === 'optional'),
  ];
  const latency = latencyPaths(key, p).flatMap((path) => ['', ...latencySection(path)]);
  return [`## ${code(key)}: ${p.meaning}`, '', ...table(rows), ...latency, ''];
}

const HEADER = [
  '# Scenario keys',
  '',
  '> Generated by `npm run generate` from `src/model/shape.ts`, the latency forms of `src/model/latency.ts` and the',
  '> schema\'s other keys (the renderer is `src/scenario/key-docs.ts`): do not edit this file by hand.',
  '> `test/scenario-keys-doc.test.ts` fails when it differs from what the code renders.',
  '',
  'Every key a scenario file (YAML or JSON) may hold, with its kind, its default and its meaning. A missing',
  'key takes its default; a list may also be written `none`. A duration is written with its unit (`250ms`,',
  `\`2s\`, \`5m\`, \`1h\`, \`7d\`, fractions allowed) or as \`0\`, and is at most ${formatDuration(MAX_DURATION_MS)}. A key path such as`,
  '`client.backoff.base` is what `--set` and `--vary` take; `incidents[].from` stands for the key `from` of each',
  'item of `incidents`. What each key does in the model is in [model.md](model.md); an editor pointed at',
  '[`schema/scenario.schema.json`](../schema/scenario.schema.json) checks the same keys.',
  '',
];

/** docs/scenario-keys.md, whole. */
export function scenarioKeysDoc(): string {
  const entries = Object.entries(SCENARIO_SHAPE.params) as [string, Param][];
  const isBlock = (p: Param): p is Block => p.kind === 'section' || p.kind === 'list' || p.kind === 'optional';
  const top = entries.filter(([, p]) => !isBlock(p)).map(([k, p]) => rowOf(k, p, false));
  const lines = [...HEADER, '## Top level', '', ...table([...top, ...schemaOnlyRows('', scenarioSchema(), SCENARIO_SHAPE.params)]), ''];
  for (const [key, p] of entries) if (isBlock(p)) lines.push(...sectionBlock(key, p));
  return `${lines.join('\n').trimEnd()}\n`;
}
