/**
 * `reconcile`'s source (src/reconcile/open.ts): a file or `--postgres URL --query SQL`, the
 * options that cannot go together refused before anything is opened or connects, in one
 * sentence that never repeats the URL (the services tier reads a real PostgreSQL).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captured } from './command-line.js';
import { ROOT } from './helpers.js';

const REFUNDS = join(ROOT, 'scenarios/effects/refunds.csv');
/** Port 1: nothing answers, so a refusal that came after connecting would say so instead. */
const URL = 'postgres://reconcile:Hunter2Secret@127.0.0.1:1/billing';

describe("reconcile's source", () => {
  it('refuses a file and --postgres together, --postgres or --query alone, --statement-timeout for a file, and nothing at all', async () => {
    const refused = async (args: string[]) => {
      const e = await captured(['reconcile', ...args]).then(() => undefined, (x: unknown) => x as Error);
      expect(e?.message).not.toContain('Hunter2Secret');
      expect(e?.message.split('. ')).toHaveLength(2);
      return e?.message;
    };
    expect(await refused([REFUNDS, '--postgres', URL, '--query', 'SELECT 1'])).toBe(`--postgres: cannot read a query and the effects file ${REFUNDS} at once. Name an effects file (CSV or JSON lines), or give --postgres URL --query SQL, not both.`);
    expect(await refused(['--postgres', URL])).toBe('--postgres: needs --query SQL, the SELECT whose rows are the effects. Give --query "SELECT order_line_id, created_at, idempotency_key FROM refunds ORDER BY created_at" beside it.');
    expect(await refused(['--query', 'SELECT 1'])).toBe('--query: needs --postgres URL, the PostgreSQL to run it on. Give --postgres postgres://user@host:5432/database beside it, or leave --query out to read a file.');
    expect(await refused([REFUNDS, '--statement-timeout', '1m'])).toBe('--statement-timeout: applies to --postgres alone, and no --postgres is given. Leave --statement-timeout out for a file, or give --postgres URL --query SQL.');
    expect(await refused([])).toBe('reconcile: no effects given. Name an effects file (CSV or JSON lines), or give --postgres URL --query SQL.');
  });

  it('reads --statement-timeout (with its unit) and the URL before connecting', async () => {
    await expect(captured(['reconcile', '--postgres', URL, '--query', 'SELECT 1', '--statement-timeout', '30'])).rejects.toThrow('--statement-timeout 30: the duration has no unit. Write the unit: 30m for minutes, 30s for seconds.');
    await expect(captured(['reconcile', '--postgres', 'mysql://u:Hunter2Secret@h/db', '--query', 'SELECT 1'])).rejects.toThrow(/^--postgres mysql:\/\/\*\*\*\*@h: is not a PostgreSQL URL \(its scheme is "mysql"\)\./);
  });
});
