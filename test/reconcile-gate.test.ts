/**
 * `reconcile`'s gate (src/reconcile/gate.ts, gate-file.ts; its reports in report/reconcile-gate*.ts):
 * expectations on the readings from --expect and an expectations file, judged on the bundled
 * refunds table with check's exit codes (0 all pass, 1 one fails, 2 a malformed one), its JUnit
 * XML, GitHub's annotations at the file's lines and the step summary; an error that ends the
 * command is in the reports too. And docs/reconcile.md's "A gate in CI" as the command writes it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import type { Io } from '../src/io/streams.js';
import { expectOption, GATE_READING_NAMES } from '../src/reconcile/gate.js';
import { readExpectFile } from '../src/reconcile/gate-file.js';
import { ROOT } from './helpers.js';

const REFUNDS = join(ROOT, 'scenarios/effects/refunds.csv');
const dir = mkdtempSync(join(tmpdir(), 'idem-sim-reconcile-gate-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** `idem-sim reconcile ARGS` in this process, its streams kept; `env` for $GITHUB_STEP_SUMMARY. */
async function reconcile(args: readonly string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  let [stdout, stderr] = ['', ''];
  const stream = (add: (s: string) => void) => ({ write: (s: string | Uint8Array) => { add(String(s)); return true; } }) as unknown as NodeJS.WritableStream;
  const io: Io = { stdout: stream((s) => { stdout += s; }), stderr: stream((s) => { stderr += s; }), env: { NO_COLOR: '1', ...env } };
  const status = await main(['node', 'idem-sim', 'reconcile', ...args], io);
  return { status, stdout, stderr };
}

describe('an expectation on the command line: [TOOL:]READING OP VALUE', () => {
  it('reads the reading, the operator and the number, and the tool before the last colon', () => {
    expect(expectOption('duplicates_per_1000 <= 5')).toEqual({ tool: null, metric: 'duplicates_per_1000', op: '<=', threshold: 5, text: '<= 5', confidence: 'none', origin: { source: '--expect' } });
    expect(expectOption(' refund:diagnosis.same_key_after_expiry==0 ')).toMatchObject({ tool: 'refund', metric: 'diagnosis.same_key_after_expiry', op: '==', threshold: 0, text: '== 0' });
    expect(expectOption('billing:refund:gaps.under_30s > 1.5e1')).toMatchObject({ tool: 'billing:refund', metric: 'gaps.under_30s', op: '>', threshold: 15 });
    expect(GATE_READING_NAMES).toEqual(['effects', 'business_keys', 'duplicates', 'duplicates_per_1000', 'effects_per_day', 'duplicates_per_day',
      'diagnosis.same_key_after_expiry', 'diagnosis.same_key', 'diagnosis.key_per_call_or_attempt', 'diagnosis.no_key',
      'gaps.under_30s', 'gaps.30s_to_2m', 'gaps.2m_to_20m', 'gaps.over_20m']);
  });

  it('refuses what is not one, naming the fix', () => {
    expect(() => expectOption('duplicate_per_1000 <= 5')).toThrow(/^--expect duplicate_per_1000 <= 5: "duplicate_per_1000" is not a reading reconcile gives\. Did you mean duplicates_per_1000\? Name one of: effects, /);
    expect(() => expectOption('constructor <= 5')).toThrow(/is not a reading reconcile gives/);
    expect(() => expectOption('duplicates => 5')).toThrow("--expect duplicates => 5: is not an expectation. Write it as [TOOL:]READING OP VALUE, such as 'duplicates_per_1000 <= 5' (a tool's own: 'refund:duplicates_per_1000 <= 5').");
    expect(() => expectOption('duplicates <= 5%')).toThrow('"5%" is not a number');
    expect(() => expectOption('duplicates <= 1e999')).toThrow('the threshold is a number too large to use');
    expect(() => expectOption(' :duplicates <= 5')).toThrow('names no tool before its colon');
  });
});

describe('an expectations file: expect: as a scenario has it', () => {
  it('each expectation at its line, a tool\'s under expect.tools, confidence ci95 on the one reading with an interval', () => {
    const text = 'expect:\n  confidence: ci95\n  duplicates_per_1000: "<= 100"\n  duplicates: "< 40"\n  tools:\n    refund:\n      gaps.over_20m: {threshold: "== 0"}\n';
    const found = readExpectFile(text, 'gate.yaml');
    expect(found.map((e) => [e.tool, e.metric, e.text, e.confidence, e.origin.line])).toEqual([
      [null, 'duplicates_per_1000', '<= 100', 'ci95', 3],
      [null, 'duplicates', '< 40', 'none', 4],
      ['refund', 'gaps.over_20m', '== 0', 'none', 7],
    ]);
  });

  it('refuses a malformed one at its line, with the fix', () => {
    const refused = (text: string) => { try { readExpectFile(text, 'gate.yaml'); } catch (e) { return (e as Error).message; } return undefined; };
    expect(refused('expect:\n  duplicates: 0\n')).toBe('gate.yaml:2:15, key expect.duplicates: is a number with no operator. Write an operator and a number in quotes, such as duplicates: "== 0".');
    expect(refused('expect:\n  effects: {threshold: "> 5", confidence: ci95}\n')).toBe('gate.yaml:2:31, key expect.effects.confidence: has no effect: effects has no 95% interval (only duplicates_per_1000 has one). Remove confidence for it.');
    expect(refused('expect:\n  tools:\n    refund:\n      duplicate: "== 0"\n')).toMatch(/^gate\.yaml:4:7, key expect\.tools\.refund\.duplicate: "duplicate" is not a reading reconcile gives\. Did you mean duplicates\?/);
    expect(refused('actions: 100\nexpect: {duplicates: "== 0"}\n')).toBe('gate.yaml:1:1, key actions: is not read by reconcile: an expectations file holds expect: alone. Remove it.');
    expect(refused('expect: {}\n')).toMatch(/^gate\.yaml:1:1, key expect: has no expectations\./);
    expect(refused('duplicates: "== 0"\n')).toMatch(/^gate\.yaml:1:1: holds no expect: mapping\. Write the expectations under expect:/);
    expect(refused('expect:\n  duplicates: "== 0"\n  duplicates: "== 1"\n')).toMatch(/gate\.yaml:3/);
  });
});

describe('reconcile --expect on the refunds table', () => {
  it("exits 0 when every expectation passes, 1 when one fails, and says which under the readings", async () => {
    const pass = await reconcile([REFUNDS, '--retention', '10m', '--expect', 'duplicates_per_1000 <= 100', '--expect', 'diagnosis.no_key <= 6']);
    expect([pass.status, pass.stderr]).toEqual([0, '']);
    expect(pass.stdout).toMatch(/\nExpectations\n┌[^]+│ all tools │ diagnosis\.no_key +│ <= 6 +│ +6 │ pass +│\n└[─┴]+┘\nall 2 expectations pass\n$/);
    const fail = await reconcile([REFUNDS, '--retention', '10m', '--expect', 'duplicates_per_1000 <= 50', '--expect', 'all:gaps.under_30s < 20']);
    expect(fail.status).toBe(1);
    expect(fail.stdout).toContain('│ all tools │ duplicates_per_1000 │ <= 50    │ 82.9 (55.5 – 119) │ FAIL   │');
    expect(fail.stdout).toMatch(/1 of 2 expectations fail\n$/);
  });

  it('holds the whole interval with confidence ci95, and fails a tool the rows do not have, saying why', async () => {
    const gate = file('ci95.yaml', 'expect:\n  duplicates_per_1000: {threshold: "<= 110", confidence: ci95}\n  tools:\n    refund: {effects: "> 0"}\n');
    const r = await reconcile([REFUNDS, '--expect-file', gate, '--format', 'json']);
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.overall.duplicates).toBe(29);
    expect(doc.result).toBe('fail');
    expect(doc.expectations).toEqual([
      { tool: null, metric: 'duplicates_per_1000', expected: '<= 110', operator: '<=', threshold: 110, confidence: 'ci95', estimate: 82.8571428571, ci95: [55.4907289644, 118.996678396], checked_interval: [55.4907289644, 118.996678396], pass: false, source: gate, line: 2 },
      { tool: 'refund', metric: 'effects', expected: '> 0', operator: '>', threshold: 0, confidence: 'none', estimate: null, ci95: null, missing: 'no effect of the tool refund: the rows have no tool column (their effects are one tool, all)', pass: false, source: gate, line: 4 },
    ]);
  });

  it('writes the verdicts to standard error beside a CSV, which stays the buckets alone', async () => {
    const r = await reconcile([REFUNDS, '--format', 'csv', '--step', '12h', '--expect', 'duplicates <= 10']);
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe('start,start_ms,tool,effects,duplicates,same_key_after_expiry,same_key,key_per_call_or_attempt,no_key');
    expect(r.stdout).not.toContain('Expectations');
    expect(r.stderr).toMatch(/^Expectations\n[^]+│ all tools │ duplicates │ <= 10 +│ +29 │ FAIL +│\n[^]+the expectation fails\n$/);
  });

  it('writes JUnit XML: a testcase per expectation with what it measured, a failure where it failed', async () => {
    const junit = join(dir, 'gate.xml');
    const r = await reconcile([REFUNDS, '--retention', '10m', '--expect', 'duplicates_per_1000 <= 100', '--expect', 'diagnosis.same_key_after_expiry == 0', '--junit', junit]);
    expect(r.status).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(doc.testsuites).toMatchObject({ name: 'idem-sim reconcile', tests: '2', failures: '1', errors: '0' });
    const cases = doc.testsuites.testsuite.testcase;
    expect(doc.testsuites.testsuite.name).toBe(REFUNDS);
    expect(cases.map((c: { name: string }) => c.name)).toEqual(['duplicates_per_1000 <= 100', 'diagnosis.same_key_after_expiry == 0']);
    expect(cases[0].failure).toBeUndefined();
    expect(cases[1].failure).toMatchObject({ message: 'measured 4, expected == 0' });
    expect(cases[1].properties.property).toEqual({ name: 'diagnosis.same_key_after_expiry', value: '4' });
  });

  it('--format github: an annotation at each failing expectation\'s line, and the summary appended to $GITHUB_STEP_SUMMARY', async () => {
    const gate = file('github.yaml', '# refunds\nexpect:\n  duplicates_per_1000: "<= 100"\n  diagnosis.same_key_after_expiry: "== 0"\n');
    const summary = file('summary.md', '# an earlier step\n');
    const r = await reconcile([REFUNDS, '--retention', '10m', '--expect-file', gate, '--format', 'github'], { GITHUB_STEP_SUMMARY: summary });
    expect(r.status).toBe(1);
    const commands = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(commands).toEqual([`::error file=${gate},line=4,title=idem-sim reconcile%3A diagnosis.same_key_after_expiry == 0::all tools: diagnosis.same_key_after_expiry measured 4, expected == 0 (350 effects reconciled from ${REFUNDS})`]);
    const written = readFileSync(summary, 'utf8');
    expect(written).toMatch(/^# an earlier step\n### idem-sim reconcile: 1 of 2 expectations fail\n\n\| tool \| reading \| expected \| measured \| result \|\n/);
    expect(written).toContain('| all tools | diagnosis.same\\_key\\_after\\_expiry | == 0 | 4 | **FAIL** |');
    expect(written).toContain('350 effects from');
  });

  it('an error that ends the command is in its reports too (exit 2): the JUnit error case, the annotation at the line', async () => {
    const gate = file('bad.yaml', 'expect:\n  duplicates_per_1000: "<= 100"\n  diagnosis.same_key_after_expiry: "== 0"\n');
    const junit = join(dir, 'bad.xml');
    const summary = join(dir, 'bad.md');
    const r = await reconcile([REFUNDS, '--expect-file', gate, '--format', 'github', '--junit', junit, '--summary', summary]);
    const message = `${gate}:3:3, key expect.diagnosis.same_key_after_expiry: diagnosis.same_key_after_expiry is read only with --retention (without it those duplicates count as same_key). Give --retention, the key store's retention, such as --retention 24h.`;
    expect(r).toEqual({ status: 2, stdout: `::error file=${gate},line=3,title=idem-sim reconcile%3A not checked::${message}\n`, stderr: `idem-sim: error: ${message}\n` });
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8'));
    expect(doc.testsuites).toMatchObject({ tests: '1', failures: '0', errors: '1' });
    expect(doc.testsuites.testsuite.testcase.error).toMatchObject({ type: 'bad input', message });
    expect(readFileSync(summary, 'utf8')).toMatch(/^### idem-sim reconcile: not checked\n/);
  });

  it('refuses its reports without expectations, and two reports on standard output', async () => {
    const refused = async (args: string[]) => (await reconcile([REFUNDS, ...args])).stderr;
    expect(await refused(['--junit', join(dir, 'x.xml')])).toBe(`idem-sim: error: --junit: reports on expectations, and none is given. Give --expect 'duplicates_per_1000 <= 5' or --expect-file FILE (docs/reconcile.md, "A gate in CI"), or leave --junit out.\n`);
    expect(await refused(['--format', 'github'])).toMatch(/^idem-sim: error: --format github: reports on expectations, and none is given\./);
    expect(await refused(['--expect', 'duplicates <= 5', '--summary', '-'])).toBe('idem-sim: error: --summary -: the Markdown summary and the report would both go to standard output. Write the report elsewhere with --out FILE, or the Markdown summary with --summary FILE.\n');
    expect(await refused(['--expect', 'diagnosis.same_key_after_expiry == 0'])).toMatch(/^idem-sim: error: --expect: diagnosis\.same_key_after_expiry is read only with --retention/);
  });
});

describe('docs/reconcile.md, "A gate in CI"', () => {
  const doc = readFileSync(join(ROOT, 'docs/reconcile.md'), 'utf8');
  const section = doc.split('## A gate in CI\n')[1]?.split('\n## ')[0] ?? '';

  it('its example of a tool\'s expectations reads as it says', () => {
    const text = section.split('```yaml\n')[1]?.split('```')[0] ?? '';
    expect(readExpectFile(text, 'gate.yaml').map((e) => [e.tool, e.metric, e.text, e.confidence])).toEqual([
      [null, 'duplicates_per_1000', '<= 100', 'ci95'],
      ['refund', 'duplicates_per_1000', '<= 5', 'ci95'],
      ['refund', 'diagnosis.key_per_call_or_attempt', '== 0', 'none'],
    ]);
  });

  it('its file and its run on the refunds table, as the command writes them', async () => {
    const gateText = section.split('`refunds-gate.yaml`:\n\n```yaml\n')[1]?.split('```')[0] ?? '';
    expect(gateText).toContain('expect:');
    const gate = file('refunds-gate.yaml', gateText);
    const [line = '', tail = ''] = (section.split('```text\n$ ')[1]?.split('```')[0] ?? '').split("\n(the readings' table, as above)\n");
    expect(line).toBe('idem-sim reconcile scenarios/effects/refunds.csv --retention 10m --expect-file refunds-gate.yaml --format github');
    const r = await reconcile([REFUNDS, '--retention', '10m', '--expect-file', gate, '--format', 'github']);
    expect(r.status).toBe(1);
    const out = r.stdout.replaceAll(REFUNDS, 'scenarios/effects/refunds.csv').replaceAll(gate, 'refunds-gate.yaml');
    expect(tail).toContain('Expectations');
    expect(out.endsWith(tail), out).toBe(true);
  });
});
