/**
 * A promtool test and the rule file it reads, a pair (docs/prometheus-rules.md, cli/alerts-rules.ts):
 * the rules written beside the test by the same command, both files or neither; a --rules FILE
 * refused unless it is where promtool will read it (relative to the test file) and holds the rules
 * this command makes. promtool runs the pair in test/alerts.services.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { besideTest, rulesBeside, rulesDiffer, sha256 } from '../src/report/promtool-rules.js';
import { PendingOutput } from '../src/io/outputs.js';
import { yamlPath } from '../src/report/promtool-test.js';
import { InputError } from '../src/scenario/errors.js';
import { command } from './command-line.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-alert-pair-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Five minutes at 20/s: a small run, one alert. */
const SCENARIO = 'load: {rate_per_s: 20, duration: 5m}\nalerts:\n  - {name: busy, metric: attempts, above: 15, for: 0m}\n';

/** A fresh folder holding s.yaml. */
function folder(): string {
  const d = mkdtempSync(join(dir, 'case-'));
  writeFileSync(join(d, 's.yaml'), SCENARIO);
  return d;
}

/** `idem-sim alerts ARGS...` in this process: its status, standard output and error, or the InputError's message. */
async function alerts(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string; error?: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const said = { stdout: '', stderr: '' };
  stdout.on('data', (c: Buffer) => { said.stdout += c.toString('utf8'); });
  stderr.on('data', (c: Buffer) => { said.stderr += c.toString('utf8'); });
  try {
    const code = await command(['alerts', ...args], { stdout, stderr, env: {} });
    return { code, ...said };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { code: 2, ...said, error: e.message };
  }
}

describe('the rule file beside the test: its name', () => {
  it('x.test.yaml reads x.rules.yaml; any other name gains .rules before its YAML extension, or .rules.yaml', () => {
    expect(['a/incident.test.yaml', 'test.yml', 'x.TEST.YML', 'checks', 'a.b.yaml', '.test.yaml'].map(rulesBeside))
      .toEqual(['incident.rules.yaml', 'test.rules.yml', 'x.rules.YML', 'checks.rules.yaml', 'a.b.rules.yaml', '.rules.yaml']);
  });

  it('a rule file a test names is found relative to the test file, as promtool finds it (standard output: the current directory)', () => {
    expect([besideTest('out/t.yaml', 'r.yaml'), besideTest('out/t.yaml', '../r.yaml'), besideTest('t.yaml', 'r.yaml'), besideTest(undefined, 'r.yaml'), besideTest('out/t.yaml', '/etc/r.yaml')])
      .toEqual(['out/r.yaml', 'r.yaml', 'r.yaml', 'r.yaml', '/etc/r.yaml']);
  });
});

describe('two rule files compared as rules', () => {
  const ours = '# written by idem-sim 1\ngroups:\n  - name: "g"\n    interval: 1m\n    rules:\n      - alert: "busy"\n        expr: \'sum(x) > 1\'\n      - alert: "quiet"\n        expr: \'sum(y) > 2\'\n';

  it('comments, blank lines, trailing spaces and CRLF aside, they are the same', () => {
    expect(rulesDiffer(ours, ours)).toBeUndefined();
    expect(rulesDiffer(`# kept by ops\n\n${ours.replace('# written by idem-sim 1', '# written by idem-sim 2').replaceAll('\n', '  \r\n')}`, ours)).toBeUndefined();
  });

  it('names where they part by line, key and alert, quoting neither file', () => {
    expect(rulesDiffer(ours.replace('sum(y) > 2', 'sum(y) > 3'), ours)).toBe('its line 9 is not the expr: line of alert "quiet"');
    expect(rulesDiffer(ours.replace('interval: 1m', 'interval: 30s'), ours)).toBe('its line 4 is not the group\'s interval: line');
    expect(rulesDiffer(ours.split('\n').slice(0, 7).join('\n'), ours)).toBe('it ends at its line 7, before the alert: line of alert "quiet"');
    expect(rulesDiffer(`${ours}      - alert: "more"\n`, ours)).toBe('its line 10 goes on past the end of those rules');
    expect(rulesDiffer('SECRET=1\n', ours)).toBe('its line 1 is not the group\'s groups: line');
    expect(rulesDiffer('# nothing\n', ours)).toBe('it holds no rules (the group\'s groups: line first)');
  });
});

describe('alerts --format promtool-test --out FILE writes the rules beside it', () => {
  it('the test names the rule file written with it, and its SHA-256; the rules are those --format prometheus writes', async () => {
    const d = folder();
    const r = await alerts([join(d, 's.yaml'), '--format', 'promtool-test', '--label', 'tool=refund', '--out', join(d, 's.test.yaml')]);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toBe(`idem-sim: wrote the rules the test reads beside it, to ${join(d, 's.rules.yaml')}; promtool test rules ${join(d, 's.test.yaml')} runs them (--rules FILE tests a rule file you keep instead)\n`);
    const test = readFileSync(join(d, 's.test.yaml'), 'utf8');
    const rules = readFileSync(join(d, 's.rules.yaml'), 'utf8');
    expect(test).toContain('\nrule_files:\n  - "s.rules.yaml"\n');
    expect(test).toContain(`# The rule file's SHA-256 when this test was written: ${sha256(rules)} (sha256sum shows whether it has changed since).\n`);
    expect(test).toContain(`--format promtool-test --out ${join(d, 's.test.yaml')}\n`);
    expect(await alerts([join(d, 's.yaml'), '--format', 'prometheus', '--label', 'tool=refund', '--out', join(d, 'deployed.yaml')])).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(d, 'deployed.yaml'), 'utf8')).toBe(rules);
    expect(readdirSync(d).sort()).toEqual(['deployed.yaml', 's.rules.yaml', 's.test.yaml', 's.yaml']);
  });

  it('replaces a rule file idem-sim wrote there, saying so when its rules were others; refuses any other file, and writes nothing', async () => {
    const d = folder();
    const run = (...more: string[]) => alerts([join(d, 's.yaml'), '--format', 'promtool-test', ...more, '--out', join(d, 's.test.yaml')]);
    expect((await run()).code).toBe(0);
    expect((await run()).stderr).not.toContain('replacing');
    expect((await run('--label', 'tool=refund')).stderr).toContain(`to ${join(d, 's.rules.yaml')}, replacing one idem-sim wrote with other rules; `);
    const other = folder();
    writeFileSync(join(other, 's.rules.yaml'), 'groups: []\n');
    const r = await alerts([join(other, 's.yaml'), '--format', 'promtool-test', '--out', join(other, 's.test.yaml')]);
    expect(r.error).toBe(`--out ${join(other, 's.test.yaml')}: the rules the test reads are written beside it, to ${join(other, 's.rules.yaml')}, but that file was not written by idem-sim and is not replaced. Give --rules s.rules.yaml to test that file as it is (it must hold the rules this command makes), or give --out another name.`);
    expect(readdirSync(other).sort()).toEqual(['s.rules.yaml', 's.yaml']);
    expect(readFileSync(join(other, 's.rules.yaml'), 'utf8')).toBe('groups: []\n');
  });

  it('never writes the rules over a file the run reads, even one that begins as idem-sim\'s rules do', async () => {
    const d = folder();
    writeFileSync(join(d, 't.rules.yaml'), '# Prometheus alerting rules written by idem-sim 0.1.0 (docs/prometheus-rules.md)\nload: {rate_per_s: 20}\n');
    writeFileSync(join(d, 'child.yaml'), `extends: t.rules.yaml\n${SCENARIO.replace('load: {rate_per_s: 20, duration: 5m}\n', 'load: {duration: 5m}\n')}`);
    const r = await alerts([join(d, 'child.yaml'), '--format', 'promtool-test', '--out', join(d, 't.test.yaml')]);
    expect(r.error).toMatch(/^--out .*t\.rules\.yaml: .*t\.rules\.yaml is the base scenario file .*t\.rules\.yaml \(extends: in .*child\.yaml\), one of this run's inputs, and would be overwritten\. /);
    expect(readdirSync(d).sort()).toEqual(['child.yaml', 's.yaml', 't.rules.yaml']);
  });

  it('in a directory whose path promtool would read as a pattern (*, ?, [, \\): refused, with or without --rules, and nothing written', async () => {
    const d = folder();
    const glob = join(d, 'gl[o]b*');
    mkdirSync(glob);
    const test = join(glob, 'a*[b]?.test.yaml');
    const fix = `Write the test into a directory whose path holds none of them (the file's own name may: the rule file's name is escaped), or run idem-sim and promtool from inside that directory, with --out 'a*[b]?.test.yaml'; or name a rule file you keep by its absolute path (--rules /PATH/TO/RULES.yaml), which promtool reads as it is.`;
    for (const rules of [[], ['--rules', 'kept.yaml']]) {
      const r = await alerts([join(d, 's.yaml'), '--format', 'promtool-test', ...rules, '--out', test]);
      expect(r.error).toBe(`--out ${test}: promtool finds the rule file a test names by joining the name to the test file's directory, ${glob}, and reading the whole as a pattern, and that directory holds *, ?, [ or \\, which the pattern reads as its own, not as the directory's: the test would find no rule file (promtool only warns, no file match pattern) and every alert it expects would be missing. ${fix}`);
    }
    expect(readdirSync(glob)).toEqual([]);
    // A backslash is one of them; the file's own name may hold any (a[1] * is tested with promtool in alerts.services.test.ts).
    mkdirSync(join(d, 'back\\slash'));
    expect((await alerts([join(d, 's.yaml'), '--format', 'promtool-test', '--out', join(d, 'back\\slash', 't.yaml')])).error).toMatch(/^--out .*: promtool finds the rule file/);
    expect(await alerts([join(d, 's.yaml'), '--format', 'promtool-test', '--out', join(d, 'a*[b]?.test.yaml')])).toMatchObject({ code: 0, stdout: '' });
  });

  it('names a rule file whose name holds a line break as it is: rule_files reads back as the file written, and the test holds no control character', async () => {
    const d = folder();
    const r = await alerts([join(d, 's.yaml'), '--format', 'promtool-test', '--out', join(d, 't.test.yaml\nx')]);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toContain(`to ${join(d, 't.test.yaml\\u000ax.rules.yaml')}; promtool test rules $'${join(d, 't.test.yaml\\x0ax')}' runs them`);
    expect(readdirSync(d).sort()).toEqual(['s.yaml', 't.test.yaml\nx', 't.test.yaml\nx.rules.yaml']);
    const test = readFileSync(join(d, 't.test.yaml\nx'), 'utf8');
    expect((parse(test) as { rule_files: string[] }).rule_files).toEqual(['t.test.yaml\nx.rules.yaml']);
    expect(test).toContain('\nrule_files:\n  - "t.test.yaml\\nx.rules.yaml"\n');
    expect(test).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(yamlPath('a\u2028b\u001b"c')).toBe('"a\\u2028b\\u001b\\"c"');
    expect(parse(yamlPath('a\u2028b\u202e\u0085\u001b"c\\'))).toBe('a\u2028b\u202e\u0085\u001b"c\\');
  });

  it('a test on standard output has no directory for its rules: refused without --rules, with the fix', async () => {
    const d = folder();
    for (const out of [[], ['--out', '-']]) {
      const r = await alerts([join(d, 's.yaml'), '--format', 'promtool-test', ...out]);
      expect(r.error).toBe(`${out.length > 0 ? '--out -' : '--format promtool-test'}: a promtool test reads its rule file from beside it, so the command writes the two together, and a test written to standard output, a device or a pipe has no directory to write the rules to. Give --out FILE (--out SCENARIO.test.yaml writes the rules beside it, as SCENARIO.rules.yaml), or --rules FILE to name a rule file you keep (read from the current directory, where a test on standard output is taken to be saved).`);
      expect(r.stdout).toBe('');
    }
  });
});

describe('alerts --format promtool-test --rules FILE: a rule file you keep', () => {
  it('is read relative to the test file, and the test names it so; only the test is written', async () => {
    const d = folder();
    mkdirSync(join(d, 'tests'));
    await alerts([join(d, 's.yaml'), '--format', 'prometheus', '--out', join(d, 'kept.yaml')]);
    const r = await alerts([join(d, 's.yaml'), '--format', 'promtool-test', '--rules', '../kept.yaml', '--out', join(d, 'tests', 't.yaml')]);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const test = readFileSync(join(d, 'tests', 't.yaml'), 'utf8');
    expect(test).toContain('\nrule_files:\n  - "../kept.yaml"\n');
    expect(test).toContain(`SHA-256 when this test was written: ${sha256(readFileSync(join(d, 'kept.yaml'), 'utf8'))} `);
    expect(readdirSync(join(d, 'tests'))).toEqual(['t.yaml']);
    // On standard output, relative to the current directory: an absolute path is read as it is.
    expect((await alerts([join(d, 's.yaml'), '--format', 'promtool-test', '--rules', join(d, 'kept.yaml')])).stdout).toContain(`rule_files:\n  - "${join(d, 'kept.yaml')}"\n`);
  });

  it('is refused where the test would not find it (relative to the test file, not the current directory), with the command that writes it there', async () => {
    const d = folder();
    mkdirSync(join(d, 'tests'));
    await alerts([join(d, 's.yaml'), '--format', 'prometheus', '--out', join(d, 'kept.yaml')]);
    const r = await alerts([join(d, 's.yaml'), '--format', 'promtool-test', '--label', 'tool=refund', '--rules', 'kept.yaml', '--out', join(d, 'tests', 't.yaml')]);
    expect(r.error).toBe(`--rules kept.yaml: promtool reads a test's rule file relative to the test file, so the test would read ${join(d, 'tests', 'kept.yaml')}, relative to the test file's directory, and there is no file there. Write them there with this test's options: idem-sim alerts ${join(d, 's.yaml')} --label tool=refund --format prometheus --out ${join(d, 'tests', 'kept.yaml')}; or leave --rules out, and the command writes the rules beside the test.`);
    expect(readdirSync(join(d, 'tests'))).toEqual([]);
  });

  it('is refused when it holds other rules than these options make (another --label), naming where without quoting it', async () => {
    const d = folder();
    await alerts([join(d, 's.yaml'), '--format', 'prometheus', '--out', join(d, 'kept.yaml')]);
    const r = await alerts([join(d, 's.yaml'), '--format', 'promtool-test', '--label', 'tool=refund', '--rules', 'kept.yaml', '--out', join(d, 't.yaml')]);
    expect(r.error).toBe(`--rules kept.yaml: ${join(d, 'kept.yaml')} does not hold the rules this command makes for the scenario: its line 8 is not the expr: line of alert "busy". Write them there with this test's options: idem-sim alerts ${join(d, 's.yaml')} --label tool=refund --format prometheus --out ${join(d, 'kept.yaml')}; or leave --rules out, and the command writes the rules beside the test.`);
    expect(readdirSync(d).sort()).toEqual(['kept.yaml', 's.yaml']);
  });

  it('is refused when it is the test file itself, which would overwrite it', async () => {
    const d = folder();
    await alerts([join(d, 's.yaml'), '--format', 'prometheus', '--out', join(d, 'r.yaml')]);
    const r = await alerts([join(d, 's.yaml'), '--format', 'promtool-test', '--rules', 'r.yaml', '--out', join(d, 'r.yaml')]);
    expect(r.error).toBe(`--out ${join(d, 'r.yaml')}: ${join(d, 'r.yaml')} is the rule file --rules names, one of this run's inputs, and would be overwritten. Choose another path with --out.`);
    expect(readFileSync(join(d, 'r.yaml'), 'utf8')).toMatch(/^# Prometheus alerting rules/);
  });
});

describe('two outputs written together: both or neither', () => {
  it('a rename that fails undoes the one before it, putting back the file it replaced, and leaves no temporary file', () => {
    const d = mkdtempSync(join(dir, 'together-'));
    writeFileSync(join(d, 'a.yaml'), 'old\n');
    const a = new PendingOutput(join(d, 'a.yaml'));
    const b = new PendingOutput(join(d, 'b.yaml'));
    mkdirSync(join(d, 'b.yaml')); // b's rename now fails: a directory is there
    expect(() => PendingOutput.commitTogether([[a, 'new a\n'], [b, 'new b\n']])).toThrow(/^--out .*b\.yaml: cannot write .*b\.yaml \(/);
    expect(readFileSync(join(d, 'a.yaml'), 'utf8')).toBe('old\n');
    expect(readdirSync(d).sort()).toEqual(['a.yaml', 'b.yaml']);
    const c = new PendingOutput(join(d, 'c.yaml'));
    const e = new PendingOutput(join(d, 'e.yaml'));
    mkdirSync(join(d, 'e.yaml'));
    expect(() => PendingOutput.commitTogether([[c, 'c\n'], [e, 'e\n']])).toThrow(InputError);
    expect(existsSync(join(d, 'c.yaml'))).toBe(false); // a new file is removed
    expect(readdirSync(d).sort()).toEqual(['a.yaml', 'b.yaml', 'e.yaml']);
  });

  it('writes both when both can be written', () => {
    const d = mkdtempSync(join(dir, 'together-'));
    writeFileSync(join(d, 'a.yaml'), 'old\n');
    PendingOutput.commitTogether([[new PendingOutput(join(d, 'a.yaml')), 'new a\n'], [new PendingOutput(join(d, 'b.yaml')), 'new b\n']]);
    expect([readFileSync(join(d, 'a.yaml'), 'utf8'), readFileSync(join(d, 'b.yaml'), 'utf8')]).toEqual(['new a\n', 'new b\n']);
    expect(readdirSync(d).sort()).toEqual(['a.yaml', 'b.yaml']);
  });
});
