#!/usr/bin/env node
// The times of the limits the unit tests hold by counting work (not a test): run by bench.js,
// or alone after a build, `node bench/limits.js [--json]`. The unit tier asserts no time, which
// a busy machine stretches; it checks the work instead (values made before a refusal, bytes
// read, tokens lexed, cells laid out, sockets opened). Here is what those refusals and the long
// sweep table take, each the median of RUNS in this one process after a warm-up.
//
// - a sweep's table of 5,000 and of 20,000 rows (8 columns), and their ratio: 4 when linear, 16
//   when quadratic (as cli-table3 on its own lays a table out: in time quadratic in its cells);
// - sweep refusals: a range of 10^9 values, and two lists of 20,000 values in a scenario file;
// - merge refusing a part over 64 MiB (a sparse file);
// - scenario refusals: 100,000 [ in a row, 60,000 keys (past the token limit), 20,000 keys with
//   one given twice;
// - an unreachable Redis and PostgreSQL (port 1 on the loopback).
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { mergeCommand } from '../dist/cli/merge.js';
import { MAX_PART_BYTES } from '../dist/shards/part-check.js';
import { sweepCommand } from '../dist/cli/sweep.js';
import { drawRows } from '../dist/report/sweep-table.js';
import { parseScenario } from '../dist/scenario/parse.js';
import { openBackend } from '../dist/stores/open.js';

const RUNS = 5;
const json = process.argv.includes('--json');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = mkdtempSync(join(tmpdir(), 'idem-sim-bench-limits-'));
const file = (name, text) => { const path = join(dir, name); writeFileSync(path, text); return path; };
const io = () => {
  const stream = () => new PassThrough().resume();
  return { stdout: stream(), stderr: stream(), env: {} };
};
/** Runs `work` (which must throw: a refusal) and returns nothing; anything else is a failure of the bench. */
const refused = async (work) => {
  try { await work(); } catch { return; }
  throw new Error('expected a refusal');
};
/** Milliseconds of `work`: the median of RUNS, after one run to warm up, and their range. */
async function timed(work) {
  await work();
  const ms = [];
  for (let k = 0; k < RUNS; k++) {
    const t0 = process.hrtime.bigint();
    await work();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { ms: median(ms), range_ms: [Math.min(...ms), Math.max(...ms)] };
}

const head = Array.from({ length: 8 }, (_, k) => `h${k}`);
const rowsOf = (n) => Array.from({ length: n }, (_, i) => [`${i} ms`, ...Array.from({ length: 7 }, (_, k) => `${i * k} ± ${k}`)]);
const tables = {};
for (const n of [5_000, 20_000]) {
  const rows = rowsOf(n);
  tables[n] = await timed(() => drawRows(head, rows, head.map(() => 'right')));
}

const scenario = file('s.yaml', 'actions: 100\nidempotency: {retention: 2s}\n');
const list = (n, f) => `[${Array.from({ length: n }, (_, i) => f(i)).join(',')}]`;
const lists = file('lists.yaml', `actions: 100\nsweep:\n  vary:\n    client.timeout: ${list(20_000, (i) => i + 1)}\n    client.backoff.base: ${list(20_000, (i) => i)}\n`);
const big = file('big.json', '');
truncateSync(big, MAX_PART_BYTES + 1);
const parsed = (text) => () => refused(() => parseScenario(text, 's.yaml'));
const keys = (n, tail = '') => `sweep:\n  vary:\n${Array.from({ length: n }, (_, i) => `    k${i}: x`).join('\n')}\n${tail}`;

const cases = [
  ['sweep table, 5,000 rows', tables[5_000]],
  ['sweep table, 20,000 rows', tables[20_000]],
  ['sweep: a range of 10^9 values refused', await timed(() => refused(() => sweepCommand(scenario, { vary: ['client.timeout=1s..2s:1000000000'] }, io())))],
  ['sweep: two lists of 20,000 values refused', await timed(() => refused(() => sweepCommand(lists, {}, io())))],
  ['merge: a part over 64 MiB refused', await timed(() => refused(() => mergeCommand([big], {}, io())))],
  ['scenario: 100,000 [ refused', await timed(parsed(`description: ${'['.repeat(100_000)}${']'.repeat(100_000)}`))],
  ['scenario: 60,000 keys refused (tokens)', await timed(parsed(`sweep:\n  vary:\n${Array.from({ length: 60_000 }, (_, i) => `    k${i}: [1]`).join('\n')}\n`))],
  ['scenario: 20,000 keys, one given twice', await timed(parsed(keys(20_000, '    k0: y\n')))],
  ['store: Redis unreachable', await timed(() => refused(() => openBackend('redis://127.0.0.1:1', 2)))],
  ['store: PostgreSQL unreachable', await timed(() => refused(() => openBackend('postgres://postgres@127.0.0.1:1/test', 2)))],
];
rmSync(dir, { recursive: true, force: true });

const report = {
  runs: RUNS,
  table_rows_ratio: tables[20_000].ms / tables[5_000].ms,
  cases: cases.map(([name, t]) => ({ case: name, ms: Number(t.ms.toFixed(1)), range_ms: t.range_ms.map((x) => Number(x.toFixed(1))) })),
};
if (json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const width = Math.max(...report.cases.map((c) => c.case.length));
  for (const c of report.cases) console.log(`${c.case.padEnd(width)}  ${c.ms.toFixed(1).padStart(9)} ms  (${c.range_ms.join('-')})`);
  console.log(`sweep table, 20,000 rows over 5,000: ${report.table_rows_ratio.toFixed(2)}x (4 when linear, 16 when quadratic); medians of ${RUNS}`);
}
