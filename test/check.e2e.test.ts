/** check, missions, presets and size through the real binary. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { keyStoreSize } from '../src/results/metrics.js';
import { cli, ROOT } from './helpers.js';

function file(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-check-'));
  const f = join(dir, 'scenario.yaml');
  writeFileSync(f, text);
  return f;
}

describe('expectations', () => {
  it('exit 0 when all pass, 1 when one fails, 2 for a malformed expectation', () => {
    const pass = cli(['check', file('idempotency: {scope: intent}\nexpect:\n  duplicates_per_1000: "== 0"\n  key_store_mb: "<= 36"\n')]);
    expect(pass.status, pass.stderr).toBe(0);
    expect(pass.stdout).toContain('all 2 expectations pass');
    const fail = cli(['check', file('expect:\n  duplicates_per_1000: "<= 0.5"\n  lost_per_1000: "== 0"\n')]);
    expect(fail.status).toBe(1);
    expect(fail.stdout).toMatch(/duplicates_per_1000 +│ <= 0.5 +│ +[\d.]+ ± [\d.]+ │ FAIL/);
    expect(fail.stdout).toContain('1 of 2 expectations fail');
    const malformed = cli(['check', file('expect:\n  duplicates_per_1000: "about 1"\n')]);
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('key expect.duplicates_per_1000');
    const unknown = cli(['check', file('expect:\n  duplicate_per_1000: "== 0"\n')]);
    expect(unknown.stderr).toContain('Did you mean `duplicates_per_1000`?');
    expect(cli(['check', file('actions: 100\n')]).stderr).toContain('has no expectations to check');
  });

  it('--junit writes well-formed JUnit XML with a failure per failed expectation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-junit-'));
    const xml = join(dir, 'junit.xml');
    const r = cli(['check', 'scenarios/mission-1-blind-retries.yaml', 'scenarios/solutions/mission-1-blind-retries.yaml', '--junit', xml]);
    expect(r.status).toBe(1);
    const text = readFileSync(xml, 'utf8');
    expect(XMLValidator.validate(text)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(text);
    expect(doc.testsuites['@_tests']).toBe('4');
    expect(doc.testsuites['@_failures']).toBe('1');
    expect(doc.testsuites.testsuite).toHaveLength(2);
    expect(JSON.stringify(doc.testsuites.testsuite[0])).toContain('failure');
  });
});

describe('missions', () => {
  const missions = readdirSync(join(ROOT, 'scenarios')).filter((f) => f.startsWith('mission-'));
  for (const m of missions) {
    it(`${m} fails as shipped and its solution passes`, () => {
      expect(cli(['check', `scenarios/${m}`]).status).toBe(1);
      const solved = cli(['check', `scenarios/solutions/${m}`]);
      expect(solved.status, solved.stdout).toBe(0);
    });
  }
  it('idem-sim missions lists them with a hint each', () => {
    const r = cli(['missions']);
    expect(r.status).toBe(0);
    expect(r.stdout.match(/^\d\. /gm)).toHaveLength(5);
    expect(r.stdout.match(/hint: /g)).toHaveLength(5);
  });
});

describe('presets', () => {
  it('an unknown preset is an error with a suggestion', () => {
    expect(cli(['run', '--set', 'preset=strpe']).stderr).toContain('Did you mean `stripe`?');
  });
});

describe('size', () => {
  it('arithmetic: 50/s x 24 h = 4.32 M keys, 864 MB at 200 B', () => {
    const s = keyStoreSize(1, 50, 86_400_000, 200);
    expect(s.keys).toBe(4_320_000);
    expect(s.key_store_mb).toBeCloseTo(864, 9);
    const r = cli(['size', '--rate', '50', '--retention', '24h', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ keys: 4_320_000, keys_per_action: 1, record_bytes: 200 });
    expect(cli(['size', '--rate', '50', '--retention', '1h']).stdout).toContain('36 MB');
  });

  it("a scenario's simulated keys per action, rate and retention", () => {
    const r = JSON.parse(cli(['size', 'scenarios/mission-2-slow-downstream.yaml', '--json']).stdout);
    expect(r.keys_per_action).toBeGreaterThan(1.3); // re-plans under a per-call key claim new keys
    expect(r.keys).toBeCloseTo(r.keys_per_action * 50 * 3600, 6);
    expect(cli(['size', '--rate', '50']).stderr).toContain('--retention is missing');
  });
});

describe('check edge cases', () => {
  it('ci95 does not pass on no evidence: a zero count is bounded by the rule of three', () => {
    const f = file('idempotency: {scope: intent}\nexpect:\n  confidence: ci95\n  duplicates_per_1000: "<= 0.5"\n');
    // 3 events in n actions is the 95% bound for a count of zero: 3000/n per 1000 must be <= 0.5.
    expect(cli(['check', f, '--actions', '1000']).status).toBe(1); // bound 3 per 1000
    expect(cli(['check', f, '--actions', '20000']).status).toBe(0); // bound 0.15 per 1000
  });

  it('a time unit on a metric that is not a time is refused', () => {
    const r = cli(['check', file('expect:\n  key_store_mb: "< 3s"\n')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('key_store_mb is not a time');
  });

  it('scenarios without expect: are skipped when others have one', () => {
    const r = cli(['check', 'scenarios/lab-defaults.yaml', 'scenarios/solutions/mission-1-blind-retries.yaml']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('skipped scenarios/lab-defaults.yaml');
  });

  it('--junit - and the table cannot both go to stdout', () => {
    expect(cli(['check', 'scenarios/solutions/mission-1-blind-retries.yaml', '--junit', '-']).stderr).toContain('would both go to standard output');
  });

  it('size refuses simulation options without a scenario', () => {
    expect(cli(['size', '--rate', '50', '--retention', '1h', '--set', 'idempotency.scope=call']).stderr).toContain('only applies with a scenario');
  });
});
