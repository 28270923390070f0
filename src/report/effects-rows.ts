/**
 * `run --effects-out`'s rows as text (docs/reconcile.md, "Effects"): CSV with a header, or JSON
 * lines, one execution a row. The production table's columns first, then the model's truth
 * (`truth_*`), which `reconcile` reads only when asked. Times are ISO 8601 UTC with the run's
 * start at EFFECTS_EPOCH.
 */
import { EFFECTS_EPOCH, type EffectRecord } from '../exec/effects.js';

export const EFFECT_COLUMNS = ['business_key', 'at', 'idempotency_key', 'tool', 'truth_action', 'truth_duplicate', 'truth_source'] as const;

export type EffectsFormat = 'csv' | 'jsonl';

/** The format a file's name asks for: JSON lines for `.jsonl` and `.ndjson`, CSV otherwise. */
export const effectsFormatOf = (path: string): EffectsFormat => (/\.(jsonl|ndjson)$/i.test(path) ? 'jsonl' : 'csv');

const iso = (at: number): string => new Date(EFFECTS_EPOCH + Math.floor(at)).toISOString();

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
const field = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

const values = (r: EffectRecord): readonly string[] =>
  [r.businessKey, iso(r.at), r.key ?? '', r.tool, r.action, r.duplicate ? '1' : '0', r.source];

/** The file's first text: CSV's header, nothing for JSON lines. */
export const effectsHead = (format: EffectsFormat): string => (format === 'csv' ? `${EFFECT_COLUMNS.join(',')}\n` : '');

/** Rows as text, each ending in a line break. */
export function effectsText(rows: readonly EffectRecord[], format: EffectsFormat): string {
  if (format === 'csv') return rows.map((r) => `${values(r).map(field).join(',')}\n`).join('');
  return rows.map((r) => `${JSON.stringify({
    business_key: r.businessKey, at: iso(r.at), idempotency_key: r.key, tool: r.tool,
    truth_action: r.action, truth_duplicate: r.duplicate ? 1 : 0, truth_source: r.source,
  })}\n`).join('');
}
