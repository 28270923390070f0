/** The CI gate through the real binary: an invalid file among valid ones, --json, and the replay line's seed. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-gate-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const GOOD = 'actions: 3000\nidempotency: {scope: intent}\nexpect:\n  duplicates_per_1000: "== 0"\n  call_latency_ms.p95: "< 3s"\n';
const BAD = 'actions: 3000\nclient: {retries: many}\nexpect: {duplicates_per_1000: "== 0"}\n';

describe('check a.yaml bad.yaml --junit j.xml', () => {
  it('checks a.yaml, writes the JUnit file with an error case for bad.yaml, exits 2', () => {
    const dir = dirWith({ 'a.yaml': GOOD, 'bad.yaml': BAD });
    const r = cli(['check', 'a.yaml', 'bad.yaml', '--junit', 'j.xml'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^idem-sim: error: bad\.yaml:2:\d+, key client\.retries: /m);
    expect(r.stdout).toContain('all 2 expectations pass');
    const xml = readFileSync(join(dir, 'j.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml).testsuites;
    expect(doc).toMatchObject({ '@_tests': '3', '@_failures': '0', '@_errors': '1' });
    const [a, bad] = doc.testsuite;
    expect(bad['@_name']).toBe('bad.yaml');
    expect(bad.testcase.error['@_message']).toContain('key client.retries');
    // Passing cases carry what was measured.
    const p95 = a.testcase[1].properties.property;
    expect(p95['@_name']).toBe('call_latency_ms.p95');
    expect(Number(p95['@_value'])).toBeGreaterThan(0);
    expect(a.testcase[1]['system-out']).toMatch(/^measured [\d.]+ ms, expected < 3s: pass$/);
  });

  it('--json: one document with each expectation, the error, and a replay line that gives it again', () => {
    const dir = dirWith({ 'a.yaml': GOOD, 'bad.yaml': BAD });
    const r = cli(['check', 'a.yaml', 'bad.yaml', '--json'], { cwd: dir });
    expect(r.status).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ tool: 'idem-sim', seed: '1', result: 'error', replay: 'idem-sim check a.yaml bad.yaml --seed 1 --json' });
    expect(doc.scenarios[0].expectations[0]).toMatchObject({ metric: 'duplicates_per_1000', threshold: 0, estimate: 0, pass: true });
    expect(doc.errors.map((e: { file: string }) => e.file)).toEqual(['bad.yaml']);
    const again = cli(doc.replay.split(' ').slice(1), { cwd: dir });
    expect(again.stdout).toBe(r.stdout);
    expect(cli(['check', 'a.yaml', '--json', '--junit', '-'], { cwd: dir }).stderr).toContain('the JUnit XML and the JSON would both go to standard output');
  });
});

describe("check's replay line", () => {
  it('carries the seed, as run\'s does, and gives the same table again', () => {
    const r = cli(['check', 'scenarios/solutions/mission-1-blind-retries.yaml', '--actions', '3000']);
    const replay = /replay: (.*)$/m.exec(r.stdout)?.[1] ?? '';
    expect(replay).toBe('idem-sim check scenarios/solutions/mission-1-blind-retries.yaml --actions 3000 --seed 1');
    const run = JSON.parse(cli(['run', 'scenarios/solutions/mission-1-blind-retries.yaml', '--actions', '3000', '--json']).stdout);
    expect(run.replay).toContain('--seed 1');
    expect(cli(replay.split(' ').slice(1)).stdout).toBe(r.stdout);
  });
});

describe('check with no file that has an expect: block', () => {
  it('still writes the JUnit file, with an error case per file, and exits 2', () => {
    const dir = dirWith({ 'n.yaml': 'actions: 3000\n' });
    const r = cli(['check', 'n.yaml', '--junit', 'j.xml'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('idem-sim: error: n.yaml, key expect: has no expectations to check. Add an expect: block, for example expect: {duplicates_per_1000: "<= 0.5"}.\n');
    const doc = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, 'j.xml'), 'utf8')).testsuites;
    expect(doc).toMatchObject({ '@_tests': '1', '@_errors': '1' });
  });

  it('says so once for an agent file, not once for each of its tools', () => {
    const agent = 'agent: {name: a, conversations_per_s: 1, calls_per_conversation: 1}\ndefaults: {actions: 1000}\ntools:\n'
      + ['x', 'y', 'z'].map((t) => `  - {name: ${t}, share: ${t === 'x' ? 0.4 : 0.3}, annotations: {idempotentHint: false}}\n`).join('');
    const dir = dirWith({ 'a.yaml': agent });
    const r = cli(['check', 'a.yaml', '--junit', 'j.xml'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr.match(/has no expectations to check/g)).toHaveLength(1);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, 'j.xml'), 'utf8')).testsuites;
    expect(doc).toMatchObject({ '@_tests': '1', '@_errors': '1' });
  });
});
