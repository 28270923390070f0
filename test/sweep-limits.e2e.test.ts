/** Sweep memory per point (issue 12, item 7): a heap limit is the process's, so this runs the binary. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from './helpers.js';

describe('memory per point', () => {
  it('1,500 points run in a 96 MB heap: a point keeps its metrics, not its sums (its grid alone was 255 KB)', () => {
    // Before: every point kept its loaded scenario (with the YAML document) and its sums until
    // the end; 20,000 points of 100 actions aborted V8 in a 512 MB heap.
    const r = spawnSync('node', ['--max-old-space-size=96', BIN, 'sweep', 'test/fixtures/tiny.yaml', '--vary', 'client.timeout=1ms..20s:1500', '--actions', '100', '--format', 'csv'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1501);
  });

  it('the case as reported: --max-points 20000 with 100 actions a point (the hint\'s own figure) runs to the end in a 512 MB heap', () => {
    const r = spawnSync('node', ['--max-old-space-size=512', BIN, 'sweep', 'test/fixtures/tiny.yaml', '--vary', 'client.timeout=1ms..20s:20000', '--actions', '100', '--max-points', '20000', '--format', 'csv'],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(r.signal).toBeNull();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(20_001);
  }, 60_000);
});
