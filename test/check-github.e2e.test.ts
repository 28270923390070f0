/**
 * `check --format github` through the real binary (docs/ci-gate.md). action.yml, which runs it,
 * is run step by step as a runner does in test/action.e2e.test.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from './helpers.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('check --format github', () => {
  it('a failing mission: the table, then an error at its expect: line; exit 1; the summary appended', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-github-'));
    const summary = join(dir, 'summary.md');
    const r = cli(['check', 'scenarios/mission-1-blind-retries.yaml', '--format', 'github'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.status).toBe(1);
    // Only the note of the lab values the mission runs on (docs/scenarios.md, "The lab's values").
    expect(r.stderr).toMatch(/^idem-sim: note: scenarios\/mission-1-blind-retries\.yaml runs on the guide's lab values [^\n]*\n$/);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-2)).toBe(`seed 1; idem-sim ${VERSION}; replay: idem-sim check scenarios/mission-1-blind-retries.yaml --seed 1`);
    // The measured figure, as the table shows it: the annotation and the summary carry the same.
    const measured = lines.find((l) => l.includes('│ duplicates_per_1000 │'))?.split('│')[4]?.trim() ?? '';
    expect(measured).toMatch(/^\d+\.\d ± \d+\.\d$/);
    expect(lines.at(-1)).toBe(`::error file=scenarios/mission-1-blind-retries.yaml,line=18,title=idem-sim check%3A duplicates_per_1000 == 0::mission-1-blind-retries: duplicates_per_1000 measured ${measured}, expected == 0 (seed 1, 4000 actions)%0Areplay: idem-sim check scenarios/mission-1-blind-retries.yaml --seed 1`);
    expect(readFileSync(summary, 'utf8')).toContain(`| mission-1-blind-retries | duplicates\\_per\\_1000 | == 0 | ${measured} | **FAIL** |`);
  });
});
