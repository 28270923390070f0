/**
 * `fit --into`: the comments on the latency it replaces stay, exactly, in each of the forms it
 * writes (a histogram's block, a lognormal's one line); those on the old value's own keys go.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeInto } from '../src/cli/fit-into.js';

const HISTOGRAM = { dist: 'histogram', buckets: [{ le: 0, count: 6 }, { le: 0.5, count: 11 }], total: 14 };
const HISTOGRAM_LINES = '    dist: histogram\n    buckets:\n      - {le: 0, count: 6}\n      - {le: 0.5, count: 11}\n    total: 14\n';
const LOGNORMAL = { median: '228ms', sigma: 0.825 };

describe('--into keeps the comments on the latency it replaces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-fit-into-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const into = (text: string, value: Record<string, unknown>): string => {
    const file = join(dir, 's.yaml');
    writeFileSync(file, text);
    return writeInto(file, value);
  };

  it('an inline comment on the line it replaces', () => {
    const text = "service:\n  latency: {dist: lognormal, median: 100ms, sigma: 0.5}  # from last quarter's dashboards\n  error_rate: 0.01\n";
    expect(into(text, HISTOGRAM)).toBe(`service:\n  latency: # from last quarter's dashboards\n${HISTOGRAM_LINES}  error_rate: 0.01\n`);
    expect(into(text, LOGNORMAL)).toBe("service:\n  latency: {median: 228ms, sigma: 0.825} # from last quarter's dashboards\n  error_rate: 0.01\n");
  });

  it("a block's own comments, above its first key and after it; those on its keys go with them", () => {
    const text = 'service:\n  latency: # measured on Monday\n    dist: lognormal # the old form\n    median: 100ms\n    sigma: 0.5\n    # until the next deploy\n  error_rate: 0.01\n';
    expect(into(text, HISTOGRAM)).toBe(`service:\n  latency:\n    # measured on Monday\n${HISTOGRAM_LINES}    # until the next deploy\n  error_rate: 0.01\n`);
    expect(into(text, LOGNORMAL)).toBe('service:\n  latency: {median: 228ms, sigma: 0.825}\n    # measured on Monday\n    # until the next deploy\n  error_rate: 0.01\n');
  });
});
