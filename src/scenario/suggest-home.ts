/**
 * Where a key lives when it is written under the wrong section: `idempotency.preset` is the
 * top-level `preset:`, `service.timeout` is `client.timeout`. Every key path comes from
 * `model/shape.ts` (the model's keys) and the schema (the keys a file holds besides them:
 * `preset`, `seed`, `client.preset`, ...), so a new key has its home without a list to update.
 */
import { LATENCY_FORMS } from '../model/latency.js';
import { rangeEnds, type Param } from '../model/params.js';
import { paramAt, SCENARIO_SHAPE } from '../model/shape.js';
import { formatPath } from './document.js';
import { providerWordsHint } from './provider-words.js';
import { scenarioSchema } from './schema.js';
import { didYouMean } from './suggest.js';
import { unmodelledHint } from './unmodelled.js';

type Path = readonly (string | number)[];

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** Every key path below a parameter: a list's items as `[]`, a distribution's keys of every form. */
function keyPaths(p: Param, path: string, inMixture = false): string[] {
  const below = (params: Readonly<Record<string, Param>>) => Object.entries(params).flatMap(([k, q]) => [join(path, k), ...keyPaths(q, join(path, k), inMixture)]);
  switch (p.kind) {
    case 'section': case 'optional': return below(p.params);
    case 'list': return keyPaths(p.of, `${path}[]`);
    case 'range': return Object.keys(rangeEnds(p)).map((k) => join(path, k));
    case 'latency': return [join(path, 'dist'), ...Object.values(LATENCY_FORMS).flatMap((f) => below({ ...f.keys, ...f.fit?.keys } as Readonly<Record<string, Param>>))];
    // A component is a distribution of its own, not a mixture again.
    case 'components': return inMixture ? [] : keyPaths({ kind: 'latency' }, `${path}[]`, true);
    default: return [];
  }
}

const propertiesOf = (node: unknown): Readonly<Record<string, unknown>> => (node as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};

/** The keys the schema adds to the model's: at the top level (`preset`, `seed`) and in a section (`client.preset`). */
function schemaKeyPaths(): string[] {
  const model: Readonly<Record<string, Param>> = SCENARIO_SHAPE.params;
  return Object.entries(propertiesOf(scenarioSchema())).flatMap(([key, node]) => {
    const own = Object.hasOwn(model, key) ? model[key] : undefined;
    if (own === undefined) return [key];
    const params: Readonly<Record<string, Param>> = own.kind === 'section' ? own.params : {};
    return Object.keys(propertiesOf(node)).filter((k) => !Object.hasOwn(params, k)).map((k) => join(key, k));
  });
}

let homes: Map<string, string[]> | undefined;

/** Key paths by their last key, lower case. */
function homeIndex(): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const path of [...schemaKeyPaths(), ...keyPaths(SCENARIO_SHAPE, '')]) {
    const key = (path.split('.').pop() as string).toLowerCase();
    index.set(key, [...(index.get(key) ?? []), path]);
  }
  return index;
}

const parentOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('.')));

/**
 * Where `key` lives (in any case) other than under `parent` (a key path with `[]` for list
 * items): the paths outside lists if there are any, else those inside.
 */
export function homesOf(key: string, parent: string): string[] {
  const elsewhere = ((homes ??= homeIndex()).get(key.toLowerCase()) ?? []).filter((p) => parentOf(p) !== parent);
  const plain = elsewhere.filter((p) => !p.includes('[]'));
  return plain.length > 0 ? plain : elsewhere;
}

/** Words naming where a key lives, from its paths (all with the same last key). */
function whereText(paths: readonly string[], under: string): string {
  const key = paths[0]?.split('.').pop() as string;
  if (paths.length === 1 && !paths[0]?.includes('.')) return `\`${key}\` is a top-level key: write \`${key}:\` at the top of the file, not under ${under}.`;
  if (paths.length === 1) return `\`${key}\` belongs under ${parentOf(paths[0] as string)}: write it as \`${paths[0]}\`.`;
  const shown = [...paths].sort((a, b) => a.split('.').length - b.split('.').length).slice(0, 4)
    .map((p) => (p.includes('.') ? `\`${p}\`` : `the top level (\`${p}:\`)`));
  return `\`${key}\` lives at ${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}${paths.length > 4 ? ` (and ${paths.length - 4} more)` : ''}.`;
}

/**
 * The start of the fix for an unknown key `key` under `path`, whose value is `value`: that the
 * model lacks the feature when the key, or a key below it, names one (`hedge`, `kafka.rebalance`:
 * unmodelled.ts), else the trigger key that a provider's word in it models (`visibility_timeout`,
 * `consumer: {max_receive_count: 5}`: provider-words.ts), else where the key lives when it is a
 * key of another section, else the allowed key it most likely misspells; '' when none. Inside a
 * latency distribution a key of another form is a question of `dist`, not of place.
 */
export function unknownKeyHint(key: string, path: Path, allowed: readonly string[], value?: unknown): string {
  const unmodelled = unmodelledHint(key, value);
  if (unmodelled !== '') return unmodelled;
  const parent = formatPath(path).replace(/\[\d+\]/g, '[]');
  const provider = providerWordsHint(key, parent, value);
  if (provider !== '') return provider;
  const kind = path.length === 0 ? undefined : paramAt(formatPath(path))?.kind;
  const found = kind === 'latency' || kind === 'components' ? [] : homesOf(key, parent);
  if (found.length > 0) return `${whereText(found, parent === '' ? 'the top level' : parent)} `;
  const guess = didYouMean(key, allowed);
  return guess ? `Did you mean \`${guess}\`? ` : '';
}
