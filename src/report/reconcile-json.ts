/**
 * `reconcile --format json`: every reading of the effects, per tool and overall, with the
 * buckets over time (docs/reconcile.md lists the fields). Times as ISO 8601 and in ms since the
 * epoch; durations in ms. The most duplicated keys as their hashes unless `keys_shown`.
 */
import type { Bucket, Readings, Reconciliation } from '../reconcile/readings.js';
import { DIAGNOSES, GAP_BINS } from '../reconcile/readings.js';
import { roundNoise } from './json.js';
import { againstJson } from './reconcile-against.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A bucket's diagnosis counts, `same_key_after_expiry` null without a retention (it cannot be told from `same_key`). */
function diagnosisJson(counts: Bucket['diagnosis'], retention: boolean): Record<string, number | null> {
  return Object.fromEntries(DIAGNOSES.map((d) => [d, d === 'same_key_after_expiry' && !retention ? null : counts[d]]));
}

function readingJson(r: Readings, retention: boolean): Record<string, unknown> {
  return {
    ...(r.name === null ? {} : { name: r.name }),
    effects: r.effects,
    business_keys: r.businessKeys,
    duplicates: r.duplicates,
    duplicates_per_1000: r.per1000?.value ?? null,
    duplicates_per_1000_ci95: r.per1000 === null ? null : [r.per1000.low, r.per1000.high],
    effects_per_day: r.effectsPerDay,
    duplicates_per_day: r.duplicatesPerDay,
    first_at: iso(r.firstMs),
    last_at: iso(r.lastMs),
    diagnosis: diagnosisJson(r.diagnosis, retention),
    gaps: GAP_BINS.map((b, i) => ({ bin: b.id, from_ms: b.fromMs, to_ms: b.toMs, evidence: b.evidence, duplicates: r.gaps[i] ?? 0 })),
    top_keys: r.topKeys.map((k) => ({ key: k.key, tool: k.tool, duplicates: k.duplicates })),
    series: r.series.map((b) => ({ start: iso(b.startMs), start_ms: b.startMs, effects: b.effects, duplicates: b.duplicates, ...diagnosisJson(b.diagnosis, retention) })),
  };
}

export function renderReconcileJson(r: Reconciliation, version: string): string {
  const retention = r.retentionMs !== null;
  const doc = {
    tool: 'idem-sim',
    version,
    time_unit: 'ms',
    source: r.where,
    rows: r.rows,
    sorted: r.sorted,
    columns: {
      business_key: r.columns.business_key.name,
      at: r.columns.at.name,
      idempotency_key: r.columns.idempotency_key?.name ?? null,
      tool: r.columns.tool?.name ?? null,
    },
    window_ms: r.windowMs,
    retention_ms: r.retentionMs,
    step_ms: r.stepMs,
    keys_shown: r.keysShown,
    top_keys_exact: r.topKeysExact,
    overall: readingJson(r.overall, retention),
    tools: r.tools.map((t) => readingJson(t, retention)),
    ...(r.against === undefined ? {} : { against_model: againstJson(r.against) }),
  };
  return `${JSON.stringify(doc, roundNoise, 2)}\n`;
}
