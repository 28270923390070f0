/** Sweep memory per point (issue 12, item 7): a heap limit is the process's, so this runs the binary. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, withoutNotes } from './helpers.js';

/**
 * A hang guard, not a speed limit: each run asserts on its work (every point's row, exit 0),
 * and the child is killed only past this (r.signal then says so). spawnSync holds up vitest's
 * own timer, so a test timeout would judge the time after the fact: the 20,000-point case took
 * 84 s against the 60 s it once had, on 2 cores at a load of 13.
 */
const HANG_GUARD_MS = 600_000;
const TEST_TIMEOUT_MS = HANG_GUARD_MS + 60_000;

describe('memory per point', () => {
  it('1,500 points run in a 96 MB heap: a point\'s sums (its grid alone was 255 KB) go no further than its row', () => {
    // Before: every point kept its loaded scenario (with the YAML document) and its sums until
    // the end; 20,000 points of 100 actions aborted V8 in a 512 MB heap.
    const r = spawnSync('node', ['--max-old-space-size=96', BIN, 'sweep', 'test/fixtures/tiny.yaml', '--vary', 'client.timeout=1ms..20s:1500', '--actions', '100', '--format', 'csv'],
      { encoding: 'utf8', timeout: HANG_GUARD_MS });
    expect(r.signal).toBeNull();
    expect(withoutNotes(r.stderr)).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1501);
  }, TEST_TIMEOUT_MS);

  it('--max-points 20000 with 100 actions a point runs to the end in a 48 MB heap: CSV keeps no point once its row is written (it took 512 MB)', () => {
    // Whole metrics kept to the end took 3.8 KB of heap a point, 76 MB for these; the rows written
    // as the points finish keep none, and 10,000 such points ran in 32 MB (docs/sweeps.md, "Memory").
    const r = spawnSync('node', ['--max-old-space-size=48', BIN, 'sweep', 'test/fixtures/tiny.yaml', '--vary', 'client.timeout=1ms..20s:20000', '--actions', '100', '--max-points', '20000', '--format', 'csv'],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: HANG_GUARD_MS });
    expect(r.signal).toBeNull();
    expect(withoutNotes(r.stderr)).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(20_001);
  }, TEST_TIMEOUT_MS);
});
