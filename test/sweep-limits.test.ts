/**
 * Sweep sizes (issue 12, item 7): grids refused from their counts, long tables drawn in linear
 * time (memory per point: sweep-limits.e2e.test.ts). The work is counted, not timed: the values
 * made before a refusal, and the cells cli-table3 lays out (their times: bench/limits.js).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import { describe, expect, it, vi } from 'vitest';
import type { Io } from '../src/io/streams.js';
import { drawRows } from '../src/report/sweep-table.js';
import { MAX_POINTS } from '../src/sweeps/grid.js';
import { command } from './command-line.js';
import { countValues, parseValues } from '../src/sweeps/values.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-sweep-limits-'));
const S = join(dir, 's.yaml');
writeFileSync(S, 'actions: 100\nidempotency: {retention: 2s}\n');

/** The work done, counted by the two mocks below. */
const work = vi.hoisted(() => ({ values: 0, tables: [] as number[] }));

/**
 * parseValues, counting the values it is asked to make (countValues says how many without
 * making them); a range past a million values throws here rather than running the heap out.
 */
vi.mock('../src/sweeps/values.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/sweeps/values.js')>();
  const parseValues: typeof real.parseValues = (spec, isDuration) => {
    const n = real.countValues(spec);
    work.values += n;
    if (n > 1_000_000) throw new Error(`parseValues was asked for ${n.toLocaleString('en-US')} values`);
    return real.parseValues(spec, isDuration);
  };
  return { ...real, parseValues };
});

/**
 * cli-table3, noting the cells of each table it lays out (heading included). Its layout takes
 * time quadratic in a table's cells (layout-manager's fillInTable checks each cell against
 * every cell above it), so the sum of their squares measures the work.
 */
vi.mock('cli-table3', async (importOriginal) => {
  const Table = (await importOriginal<{ default: typeof import('cli-table3') }>()).default;
  class Counted extends Table {
    override toString(): string {
      let columns = this.options.head.length;
      for (const row of this) columns = Math.max(columns, Array.isArray(row) ? row.length : 1);
      work.tables.push((this.length + (this.options.head.length > 0 ? 1 : 0)) * columns);
      return super.toString();
    }
  }
  return { default: Counted };
});

function io(): Io {
  return { stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
}

/** A refused `sweep FILE ARGS...`'s message, and the values made before the refusal. */
async function refusal(file: string, args: string[]): Promise<{ made: number; message: string }> {
  work.values = 0;
  try {
    await command(['sweep', file, ...args], io());
  } catch (e) {
    return { made: work.values, message: (e as Error).message };
  }
  throw new Error('not refused');
}

describe('the grid is refused from its value counts', () => {
  it('countValues counts a range without making it', () => {
    expect(countValues('1s..2s:1000000000')).toBe(1e9);
    expect(countValues('log:1..10:7')).toBe(7);
    expect(countValues('5m,1h,24h')).toBe(3);
    expect(countValues([1, 2])).toBe(2);
    for (const spec of ['200ms..2s:10', 'log:100ms..10s:9', 'none, call ,intent', '0.1..0.3:3']) expect(countValues(spec)).toBe(parseValues(spec).length);
    expect(() => countValues('1s..2s:1')).toThrow('empty or a single value');
  });

  it('a range of 10^9 values is refused at once (it made every value first)', async () => {
    const r = await refusal(S, ['--vary', 'client.timeout=1s..2s:1000000000']);
    expect(r.message).toContain('the grid has 1,000,000,000 points, more than 10,000');
    expect(r.message).toContain(`a sweep has at most ${MAX_POINTS.toLocaleString('en-US')} points`);
    expect(r.made).toBe(0);
  });

  it('a product past 2^53 is stated from the counts', async () => {
    const vary = ['client.timeout=1s..2s:1000000000', 'client.retries=0..9:1000000000', 'network.reply_loss=0..0.5:1000000000'];
    expect((await refusal(S, vary.flatMap((v) => ['--vary', v]))).message).toContain('1,000,000,000 × 1,000,000,000 × 1,000,000,000 (over 10^15) points');
  });

  it('sweep.vary lists in a scenario file are capped likewise, before the duplicate check (quadratic, 22 s at 10^5 × 10^5)', async () => {
    const file = join(dir, 'lists.yaml');
    const list = (n: number, f: (i: number) => number) => `[${Array.from({ length: n }, (_, i) => f(i)).join(',')}]`;
    writeFileSync(file, `actions: 100\nsweep:\n  vary:\n    client.timeout: ${list(20_000, (i) => i + 1)}\n    client.backoff.base: ${list(20_000, (i) => i)}\n`);
    const r = await refusal(file, []);
    expect(r.message).toContain('the grid has 400,000,000 points, more than 10,000');
    expect(r.made).toBe(0); // the duplicate check goes through the values made
  });

  it('--max-points is at most MAX_POINTS', async () => {
    expect((await refusal(S, ['--vary', 'client.retries=1,2', '--max-points', '1000000000'])).message)
      .toContain('--max-points 1000000000: is over the limit of 50,000 points');
  });

  it('a repeated value is still found (now with a set), and the shard count is capped', async () => {
    expect((await refusal(S, ['--vary', 'client.retries=1,2,1'])).message).toContain('the value 1 is given twice');
    expect((await refusal(S, ['--vary', 'client.retries=1,2', '--shard', '1/50000000', '--out', join(dir, 'p.json')])).message).toContain('over the limit of 10,000');
  });
});

describe('long tables', () => {
  const style = { style: { head: [], border: [] }, chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' } };
  const whole = (head: string[], rows: string[][], colAligns: ('left' | 'right')[]) => {
    const t = new Table({ head, ...style, colAligns });
    for (const r of rows) t.push(r);
    return t.toString();
  };

  it('drawn in blocks give cli-table3\'s text byte for byte (colours, wide, combining and multi-line cells)', () => {
    const chalk = new Chalk({ level: 3 });
    const head = ['key', 'dup/1000', 'p95'].map((h) => chalk.bold(h));
    const aligns: ('left' | 'right')[] = ['left', 'right', 'right'];
    const cellAt = (i: number) => [
      i % 97 === 0 ? `值${i}` : i % 89 === 0 ? `e\u0301${i}` : `${i} ms`,
      i % 5 === 0 ? chalk.red(`${i * 3} ± ${i}`) : `${i} ± 1`,
      i % 301 === 0 ? 'two\nlines' : i % 7 === 0 ? '–' : `${(i / 7).toFixed(3)} s`,
    ];
    for (const n of [0, 1, 666, 667, 668, 1400]) {
      const rows = Array.from({ length: n }, (_, i) => cellAt(i));
      expect(drawRows(head, rows, aligns)).toBe(whole(head, rows, aligns));
    }
  });

  it('take linear time: twice the rows, twice the layout work (cli-table3 alone is quadratic: 4,000 rows took 8.5 s)', () => {
    const head = Array.from({ length: 8 }, (_, k) => `h${k}`);
    /** The text of n rows, and cli-table3's layout work for it: the sum of its tables' squared cells. */
    const drawn = (n: number) => {
      const rows = Array.from({ length: n }, (_, i) => [`${i} ms`, ...Array.from({ length: 7 }, (_, k) => `${i * k} ± ${k}`)]);
      work.tables = [];
      const text = drawRows(head, rows, head.map(() => 'right' as const));
      return { text, tables: work.tables.length, work: work.tables.reduce((sum, cells) => sum + cells ** 2, 0) };
    };
    const half = drawn(2_000);
    const whole = drawn(4_000);
    expect(whole.text.split('\n')).toHaveLength(4_003);
    // Linear: 2.0 (8 and 16 blocks of 250 rows, each 2,000 cells); one table of all the rows gives 4.
    expect(whole.work / half.work, `${half.tables} and ${whole.tables} tables`).toBeCloseTo(2, 1);
  });
});
