#!/usr/bin/env node
// reconcile's PostgreSQL source (not a test: speed is never asserted): ROWS effects generated in
// PostgreSQL (generate_series: a business key shared by two rows, a time 10 ms apart, a key on
// two rows in three, one tool) read through src/reconcile/postgres.ts as `reconcile --postgres`
// reads them (a cursor, FETCH 10,000 at a time, in a read-only transaction), each value touched.
// Reports rows a second and the process's peak RSS after each tenth of the rows: the same peak
// at 1 M rows and at 10 M says that memory holds a batch, not the table. Run after a build
// (npx tsc -p tsconfig.json): `node bench/reconcile-postgres.js [--rows N] [--json]`, against
// IDEM_SIM_BENCH_POSTGRES or the tests' PostgreSQL (postgres://postgres@127.0.0.1:5432/test).
// With --readings the rows go through reconcile's readings too (src/reconcile/reconcile.ts, a 1 h
// window): each key's state is dropped once its window passed, so memory holds the keys of an hour
// (here 180,000), not the table.
import { postgresRows } from '../dist/reconcile/postgres.js';
import { reconcileRows } from '../dist/reconcile/reconcile.js';

const URL = process.env.IDEM_SIM_BENCH_POSTGRES ?? process.env.IDEM_SIM_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const at = process.argv.indexOf('--rows');
const ROWS = at > 0 ? Number(process.argv[at + 1]) : 10_000_000;
const json = process.argv.includes('--json');
const readings = process.argv.includes('--readings');
if (!Number.isInteger(ROWS) || ROWS < 10) throw new Error('--rows takes a whole number of at least 10');

const QUERY = `SELECT 'order-' || (g / 2) AS business_key,
  timestamptz '2026-01-01 00:00:00+00' + g * interval '10 milliseconds' AS at,
  CASE WHEN g % 3 = 0 THEN NULL ELSE 'key-' || g END AS idempotency_key,
  'refund' AS tool
FROM generate_series(1, ${ROWS}) AS g`;

const mb = (kb) => Math.round(kb / 1024);
const rssMb = () => mb(process.resourceUsage().maxRSS);

const before = rssMb();
const source = postgresRows({ url: URL, query: QUERY });
const t0 = process.hrtime.bigint();
let rows = 0;
let keyed = 0;
let lastMs = 0;
const peaks = [];
const tenth = Math.ceil(ROWS / 10);
try {
  if (readings) {
    // The readings read every row; the peaks are taken from a wrapper over the source's rows.
    const counted = { where: source.where, columns: () => source.columns(), close: () => source.close(), rows: async function* () {
      for await (const row of source.rows()) {
        lastMs = row[1].getTime();
        if (row[2] !== null) keyed++;
        if (++rows % tenth === 0) peaks.push({ rows, peak_rss_mb: rssMb() });
        yield row;
      }
    } };
    const r = await reconcileRows(counted, { windowMs: 3_600_000 });
    // Key k holds rows 2k and 2k + 1 (key 0 only row 1): every row beyond its key's first is a duplicate.
    if (r.overall.duplicates !== ROWS - (Math.floor(ROWS / 2) + 1)) throw new Error(`found ${r.overall.duplicates} duplicates`);
  } else {
    const columns = await source.columns();
    if (columns.join() !== 'business_key,at,idempotency_key,tool') throw new Error(`unexpected columns ${columns.join()}`);
    for await (const row of source.rows()) {
      // Each value read as the readings will: the key's text, the time's ms, whether a key was sent.
      if (typeof row[0] !== 'string' || row[3] !== 'refund') throw new Error('unexpected row');
      lastMs = row[1].getTime();
      if (row[2] !== null) keyed++;
      if (++rows % tenth === 0) peaks.push({ rows, peak_rss_mb: rssMb() });
    }
  }
} finally {
  await source.close();
}
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
if (rows !== ROWS || lastMs !== Date.parse('2026-01-01T00:00:00Z') + ROWS * 10) throw new Error(`read ${rows} rows, the last at ${lastMs}`);

const report = {
  rows, seconds: +seconds.toFixed(2), rows_per_s: Math.round(rows / seconds), keyed,
  peak_rss_mb: rssMb(), rss_before_mb: before, peak_rss_by_rows: peaks, node: process.version,
};
if (json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  console.log(`reconcile --postgres${readings ? ' (rows and readings)' : ' (rows)'}: ${rows.toLocaleString('en-US')} rows in ${report.seconds} s, ${report.rows_per_s.toLocaleString('en-US')} rows/s`);
  console.log(`peak RSS ${report.peak_rss_mb} MB (${before} MB before the query); after each tenth: ${peaks.map((p) => `${(p.rows / 1e6).toFixed(1)} M ${p.peak_rss_mb} MB`).join(', ')}`);
}
