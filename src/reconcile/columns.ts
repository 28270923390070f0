/**
 * Which of a source's columns hold an effect's business key, time, idempotency key and tool:
 * those the options name, else the first found by its usual name (case-insensitive; docs/reconcile.md
 * lists them). The business key and the time must be found; without an idempotency key column
 * every duplicate is `no_key`, and without a tool column every row is the one tool `all`.
 */
import { InputError } from '../scenario/errors.js';
import { columnName } from './csv-rows.js';

export type Role = 'business_key' | 'at' | 'idempotency_key' | 'tool';

/** The usual names of each role's column, first match first. */
export const USUAL_NAMES: Readonly<Record<Role, readonly string[]>> = {
  business_key: ['business_key', 'business_id', 'order_id', 'order_line_id', 'entity_id', 'resource_id', 'intent_id', 'customer_id', 'key'],
  at: ['at', 'created_at', 'occurred_at', 'executed_at', 'timestamp', 'time', 'ts', 'inserted_at'],
  idempotency_key: ['idempotency_key', 'idem_key', 'request_key', 'dedup_key', 'dedupe_key'],
  tool: ['tool', 'tool_name', 'action', 'operation', 'kind', 'type'],
};

/** The option that names each role's column. */
export const COLUMN_OPTIONS: Readonly<Record<Role, string>> = {
  business_key: '--key-column', at: '--time-column', idempotency_key: '--idempotency-column', tool: '--tool-column',
};

const WORDS: Readonly<Record<Role, string>> = {
  business_key: 'business key', at: 'time', idempotency_key: 'idempotency key', tool: 'tool',
};

/** The columns the options name (undefined: found by the usual names). */
export type ColumnNames = { readonly [R in Role]?: string | undefined };

/** Each role's column: its index in a row and its name; null for an optional one not there. */
export type ColumnMap = Readonly<Record<'business_key' | 'at', { index: number; name: string }>
  & Record<'idempotency_key' | 'tool', { index: number; name: string } | null>>;

const ROLES: readonly Role[] = ['business_key', 'at', 'idempotency_key', 'tool'];
const REQUIRED: ReadonlySet<Role> = new Set(['business_key', 'at']);

/** The columns found, for a message: the first 20, clipped and printable. */
function listed(found: readonly string[]): string {
  if (found.length === 0) return 'it has no columns';
  const shown = found.slice(0, 20).map(columnName);
  return `its columns are ${shown.join(', ')}${found.length > shown.length ? `, and ${found.length - shown.length} more` : ''}`;
}

/** The column `asked` names, or -1 where it names none. */
function named(role: Role, found: readonly string[], asked: string, where: string): number {
  const at = found.findIndex((name) => name.toLowerCase() === asked.trim().toLowerCase());
  if (at < 0) {
    throw new InputError({ source: where }, '', `has no column ${columnName(asked)}, which ${COLUMN_OPTIONS[role]} names: ${listed(found)}`,
      `Name one of its columns with ${COLUMN_OPTIONS[role]}.`);
  }
  return at;
}

/** The first column not `taken` with one of the role's usual names; -1 for an optional role with none. */
function usual(role: Role, found: readonly string[], taken: ReadonlyMap<number, Role>, where: string): number {
  for (const name of USUAL_NAMES[role]) {
    const at = found.findIndex((f, i) => !taken.has(i) && f.toLowerCase() === name);
    if (at >= 0) return at;
  }
  if (!REQUIRED.has(role)) return -1;
  // A column of a usual name another option took: said so, rather than "none is named" beside it.
  const held = found.findIndex((f, i) => taken.has(i) && USUAL_NAMES[role].includes(f.toLowerCase()));
  const other = held < 0 ? undefined : taken.get(held);
  const none = other === undefined ? `none is named ${USUAL_NAMES[role].join(', ')}` : `${columnName(found[held] as string)} is the ${WORDS[other]} column (${COLUMN_OPTIONS[other]})`;
  throw new InputError({ source: where }, '', `has no ${WORDS[role]} column: ${none}, and ${listed(found)}`,
    `Name the column that holds each effect's ${WORDS[role]} with ${COLUMN_OPTIONS[role]} COLUMN.`);
}

/** The columns of `found` that hold each role: those `asked` names first, then the others by their usual names. */
export function mapColumns(found: readonly string[], asked: ColumnNames, where: string): ColumnMap {
  const taken = new Map<number, Role>();
  const chosen = new Map<Role, number>();
  for (const role of ROLES) {
    const name = asked[role];
    if (name === undefined) continue;
    const index = named(role, found, name, where);
    const other = taken.get(index);
    if (other !== undefined) {
      throw new InputError({ source: where }, '', `its column ${columnName(found[index] as string)} is named by both ${COLUMN_OPTIONS[other]} and ${COLUMN_OPTIONS[role]}`,
        `Name a column of its own for each: the ${WORDS[other]} and the ${WORDS[role]}.`);
    }
    taken.set(index, role);
    chosen.set(role, index);
  }
  for (const role of ROLES) {
    if (chosen.has(role)) continue;
    const index = usual(role, found, taken, where);
    if (index >= 0) taken.set(index, role);
    chosen.set(role, index);
  }
  const entry = (role: Role) => {
    const index = chosen.get(role) as number;
    return index < 0 ? null : { index, name: found[index] as string };
  };
  return { business_key: entry('business_key') as { index: number; name: string }, at: entry('at') as { index: number; name: string }, idempotency_key: entry('idempotency_key'), tool: entry('tool') };
}
