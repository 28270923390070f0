/**
 * An agent file's own keys (agent/shape.ts) checked and resolved: each value of the kind its
 * declaration says, unknown keys refused with the keys allowed, defaults filled in. One walk over
 * the declaration, as scenario/resolve.ts walks the scenario's; a tool's scenario keys are left to
 * the scenario's own reader.
 */
import { formatPath } from '../scenario/document.js';
import { InputError, type Origin } from '../scenario/errors.js';
import { didYouMean } from '../scenario/suggest.js';
import { required, type Param, type Params } from '../model/params.js';
import { COST_EITHER } from './shape.js';

type Path = readonly (string | number)[];
type Raw = Record<string, unknown>;
export type Locate = (path: Path, keyNode?: boolean) => Origin;

/** Keys of which a mapping gives one or the other (agent/parse.ts checks which), so neither is required alone. */
const ONE_OF: ReadonlySet<string> = new Set(COST_EITHER);

export const isMapping = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as the user would recognise it, clipped. */
export function shown(value: unknown): string {
  if (value === undefined || value === null) return 'an empty value';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN (not a number)';
  if (typeof value === 'number' && !Number.isFinite(value)) return `${value} (a number too large to use)`;
  const t = JSON.stringify(value) ?? String(value);
  return t.length > 80 ? `${t.slice(0, 60)}... (${t.length} characters)` : t;
}

/** What a kind of value is, in an error's "expected ...". */
function expected(p: Param): string {
  switch (p.kind) {
    case 'number': case 'text': return p.description;
    case 'count': return `a whole number from ${p.min}${p.max === undefined ? '' : ` to ${p.max}`} (${p.meaning})`;
    case 'flag': return `true or false (${p.meaning})`;
    case 'choice': return `one of ${p.values.join(', ')} (${p.meaning})`;
    case 'section': case 'optional': return `a mapping (${p.meaning})`;
    case 'list': return `a list of at most ${p.max} mappings (${p.meaning})`;
    default: return p.kind;
  }
}

/**
 * Checks `v` against `p` and resolves it. `extra`: keys a mapping at a path may hold besides its
 * declared ones (read elsewhere), by the path's form (`tools[]`).
 */
export function readParam(p: Param, v: unknown, path: Path, locate: Locate, extra: (path: Path) => readonly string[] = () => []): unknown {
  const bad = (): never => {
    throw new InputError(locate(path), formatPath(path), `got ${shown(v)}, expected ${expected(p)}`, 'Change the value to one of that form (see docs/agent-keys.md).');
  };
  switch (p.kind) {
    case 'section': return readParams(p.params, v === undefined ? {} : isMapping(v) ? v : bad(), path, locate, extra, false);
    case 'optional': return v === undefined || v === null || v === 'none' ? null : readParams(p.params, isMapping(v) ? v : bad(), path, locate, extra, true);
    case 'list': {
      if (v === undefined || v === null || v === 'none') return [];
      if (!Array.isArray(v)) return bad();
      if (v.length > p.max) {
        throw new InputError(locate(path), formatPath(path), `holds ${v.length} items, more than the ${p.max} allowed`, `Keep at most ${p.max}.`);
      }
      return v.map((item, i) => readParams(p.of.params, isMapping(item) ? item : readParam(p.of, item, [...path, i], locate) as Raw, [...path, i], locate, extra, true));
    }
    default: break;
  }
  if (v === undefined) return 'default' in p ? p.default : undefined;
  switch (p.kind) {
    case 'number': return typeof v === 'number' && Number.isFinite(v) && v >= p.min && v <= p.max ? v : bad();
    case 'count': return Number.isSafeInteger(v) && (v as number) >= p.min && (p.max === undefined || (v as number) <= p.max) ? v : bad();
    case 'flag': return typeof v === 'boolean' ? v : bad();
    case 'choice': {
      if (typeof v === 'string' && p.values.includes(v)) return v;
      const guess = typeof v === 'string' ? didYouMean(v, p.values) : undefined;
      throw new InputError(locate(path), formatPath(path), `${shown(v)} is not one of the allowed values`, `${guess ? `Did you mean \`${guess}\`? ` : ''}Use one of: ${p.values.join(', ')}.`);
    }
    case 'text': return typeof v === 'string' && v.trim() !== '' && (p.pattern === undefined || new RegExp(p.pattern, 'u').test(v)) ? v : bad();
    default: throw new Error(`agent/read.ts: no reader for kind ${p.kind}`);
  }
}

/** A mapping of declared keys: unknown keys refused (with the nearest), required ones demanded (`item`: a list's item or an optional section). */
function readParams(params: Params, raw: Raw, path: Path, locate: Locate, extra: (path: Path) => readonly string[], item: boolean): Raw {
  const more = extra(path);
  const allowed = [...Object.keys(params), ...more];
  for (const key of Object.keys(raw)) {
    if (allowed.includes(key)) continue;
    const guess = didYouMean(key, allowed);
    throw new InputError(locate([...path, key], true), formatPath([...path, key]), `unknown key "${key}"`,
      `${guess ? `Did you mean \`${guess}\`? ` : ''}Keys allowed ${path.length > 0 ? `under ${formatPath(path)}` : 'at the top level of an agent file'}: ${allowed.join(', ')}.`);
  }
  if (item) {
    for (const key of Object.keys(params)) {
      if (required(params[key] as Param) && !ONE_OF.has(key) && raw[key] === undefined) {
        throw new InputError(locate(path), formatPath(path), `missing key "${key}"`, `Add \`${key}:\` here (see docs/agent-keys.md).`);
      }
    }
  }
  const out: Raw = Object.fromEntries(Object.entries(params).map(([k, p]) => [k, readParam(p, raw[k], [...path, k], locate, extra)]));
  for (const k of more) if (raw[k] !== undefined) out[k] = raw[k];
  return out;
}
