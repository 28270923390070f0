/**
 * The CI gate in-process: `check` with an invalid file among valid ones (JUnit error case, JSON
 * errors, exit 2), the measured values in JUnit and JSON, the seed in check's replay line; and
 * the terminal rules of report (a file instead of markup on a terminal) and --threads (capped
 * at the cores). Through the real binary: check-gate.e2e.test.ts, report-threads.e2e.test.ts.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import type { Io } from '../src/io/streams.js';
import { main } from '../src/cli/main.js';
import { threadsOption, threadsUsed } from '../src/cli/options.js';
import { renderCheckJson } from '../src/report/check-json.js';
import { renderJunit } from '../src/report/junit.js';
import type { CheckReport } from '../src/report/types.js';
import { terminalDefault } from '../src/io/output.js';
import { check } from '../src/scenario/expect.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario } from '../src/scenario/parse.js';
import { removeScratch, scratch, sim } from './helpers.js';

afterEach(removeScratch);

/** Streams that keep what is written; `tty` makes standard output a terminal. */
function capture(tty = false): Io & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const stream = (add: (s: string) => void) => ({ write: (s: string | Uint8Array) => { add(String(s)); return true; } }) as unknown as NodeJS.WritableStream;
  return {
    stdout: Object.assign(stream((s) => { out += s; }), { isTTY: tty }),
    stderr: stream((s) => { err += s; }),
    env: { NO_COLOR: '1' },
    out: () => out,
    err: () => err,
  };
}

const run = async (args: string[], io = capture()) => ({ status: await main(['node', 'idem-sim', ...args], io), stdout: io.out(), stderr: io.err() });

const GOOD = 'actions: 2000\nidempotency: {scope: intent}\nexpect:\n  duplicates_per_1000: "== 0"\n  attempts_per_action: "< 2"\n';
const BAD = 'actions: 2000\nidempotency: {scope: intnt}\nexpect: {duplicates_per_1000: "== 0"}\n';

/** A report made from a real run: one pass, one fail, one invalid file. */
function report(): CheckReport {
  const parsed = parseScenario('expect:\n  lost_per_1000: "== 0"\n  duplicates_per_1000: "<= 0.5"\n', 'a.yaml');
  const m = sim('', 4000);
  return {
    checked: [{ name: 'a', file: 'a.yaml', seed: '1', actions: m.actions, warnings: [], verdicts: parsed.expectations.map((e) => check(e, m)), coupled: false }],
    errors: [{ name: 'bad', file: 'bad.yaml', message: 'bad.yaml:2:20, key idempotency.scope: "intnt" is not one of the allowed values. Did you mean `intent`?', source: 'bad.yaml', line: 2, key: 'idempotency.scope' }],
    skipped: [],
  };
}

describe('check: JUnit', () => {
  it('an invalid file is an error case; every case carries its measured value and interval', () => {
    const r = report();
    const xml = renderJunit(r, '0.1.0');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml).testsuites;
    expect(doc).toMatchObject({ '@_tests': '3', '@_failures': '1', '@_errors': '1' });
    const [suite, invalid] = doc.testsuite;
    expect(invalid.testcase.error['@_message']).toContain('key idempotency.scope');
    expect(invalid['@_errors']).toBe('1');
    const [lost, dups] = suite.testcase;
    expect(lost.properties.property).toContainEqual({ '@_name': 'lost_per_1000', '@_value': '0' });
    const dupValue = r.checked[0]!.verdicts[1]!.measured.value!;
    expect(dups.properties.property).toContainEqual({ '@_name': 'duplicates_per_1000', '@_value': String(Number(dupValue.toPrecision(12))) });
    expect(dups.properties.property.map((p: { '@_name': string }) => p['@_name'])).toContain('duplicates_per_1000.ci95_high');
    expect(dups.failure['@_message']).toMatch(/^measured [\d.]+ ± [\d.]+, expected <= 0.5$/);
    expect(lost['system-out']).toMatch(/^measured 0\b.*, expected == 0: pass$/); // a zero may carry its rule-of-three bound
  });
});

describe('check: JSON', () => {
  it('per scenario each expectation with metric, threshold, estimate, CI and verdict; errors; tool, version, seed, replay', () => {
    const doc = JSON.parse(renderCheckJson(report(), { version: '0.1.0', replay: 'idem-sim check a.yaml bad.yaml --seed 1 --json' }, undefined));
    expect(doc).toMatchObject({ tool: 'idem-sim', version: '0.1.0', seed: '1', result: 'error', replay: 'idem-sim check a.yaml bad.yaml --seed 1 --json' });
    expect(doc.summary).toEqual({ expectations: 2, failed: 1, scenarios: 1, invalid: 1, skipped: 0 });
    const [lost, dups] = doc.scenarios[0].expectations;
    expect(lost).toMatchObject({ metric: 'lost_per_1000', expected: '== 0', operator: '==', threshold: 0, estimate: 0, pass: true, source: 'a.yaml', line: 2 });
    expect(dups.pass).toBe(false);
    expect(dups.ci95[0]).toBeLessThan(dups.estimate);
    expect(doc.errors[0]).toMatchObject({ file: 'bad.yaml', line: 2, key: 'idempotency.scope' });
  });
});

describe('check with an invalid file among valid ones', () => {
  it('checks the valid one, writes JUnit with an error case and exits 2; --json says the same', async () => {
    const dir = scratch();
    const [a, bad, junit] = ['a.yaml', 'bad.yaml', 'j.xml'].map((f) => join(dir, f)) as [string, string, string];
    writeFileSync(a, GOOD);
    writeFileSync(bad, BAD);
    const r = await run(['check', a, bad, '--junit', junit]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('key idempotency.scope: "intnt" is not one of the allowed values');
    expect(r.stdout).toContain('all 2 expectations pass');
    expect(r.stdout).toContain(`1 scenario file is invalid, not checked (its error is on standard error): ${bad}`);
    expect(r.stdout).toContain(`replay: idem-sim check ${a} ${bad} --seed 1\n`);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('errors="1"');
    expect(xml).toContain('<error type="invalid scenario"');
    const json = await run(['check', a, bad, '--json']);
    expect(json.status).toBe(2);
    const doc = JSON.parse(json.stdout);
    expect(doc.result).toBe('error');
    expect(doc.scenarios[0].expectations.map((e: { pass: boolean }) => e.pass)).toEqual([true, true]);
    expect(doc.replay).toBe(`idem-sim check ${a} ${bad} --seed 1 --json`);
  });

  it('all files invalid: still a JUnit file (errors only) and exit 2; an error in the command line writes none', async () => {
    const dir = scratch();
    const [bad, junit] = [join(dir, 'bad.yaml'), join(dir, 'j.xml')];
    writeFileSync(bad, BAD);
    expect((await run(['check', bad, join(dir, 'missing.yaml'), '--junit', junit])).status).toBe(2);
    expect(readFileSync(junit, 'utf8').match(/<error /g)).toHaveLength(2);
    const other = join(dir, 'k.xml');
    const r = await run(['check', bad, '--set', 'nope', '--junit', other]);
    expect(r.status).toBe(2);
    expect(() => readFileSync(other)).toThrow();
  });
});

describe('warnings of expectations', () => {
  it('check says them (and lists them in its JSON); run, which checks none, neither says nor writes them', async () => {
    const dir = scratch();
    const file = join(dir, 'gate.yaml');
    writeFileSync(file, 'actions: 500\nexpect:\n  confidence: ci95\n  lost_per_1000: "== 0"\n');
    const checked = await run(['check', file, '--json']);
    expect(checked.status).toBe(1); // "== 0" under ci95 fails, as the warning says
    expect(checked.stderr).toMatch(/key expect\.lost_per_1000: "== 0" under confidence ci95 \(the expect block's\)/);
    expect(JSON.parse(checked.stdout).scenarios[0].warnings).toHaveLength(1);
    const ran = await run(['run', file, '--json']);
    expect(ran.status).toBe(0);
    expect(ran.stderr).not.toMatch(/warning/);
    expect(JSON.parse(ran.stdout).results[0].warnings).toEqual([]);
  });
});

describe('report on a terminal', () => {
  const ours = (head: string) => head.startsWith('<!doctype html>');
  it('a pipe or --out: no default file; a terminal: the file, replacing only one idem-sim wrote', () => {
    const dir = scratch();
    const page = join(dir, 'report.html');
    expect(terminalDefault(capture(false), undefined, page, ours)).toBeUndefined();
    expect(terminalDefault(capture(true), '-', page, ours)).toBeUndefined();
    const io = capture(true);
    const fresh = terminalDefault(io, undefined, page, ours);
    expect(fresh?.path).toBe(page);
    fresh?.announce('x'.repeat(88_000));
    expect(io.err()).toContain(`wrote ${page} (86 KB) because standard output is a terminal`);
    writeFileSync(page, '<!doctype html>\n<title>idem-sim report: x</title>');
    const again = capture(true);
    terminalDefault(again, undefined, page, ours)?.announce('x');
    expect(again.err()).toContain('replacing an earlier one idem-sim wrote');
    writeFileSync(page, 'my own notes');
    expect(() => terminalDefault(capture(true), undefined, page, ours)).toThrow(/not written by idem-sim and is not replaced\. Give --out FILE/);
    const link = join(dir, 'linked.html');
    symlinkSync(page, link);
    expect(() => terminalDefault(capture(true), undefined, link, () => true)).toThrow(InputError);
  });
});

describe('--threads', () => {
  it('above the cores: capped at the cores, with a warning that says what it used', () => {
    const io = capture();
    expect(threadsUsed(threadsOption('16', 4), io)).toBe(4);
    expect(io.err()).toContain("--threads 16 is more than this machine's 4 cores: using 4 threads");
    const quiet = capture();
    expect(threadsUsed(threadsOption('4', 4), quiet)).toBe(4);
    expect(quiet.err()).toBe('');
    expect(() => threadsOption('17', 4)).toThrow(/over the limit of 16/);
  });
});
