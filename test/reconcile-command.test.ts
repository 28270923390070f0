/**
 * `idem-sim reconcile` in-process, on the bundled refunds table (scenarios/effects/refunds.csv,
 * fabricated with duplicates of every diagnosis and gap): its table, JSON and CSV, the keys
 * hashed unless --show-keys, --out, and its options' refusals (exit 2: the command rejects).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS, MAX_OPEN_KEYS, MAX_ROWS, MAX_SORTED_ROWS } from '../src/reconcile/limits.js';
import { captured } from './command-line.js';
import { ROOT } from './helpers.js';

const REFUNDS = join(ROOT, 'scenarios/effects/refunds.csv');

describe('reconcile on the bundled refunds table', () => {
  it('finds each diagnosis and each gap the table was made with', async () => {
    const r = await captured(['reconcile', REFUNDS, '--retention', '10m', '--format', 'json']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc.columns).toEqual({ business_key: 'order_line_id', at: 'created_at', idempotency_key: 'idempotency_key', tool: null });
    expect(doc.overall).toMatchObject({ effects: 350, business_keys: 321, duplicates: 29 });
    expect(doc.overall.diagnosis).toEqual({ same_key_after_expiry: 4, same_key: 3, key_per_call_or_attempt: 16, no_key: 6 });
    expect(doc.overall.gaps.map((g: { duplicates: number }) => g.duplicates)).toEqual([10, 8, 9, 2]);
    expect(doc.overall.top_keys[0]).toMatchObject({ key: expect.stringMatching(/^[0-9a-f]{12}$/), duplicates: 3 });
    expect(r.stdout).not.toMatch(/ol_\d+/);
    expect(doc.tools).toHaveLength(1);
  });

  it('names the most duplicated keys only with --show-keys', async () => {
    const doc = JSON.parse((await captured(['reconcile', REFUNDS, '--format', 'json', '--show-keys'])).stdout);
    expect(doc.keys_shown).toBe(true);
    expect(doc.overall.top_keys[0].key).toMatch(/^ol_\d+$/);
    expect(doc.overall.diagnosis).toMatchObject({ same_key_after_expiry: null, same_key: 7 });
  });

  it('writes the table, its diagnosis rows and what the figures mean', async () => {
    const r = await captured(['reconcile', REFUNDS, '--retention', '10m']);
    expect(r.stdout).toMatch(/^Effects reconciled from .*refunds\.csv\ncolumns: business key order_line_id, time created_at, idempotency key idempotency_key, no tool column\n/);
    expect(r.stdout).toMatch(/│ duplicates per 1000 effects +│ 82\.9 \(55\.5 – 119\) │/);
    expect(r.stdout).toMatch(/│ same key, after the retention \(10m\) +│ +4 │/);
    expect(r.stdout).toMatch(/│ 2 – 20 min \(crash replays\) +│ +9 │/);
    expect(r.stdout).toContain('each the first 12 hex of its SHA-256; --show-keys shows them');
    expect(r.stdout).toContain('evidence of a cause, not proof');
  });

  it('writes the buckets over time as CSV, to --out whole', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'idem-sim-reconcile-out-')), 'over-time.csv');
    const r = await captured(['reconcile', REFUNDS, '--retention', '10m', '--step', '6h', '--format', 'csv', '--out', out]);
    expect([r.status, r.stdout]).toEqual([0, '']);
    expect(readFileSync(out, 'utf8').split('\n')).toEqual([
      'start,start_ms,tool,effects,duplicates,same_key_after_expiry,same_key,key_per_call_or_attempt,no_key',
      expect.stringMatching(/^2026-03-02T06:00:00\.000Z,\d+,,\d+,\d+,\d+,\d+,\d+,\d+$/),
      expect.stringMatching(/^2026-03-02T12:00:00\.000Z,/),
      expect.stringMatching(/^2026-03-02T18:00:00\.000Z,/),
      '',
    ]);
  });
});

describe("reconcile's options", () => {
  it('refuse a duration without its unit, with the fix', async () => {
    await expect(captured(['reconcile', REFUNDS, '--window', '30'])).rejects.toThrow('--window 30: the duration has no unit. Write the unit: 30h for hours, 30m for minutes, 30s for seconds (or 30ms if you mean milliseconds).');
    await expect(captured(['reconcile', REFUNDS, '--step', '0'])).rejects.toThrow('--step 0: must be longer than 0.');
    await expect(captured(['reconcile', REFUNDS, '--format', 'html'])).rejects.toThrow(/--format html: "html" is not one of the allowed values\. Use one of: table, json, csv, github\./);
  });

  it('name a column, and refuse one the file lacks', async () => {
    await expect(captured(['reconcile', REFUNDS, '--key-column', 'order_id'])).rejects.toThrow(/refunds\.csv: has no column order_id, which --key-column names: its columns are refund_id, order_line_id, amount_cents, created_at, idempotency_key\./);
    const doc = JSON.parse((await captured(['reconcile', REFUNDS, '--key-column', 'refund_id', '--format', 'json'])).stdout);
    expect(doc.overall.duplicates).toBe(0);
  });
});

describe('docs/reconcile.md', () => {
  const doc = readFileSync(join(ROOT, 'docs/reconcile.md'), 'utf8');
  const block = (line: string) => doc.split(`$ ${line}\n`)[1]?.split('```')[0];

  it("shows the walkthrough's output as the command writes it", async () => {
    for (const line of ['idem-sim reconcile scenarios/effects/refunds.csv --retention 10m', 'idem-sim reconcile scenarios/effects/refunds.csv --retention 10m --step 2h --format csv']) {
      const args = line.split(' ').slice(1).map((a) => (a.endsWith('.csv') ? REFUNDS : a));
      const r = await captured(args);
      expect(r.stdout.replace(REFUNDS, 'scenarios/effects/refunds.csv'), line).toBe(block(line));
    }
  });

  it('and docs/security-and-limits.md state the limits as src/reconcile/limits.ts has them', () => {
    const limits = readFileSync(join(ROOT, 'docs/security-and-limits.md'), 'utf8');
    const shown = (n: number) => n.toLocaleString('en-US');
    expect(MAX_LINE_CHARS).toBe(1024 * 1024);
    expect(limits).toContain('of 1 MiB (`MAX_LINE_CHARS`)');
    expect(limits).toContain(`${shown(MAX_ROWS)} rows (\`MAX_ROWS\`)`);
    expect(limits).toContain(`${shown(MAX_SORTED_ROWS)} rows sorted in memory with \`--sort\` (\`MAX_SORTED_ROWS\`)`);
    expect(limits).toContain(`${shown(MAX_OPEN_KEYS)} business keys in an open window at once (\`MAX_OPEN_KEYS\`)`);
  });
});
