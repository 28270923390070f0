/**
 * A scenario or agent file's name, wherever a command prints it (standard error's lines, size's
 * table, explain's heading, the HTML pages of sweep, report and lab), goes through the one rule
 * of printable text (scenario/printable.ts): a name holding a terminal escape or a line break
 * with a workflow command after it reaches no output as it is (docs/security-and-limits.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { note, say, warn } from '../src/io/streams.js';
import { labSettings, startScenario } from '../src/cli/lab.js';
import { labPage } from '../src/lab/page.js';
import { renderExplainTable } from '../src/report/explain.js';
import { Chalk } from 'chalk';
import { captured } from './command-line.js';

const ESCAPES = 'x\u001b]0;pwn\u0007';
const WORKFLOW = 'm\n::error file=README.md,line=1::forged\n';
/** A line GitHub's runner would read as an annotation on README.md. */
const FORGED = /^::error file=README\.md/m;
const SCENARIO = 'actions: 1000\n';
const GOALS = 'actions: 1000\nexpect:\n  duplicates_per_1000: ">= 0"\n';
const AGENT = 'agent: {calls_per_s: 10}\ndefaults: {actions: 1000}\ntools:\n  - {name: a, share: 0.5}\n  - {name: b, share: 0.5}\n';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-file-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file `name` in the scratch folder, holding `text`. */
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const cli = captured;

/** What `write` wrote to a standard error. */
function stderrOf(write: (io: { stderr: NodeJS.WritableStream }) => void): string {
  let said = '';
  write({ stderr: { write: (s: string) => { said += s; return true; } } as unknown as NodeJS.WritableStream });
  return said;
}

describe('standard error: every line made printable', () => {
  it('check: a file skipped for having no expect: block is named printable, with --format github too', async () => {
    const ok = file('ok.yaml', GOALS);
    const escapes = file(`${ESCAPES}.yaml`, SCENARIO);
    const workflow = file(`${WORKFLOW}.yaml`, SCENARIO);
    for (const format of ['table', 'github']) {
      const r = await cli(['check', ok, escapes, workflow, '--format', format]);
      expect(r.status, format).toBe(0);
      expect(r.stderr).toContain(`idem-sim: skipped ${dir}/x\\u001b]0;pwn\\u0007.yaml: it has no expect: block\n`);
      expect(r.stderr).toContain(`idem-sim: skipped ${dir}/m\\u000a::error file=README.md,line=1::forged\\u000a.yaml: it has no expect: block\n`);
      expect(r.stderr).not.toContain('\u001b');
      expect(r.stderr, format).not.toMatch(FORGED);
      expect(r.stdout, format).not.toMatch(FORGED);
    }
  });

  it('warnings and notes: one line each, whatever text they quote', () => {
    expect(stderrOf((io) => warn(io, `${WORKFLOW} has no effect`))).toBe('idem-sim: warning: m\\u000a::error file=README.md,line=1::forged\\u000a has no effect\n');
    expect(stderrOf((io) => note(io, `${ESCAPES} runs on`))).toBe('idem-sim: note: x\\u001b]0;pwn\\u0007 runs on\n');
    expect(stderrOf((io) => say(io, 'plain ümlaut, 日本'))).toBe('idem-sim: plain ümlaut, 日本\n');
  });
});

describe('standard output', () => {
  it('size: the table\'s source names the file printable', async () => {
    for (const name of [ESCAPES, WORKFLOW]) {
      const r = await cli(['size', file(`${name}.yaml`, 'actions: 1000\nidempotency: {scope: intent}\n')]);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^keys per action .*\(simulated: .*\.yaml, 1,000 actions, seed 1\)$/m);
      expect(r.stdout).not.toContain('\u001b');
      expect(r.stdout).not.toMatch(FORGED);
    }
  });

  it('explain: a heading of words, so no file\'s name begins a line (a file named as a workflow command, in the current directory)', () => {
    const table = renderExplainTable({ file: '::error file=README.md,line=1::forged.yaml', scenarios: [{ name: 'forged', keys: [], labDefaults: [] }] }, new Chalk({ level: 0 }));
    expect(table.split('\n')[0]).toBe('scenario ::error file=README.md,line=1::forged.yaml');
    expect(table).not.toMatch(/^::/m);
    expect(renderExplainTable({ file: null, scenarios: [{ name: 'lab-defaults', keys: [], labDefaults: [] }] }, new Chalk({ level: 0 })).split('\n')[0]).toBe('the built-in lab defaults');
  });
});

describe('HTML pages: a file\'s name printable first (escapeHtml keeps line breaks, for <pre>)', () => {
  it('sweep --format html: the title, the heading and the scenario fact', async () => {
    const r = await cli(['sweep', file(`${WORKFLOW}s.yaml`, SCENARIO), '--vary', 'client.retries=1,2', '--format', 'html']);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(FORGED);
    expect(r.stdout).toMatch(/<title>idem-sim sweep \S*m\\u000a::error file=README\.md,line=1::forged\\u000as\.yaml<\/title>/);
    expect(r.stdout).toMatch(/<h1>Sweep of \S*m\\u000a::error/);
  });

  it('report of an agent file: the file fact', async () => {
    const r = await cli(['report', file(`${WORKFLOW}a.yaml`, AGENT)]);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(FORGED);
    expect(r.stdout).toMatch(/<dt>file<\/dt><dd><code>\S*m\\u000a::error file=README\.md,line=1::forged\\u000aa\.yaml<\/code><\/dd>/);
  });

  it('lab --tool: the note of the tool the page starts from', async () => {
    const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
    const start = await startScenario(file(`${WORKFLOW}l.yaml`, AGENT), labSettings({ tool: 'a' }), io);
    const page = labPage({ version: '0', start, missions: [] }, { engine: '', ui: '' });
    expect(page).not.toMatch(FORGED);
    expect(page).toMatch(/id="tool-note">.*<code>\S*m\\u000a::error file=README\.md,line=1::forged\\u000al\.yaml<\/code>/);
  });
});
