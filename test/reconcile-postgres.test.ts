/**
 * `reconcile --postgres URL` and `--statement-timeout` read before anything connects
 * (src/reconcile/postgres-failures.ts): each refusal an InputError naming the option, the URL
 * with its password hidden; and a time's text read by hand as node-pg reads it. What needs a
 * server is in reconcile-postgres.services.test.ts.
 */
import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresUrl, statementTimeoutOption } from '../src/reconcile/postgres-failures.js';
import { isoMs, VALUE_TYPES } from '../src/reconcile/postgres-values.js';
import { InputError } from '../src/scenario/errors.js';

const SECRET = 'Hunter2Secret';

function refusal(read: () => unknown): string {
  let error: unknown;
  try {
    read();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InputError);
  const message = (error as Error).message;
  expect(message).not.toContain(SECRET);
  return message;
}

describe('--postgres URL', () => {
  it('a PostgreSQL URL passes, shown with its password hidden', () => {
    expect(postgresUrl(`postgres://app:${SECRET}@db.internal:5432/billing?sslmode=require`)).toEqual({
      url: `postgres://app:${SECRET}@db.internal:5432/billing?sslmode=require`, display: 'postgres://app:****@db.internal:5432/billing?sslmode=require',
    });
    expect(postgresUrl('postgresql://app@db/billing?options=-c%20search_path%3Dbilling').display).toBe('postgresql://app@db/billing?options=-c%20search_path%3Dbilling');
  });

  it('is refused, password hidden, when it is no PostgreSQL URL, sets the statement timeout, passes an option of its own, or cannot be read safely', () => {
    expect(refusal(() => postgresUrl(`mysql://app:${SECRET}@db/billing`))).toBe(
      '--postgres mysql://****@db: is not a PostgreSQL URL (its scheme is "mysql"). Write it as postgres://[user[:password]@]host[:5432]/database (a password in PGPASSWORD or ~/.pgpass keeps it off the command line).');
    expect(refusal(() => postgresUrl(`postgres://app:${SECRET}@db/billing?statement_timeout=0`))).toBe(
      '--postgres postgres://app:****@db/billing?statement_timeout=0: sets statement_timeout, which reconcile sets itself. Remove ?statement_timeout= and give --statement-timeout instead (such as --statement-timeout 15m).');
    expect(refusal(() => postgresUrl(`postgres://app:${SECRET}@db/billing?query_timeout=0`))).toMatch(
      /^--postgres postgres:\/\/app:\*\*\*\*@db\/billing\?query_timeout=0: has the option \?query_timeout=, which reconcile does not pass to node-pg\. Remove it; reconcile accepts \?host=, .*\?options=, \?application_name=\.$/);
    expect(refusal(() => postgresUrl(`postgres://app:${SECRET}/x@db/billing`))).toMatch(/^--postgres postgres:\/\/\*\*\*\*@db: is not a URL\. /);
    expect(refusal(() => postgresUrl('postgres://app:1234/x@db/billing'))).toMatch(/^--postgres postgres:\/\/\*\*\*\*@db: is not a URL that can be read safely .*Percent-encode/);
    expect(refusal(() => postgresUrl(`postgres://app:${SECRET}%zz@db/billing`))).toMatch(/: the password holds a % that does not start an escape\. /);
    expect(refusal(() => postgresUrl('postgres://'))).toMatch(/^--postgres .*: (is not a URL|names no host and no database)\. /);
    expect(refusal(() => postgresUrl(''))).toMatch(/: is empty\. Write it as postgres:\/\//);
    expect(refusal(() => postgresUrl(` postgres://app:${SECRET}@db/billing`))).toMatch(/: has spaces around it\. Remove them/);
    expect(refusal(() => postgresUrl(`app:${SECRET}@db`))).not.toContain(SECRET);
  });
});

describe('--statement-timeout', () => {
  it('a duration with its unit, in ms', () => {
    expect(statementTimeoutOption('5m')).toBe(300_000);
    expect(statementTimeoutOption('250ms')).toBe(250);
    expect(statementTimeoutOption('1.5h')).toBe(5_400_000);
  });

  it('no unit, no duration, 0 (no timeout at all to PostgreSQL) and more than PostgreSQL can wait are refused', () => {
    expect(refusal(() => statementTimeoutOption('30'))).toBe('--statement-timeout 30: the duration has no unit. Write the unit: 30m for minutes, 30s for seconds.');
    expect(refusal(() => statementTimeoutOption('soon'))).toMatch(/^--statement-timeout soon: "soon" is not a duration\. /);
    expect(refusal(() => statementTimeoutOption('0'))).toBe('--statement-timeout 0: is 0, which PostgreSQL reads as no timeout at all. Give a duration such as 5m (the default) or 1h.');
    expect(refusal(() => statementTimeoutOption('30d'))).toBe('--statement-timeout 30d: is longer than PostgreSQL can wait (24.8 days). Give at most 24d.');
  });
});

describe('times as PostgreSQL writes them (DateStyle ISO)', () => {
  const byPg = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;
  const two = (n: number) => String(n).padStart(2, '0');
  const text = fc.record({
    ms: fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }),
    micros: fc.integer({ min: 0, max: 999_999 }),
    digits: fc.integer({ min: 0, max: 6 }),
    zone: fc.constantFrom('', '+00', '-05', '+05:30', '-09:30:15', '+14'),
  }).map(({ ms, micros, digits, zone }) => {
    const d = new Date(ms);
    const fraction = digits === 0 ? '' : `.${String(micros).padStart(6, '0').slice(0, digits)}`;
    return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}${fraction}${zone}`;
  });

  it('the common shape is read by hand to the ms node-pg reads (no zone: UTC)', () => {
    fc.assert(fc.property(text, (t) => {
      expect(isoMs(t)).toBe(byPg(/[+-]\d\d(:\d\d){0,2}$/.test(t.slice(19)) ? t : `${t}+00`).getTime());
    }), { numRuns: 2000 });
  });

  it('any other shape is left to node-pg: a BC date, a five-digit year, a year before 1000, infinity', () => {
    const timestamptz = VALUE_TYPES.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (t: string) => unknown;
    const timestamp = VALUE_TYPES.getTypeParser(pg.types.builtins.TIMESTAMP, 'text') as (t: string) => unknown;
    for (const t of ['0044-03-15 12:00:00+00 BC', '12026-01-01 00:00:00+00', '0999-12-31 23:59:59.5+00', 'infinity', '-infinity']) expect(isoMs(t)).toBeNaN();
    expect(timestamptz('0999-12-31 23:59:59.5+00')).toEqual(byPg('0999-12-31 23:59:59.5+00'));
    expect(timestamptz('0044-03-15 12:00:00+00 BC')).toEqual(byPg('0044-03-15 12:00:00+00 BC'));
    expect(timestamp('0044-03-15 12:00:00 BC')).toEqual(byPg('0044-03-15 12:00:00+00 BC'));
    expect(timestamptz('infinity')).toBe('infinity');
    expect(timestamp('-infinity')).toBe('-infinity');
  });
});
