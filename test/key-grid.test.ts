/**
 * The peak grid's rows (engine/peak.ts): written one at a time by the engines (`addRow`, in ms from
 * a chunk's start), growing room on either side, and grids added to each other (`addGrid`, a chunk
 * written apart), against the live count at every grid instant counted row by row.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GRID_PAST, KeyGrid } from '../src/engine/peak.js';

const STEP = 100;

/** Rows as (chunk offset, start, length) in ms. */
const rows = fc.array(fc.tuple(fc.integer({ min: 0, max: 2 * 10 ** 6 }), fc.double({ min: 0, max: 10 ** 5, noNaN: true }), fc.double({ min: 0, max: 10 ** 4, noNaN: true })), { minLength: 1, maxLength: 60 });

/** The live count at each grid instant g from cell `from`, one row at a time: live at g·step when its cells (first live, first not live) hold g. */
function counted(all: [number, number, number][], from: number, to: number): number[] {
  const live = new Array<number>(to - from).fill(0);
  for (const [offset, start, length] of all) {
    const g0 = Math.ceil((offset + start) * (1 / STEP));
    const g1 = Math.ceil((offset + start + length) * (1 / STEP));
    for (let g = Math.max(g0, from); g < Math.min(g1, to); g++) live[g - from]!++;
  }
  return live;
}

/** The live count at each grid instant from cell `from`, from a grid's differences. */
function liveOf(grid: KeyGrid, from: number, to: number): number[] {
  const { base, diff } = grid.toData();
  const d = new Int32Array(Uint8Array.from(Buffer.from(diff, 'base64')).buffer);
  const live: number[] = [];
  let n = 0;
  for (let g = Math.min(base, from); g < to; g++) {
    n += g >= base && g - base < d.length ? (d[g - base] as number) : 0;
    if (g >= from) live.push(n);
  }
  return live;
}

const write = (grid: KeyGrid, all: [number, number, number][]) => {
  for (const [offset, start, length] of all) {
    grid.rowsFrom(offset);
    grid.addRow(start, start + length);
  }
};

describe('the peak grid', () => {
  it('counts each row at the grid instants it is live, in any order, growing room on either side', () => {
    fc.assert(fc.property(rows, fc.nat({ max: 3000 }), (all, expected) => {
      const grid = new KeyGrid(STEP, expected);
      write(grid, all);
      const to = Math.ceil(2.11e6 / STEP) + 2;
      const live = counted(all, 0, to);
      expect(liveOf(grid, 0, to)).toEqual(live);
      expect(grid.peak()).toBe(live.reduce((a, b) => Math.max(a, b), 0));
    }), { numRuns: 100 });
  });

  it('a grid added to another gives what writing every row to one gives', () => {
    fc.assert(fc.property(rows, rows, (a, b) => {
      const one = new KeyGrid(STEP);
      write(one, [...a, ...b]);
      const apart = new KeyGrid(STEP, 1000);
      const other = new KeyGrid(STEP);
      write(apart, a);
      write(other, b);
      apart.addGrid(other);
      apart.addGrid(new KeyGrid(STEP)); // an empty grid adds nothing
      expect(apart.toData()).toEqual(one.toData());
    }), { numRuns: 100 });
  });

  it('with expected cells, makes its room at its first chunk, so that rows inside them never grow it; empty, it gives the same data either way', () => {
    const grid = new KeyGrid(STEP, 5000);
    expect(grid.cells.length).toBe(0);
    expect(grid.toData()).toEqual(new KeyGrid(STEP).toData());
    grid.rowsFrom(1000);
    const cells = grid.cells;
    expect(cells.length).toBeGreaterThanOrEqual(5000);
    expect(grid.toData()).toEqual(new KeyGrid(STEP).toData()); // room, but no row
    for (let k = 0; k < 100; k++) grid.addRow(k * 3000, k * 3000 + 20_000); // cells 10 .. 3210 from run time 1000 ms
    expect(grid.cells).toBe(cells); // never grown
    const plain = new KeyGrid(STEP);
    plain.rowsFrom(1000);
    for (let k = 0; k < 100; k++) plain.addRow(k * 3000, k * 3000 + 20_000);
    expect(grid.toData()).toEqual(plain.toData());
    expect(grid.peak()).toBe(plain.peak());
    // With a cap: rows ending past it are clipped alike, whether room was made at the first chunk or the first row.
    const capped = new KeyGrid(STEP, 5000, 2000), plainCapped = new KeyGrid(STEP, 0, 2000);
    for (const g of [capped, plainCapped]) {
      g.rowsFrom(1000);
      for (let k = 0; k < 67; k++) g.addRow(k * 3000, k * 3000 + 20_000); // rows from cell 10 to 1990, the last ones ending past cell 2000
    }
    expect(capped.toData()).toEqual(plainCapped.toData());
    expect(capped.peak()).toBe(plainCapped.peak());
  });

  it('refuses a grid of another step', () => {
    expect(() => new KeyGrid(STEP).addGrid(new KeyGrid(2 * STEP))).toThrow(/grid steps differ/);
  });

  it('with a cap, clips the rows that end past it and keeps the peak, and refuses a row that starts past it', () => {
    // Rows start by cell 21,000 (2.1e6 ms) and some live up to 10^9 ms: a cap at cell 30,000 leaves
    // the grid 30,000 cells, not 10^7, and the peak as it is, since a live count rises only at a start.
    const long = fc.array(fc.tuple(fc.integer({ min: 0, max: 2 * 10 ** 6 }), fc.double({ min: 0, max: 10 ** 5, noNaN: true }), fc.double({ min: 0, max: 10 ** 9, noNaN: true })), { minLength: 1, maxLength: 60 });
    fc.assert(fc.property(long, (all) => {
      const capped = new KeyGrid(STEP, 0, 30_000);
      const whole = new KeyGrid(STEP);
      write(capped, all);
      write(whole, all);
      expect(capped.peak()).toBe(whole.peak());
      expect(liveOf(capped, 0, 30_000)).toEqual(liveOf(whole, 0, 30_000));
      const { base, diff } = capped.toData();
      expect(base + Buffer.from(diff, 'base64').length / 4).toBeLessThanOrEqual(30_001);
    }), { numRuns: 100 });
    const grid = new KeyGrid(STEP, 0, 30_000);
    expect(() => grid.addRow(3_000_000, 3_100_000)).toThrow(new RegExp(`^${GRID_PAST}, 16 times`));
  });
});

describe('the grid of a run', () => {
  it('spans a trigger\'s redeliveries and the longest retry wait, so a schedule of days makes the step coarser, not the grid larger', async () => {
    const { parseScenario } = await import('../src/scenario/parse.js');
    const { gridCellsFor, gridStepFor, longestDelay } = await import('../src/engine/grid.js');
    const { deliveryReach, triggerOf } = await import('../src/model/trigger.js');
    const day = 86_400_000;
    // 3 redeliveries 300 days apart: 900 days after an action's first delivery (this ran a 3.5 GB grid for 100 actions).
    const { scenario } = parseScenario('client: {timeout: 2s}\nidempotency: {scope: intent}\ntrigger: {ack_timeout: 1s, redeliveries: 3, consumer_crash: 1, schedule: [300d]}\n', 's.yaml');
    expect(deliveryReach(triggerOf(scenario))).toBe(3 * 1000 + 3 * 300 * day);
    expect(longestDelay(scenario)).toBeGreaterThan(900 * day);
    const step = gridStepFor(scenario, 100);
    expect(gridCellsFor(scenario, 100, step)).toBeLessThanOrEqual(1.01 * 2 ** 20 + 1);
    // A 409's retry_after past the backoff's cap is the wait each retry may take.
    const slow = parseScenario('idempotency: {scope: intent, conflict_retry_after: 10m}\n', 's.yaml').scenario;
    const plain = parseScenario('idempotency: {scope: intent}\n', 's.yaml').scenario;
    expect(longestDelay(slow) - longestDelay(plain)).toBe(2 * 2 * 4 * (600_000 - 5_000));
  });
});
