/**
 * `reconcile`'s table: the readings in a column for each tool (and one for all of them where
 * there are several), the duplicates' diagnosis and gaps, then the most duplicated business
 * keys (hashed unless --show-keys) and what the figures mean. Names from the rows (tools, keys,
 * columns) are printable and clipped; a line never begins with one.
 */
import type { ChalkInstance } from 'chalk';
import { DIAGNOSES, DIAGNOSIS_WORDS, GAP_BINS, type Readings, type Reconciliation } from '../reconcile/readings.js';
import { formatDuration } from '../scenario/duration.js';
import { clipped, printable } from '../scenario/printable.js';
import { num } from './format.js';
import { drawRows } from './sweep-table.js';
import { againstTable } from './reconcile-against.js';

const shown = (text: string, max = 40): string => printable(clipped(text, max));
const count = (n: number): string => n.toLocaleString('en-US');

/** Duplicates per 1000 effects with its interval: `82.9 (55.5 – 119)`, `0 (≤ 10.5)`, – with no effect. */
function per1000(r: Readings): string {
  if (r.per1000 === null) return '–';
  const { value, low, high } = r.per1000;
  return value === 0 ? `0 (≤ ${num(high)})` : `${num(value)} (${num(low)} – ${num(high)})`;
}

/** The table's rows: a label, then one cell per column of readings; a section's heading has empty cells. */
function tableRows(r: Reconciliation, columns: readonly Readings[], chalk: ChalkInstance): string[][] {
  const retention = r.retentionMs === null ? null : formatDuration(r.retentionMs);
  const row = (label: string, cell: (x: Readings) => string): string[] => [label, ...columns.map(cell)];
  const heading = (label: string): string[] => [chalk.bold(label), ...columns.map(() => '')];
  return [
    row('effects', (x) => count(x.effects)),
    row('business keys', (x) => count(x.businessKeys)),
    row(`duplicates (within ${formatDuration(r.windowMs)} of a key's first effect)`, (x) => count(x.duplicates)),
    row('duplicates per 1000 effects', per1000),
    row('effects per day', (x) => num(x.effectsPerDay)),
    row('duplicates per day', (x) => num(x.duplicatesPerDay)),
    heading('Diagnosis of the duplicates'),
    ...DIAGNOSES.map((d) => {
      const words = DIAGNOSIS_WORDS[d].label;
      if (d === 'same_key_after_expiry') return row(retention === null ? `${words} (give --retention)` : `${words} (${retention})`, (x) => (retention === null ? '–' : count(x.diagnosis[d])));
      return row(d === 'key_per_call_or_attempt' ? `${words} (a key per call or attempt)` : words, (x) => count(x.diagnosis[d]));
    }),
    heading("Gap from the key's first effect"),
    ...GAP_BINS.map((b, i) => row(`${b.label} (${b.evidence.replace(/:.*/, '')})`, (x) => count(x.gaps[i] ?? 0))),
  ];
}

/** The most duplicated keys, as a small table, or a sentence when there are none. */
function topKeys(r: Reconciliation, chalk: ChalkInstance): string {
  const keys = r.overall.topKeys;
  if (keys.length === 0) return 'no business key has a duplicate\n';
  const how = r.keysShown ? 'as written' : "each the first 12 hex of its SHA-256; --show-keys shows them";
  const exact = r.topKeysExact ? '' : '; more keys had duplicates than are counted, so these counts are lower bounds';
  const several = r.tools.length > 1;
  const head = ['business key', ...(several ? ['tool'] : []), 'duplicates'].map((h) => chalk.bold(h));
  const rows = keys.map((k) => [shown(k.key, 60), ...(several ? [shown(k.tool)] : []), count(k.duplicates)]);
  return `${chalk.bold('The most duplicated business keys')} (${how}${exact})\n${drawRows(head, rows, ['left', ...(several ? ['left' as const] : []), 'right'])}\n`;
}

function columnsLine(r: Reconciliation): string {
  const c = r.columns;
  const idem = c.idempotency_key ? `idempotency key ${shown(c.idempotency_key.name)}` : 'no idempotency key column (every duplicate: no key)';
  const tool = c.tool ? `tool ${shown(c.tool.name)}` : 'no tool column';
  return `columns: business key ${shown(c.business_key.name)}, time ${shown(c.at.name)}, ${idem}, ${tool}`;
}

function footer(r: Reconciliation, version: string): string[] {
  const buckets = r.overall.series.length;
  const first = r.overall.series[0];
  return [
    `a duplicate: an effect within ${formatDuration(r.windowMs)} (--window) of its business key's first; a key that comes`,
    '  back later starts a new window, and counts again among the business keys',
    '(a – b) is the 95% interval of the count (exact Poisson), 0 (≤ x) none seen and at most x at 95%',
    'the diagnosis and the gaps are evidence of a cause, not proof (docs/reconcile.md)',
    ...(r.retentionMs === null ? ["without --retention, a duplicate with its first effect's key is counted within the retention"] : []),
    ...(first === undefined ? [] : [`over time: ${count(buckets)} bucket${buckets === 1 ? '' : 's'} of ${formatDuration(r.stepMs)} from ${new Date(first.startMs).toISOString()} (--format csv or json)`]),
    `${count(r.rows)} rows${r.sorted ? ', sorted by time in memory (--sort)' : ''}; idem-sim ${version}`,
  ];
}

export function renderReconcileTable(r: Reconciliation, version: string, chalk: ChalkInstance): string {
  const columns = r.tools.length > 1 ? [...r.tools, r.overall] : [r.tools[0] ?? r.overall];
  const head = ['', ...columns.map((x) => chalk.bold(x.name === null ? 'all tools' : shown(x.name)))];
  const table = drawRows(head, tableRows(r, columns, chalk), ['left', ...columns.map(() => 'right' as const)]);
  const title = `${chalk.bold('Effects reconciled')} from ${shown(r.where, 80)}\n${columnsLine(r)}`;
  const against = r.against === undefined ? '' : `\n${againstTable(r.against, chalk)}`;
  return `${title}\n${table}\n${topKeys(r, chalk)}${against}${chalk.dim(footer(r, version).join('\n'))}\n`;
}
