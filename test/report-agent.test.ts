/**
 * `idem-sim report AGENT.yaml` in this process (docs/reports.md, "An agent"): the agent's page
 * holds `run`'s agent table cell for cell, the warnings `run` gives, each tool's annotations and
 * headline; `--tool NAME` is that tool's full page on its own seed; what is not supported is
 * refused in one paragraph. The fixture's tools run 4,000 actions each, on one thread.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { command } from './command-line.js';
import { ROOT, withoutNotes } from './helpers.js';

const AGENT = join(ROOT, 'test/fixtures/agent-report/small-agent.yaml');
const dir = mkdtempSync(join(tmpdir(), 'idem-sim-report-agent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `idem-sim ARGS` here: its status, standard output and standard error. */
async function idem(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  stdout.on('data', (c: Buffer) => chunks.out.push(c));
  stderr.on('data', (c: Buffer) => chunks.err.push(c));
  const code = await command(args, { stdout, stderr, env: { NO_COLOR: '1' } } as never);
  return { code, stdout: Buffer.concat(chunks.out).toString('utf8'), stderr: Buffer.concat(chunks.err).toString('utf8') };
}

const unescape = (t: string) => t.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The cells of a table of the page, by its id: one array per row, header first. */
function tableCells(html: string, id: string): string[][] {
  const table = html.slice(html.indexOf(`<table class="data agent" id="${id}">`), html.indexOf('</table>', html.indexOf(`id="${id}"`)));
  return [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) => [...(row[1] as string).matchAll(/<t[hd]>(.*?)<\/t[hd]>/g)].map((c) => unescape(c[1] as string)));
}

/** The rows of `run`'s agent table in its terminal text: label, tools' cells, the agent's. */
function runTableCells(text: string): string[][] {
  const from = text.indexOf('Agent small-agent\n');
  return text.slice(from).split('\n').filter((l) => l.startsWith('│')).map((l) => l.slice(1, -1).split('│').map((c) => c.trim()));
}

describe('report of an agent file', async () => {
  const page = join(dir, 'agent.html');
  const report = await idem(['report', AGENT, '--threads', '1', '--out', page]);
  const html = readFileSync(page, 'utf8');
  const run = await idem(['run', AGENT, '--threads', '1']);

  it('writes the page and warns as run does', () => {
    expect(report.code).toBe(0);
    expect(report.stderr).toBe(run.stderr);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>idem-sim report: small-agent</title>');
  });

  it('holds run\'s agent table, cell for cell (the same AgentRun)', () => {
    const expected = runTableCells(run.stdout);
    expect(expected.length).toBe(12);
    expect(tableCells(html, 'agent-readings')).toEqual(expected);
  });

  it('lists every warning run gives, the lying hint among them', () => {
    const warnings = withoutNotes(run.stderr).trim().split('\n').map((l) => l.replace(/^idem-sim: warning: /, ''));
    expect(warnings.some((w) => w.includes('(a lying hint)'))).toBe(true);
    const listed = [...html.matchAll(/<li>(.*?)<\/li>/g)].map((m) => unescape(m[1] as string));
    expect(listed).toEqual(warnings);
  });

  it('gives each tool\'s annotations, whether the client retries it and its costs', () => {
    expect(tableCells(html, 'agent-tools')).toEqual([
      ['tool', 'share', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint', 'retried by the client', 'a duplicate costs', 'a lost action costs'],
      ['charge_card', '0.4', 'false', 'true', 'false', 'true', 'no', '25 EUR', '1 note'],
      ['post_note', '0.6', 'false', 'false', 'true', 'true', 'yes', '1 note', '–'],
    ]);
  });

  it('gives each tool its headline, its duplicates by source and the command of its full page', () => {
    const sections = html.match(/<section class="tool" data-tool="[^"]+">/g) ?? [];
    expect(sections).toEqual(['<section class="tool" data-tool="charge_card">', '<section class="tool" data-tool="post_note">']);
    expect(html.match(/<table class="headline">/g)).toHaveLength(2);
    expect(html.match(/<figure><svg/g)).toHaveLength(2);
    expect(html).toContain(`<code>idem-sim report ${AGENT} --tool post_note --seed report-1</code>`);
    expect(html).toContain(`<code>idem-sim report ${AGENT} --seed report-1</code>`);
  });

  it('fetches nothing: the only URLs are SVG namespace names', () => {
    const urls = html.match(/(?:https?:)?\/\/[\w.-]+\.[a-z]{2,}[^\s"'<>)]*/g) ?? [];
    expect(urls.filter((u) => !u.startsWith('http://www.w3.org/'))).toEqual([]);
  });

  it('--tool NAME: that tool\'s full page, with the numbers of its section on the agent\'s page', async () => {
    const toolPage = join(dir, 'tool.html');
    const r = await idem(['report', AGENT, '--tool', 'post_note', '--threads', '1', '--out', toolPage]);
    expect(r.code).toBe(0);
    const tool = readFileSync(toolPage, 'utf8');
    expect(tool).toContain('<h1>idem-sim report: small-agent.post_note</h1>');
    expect(tool).toContain('<dt>seed</dt><dd><code>report-1/post_note</code></dd>');
    expect(tool).toContain(`<dd><code>idem-sim report ${AGENT} --tool post_note --seed report-1</code></dd>`);
    const section = html.slice(html.indexOf('data-tool="post_note"'));
    const headline = (text: string) => text.slice(text.indexOf('<table class="headline">'), text.indexOf('</table>', text.indexOf('<table class="headline">')));
    expect(headline(tool)).toBe(headline(section));
    expect(tool).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="timeline"');
  });

  it('escapes what the file says: a description with markup and a bidirectional override', async () => {
    copyFileSync(join(ROOT, 'test/fixtures/agent-report/note-base.yaml'), join(dir, 'note-base.yaml'));
    const hostile = join(dir, 'hostile.yaml');
    writeFileSync(hostile, readFileSync(AGENT, 'utf8').replace('description: a small agent for the report\'s tests', 'description: "<script>alert(1)</script> \\u202e evil"').replace('actions: 4000', 'actions: 500'));
    const out = join(dir, 'hostile.html');
    expect((await idem(['report', hostile, '--threads', '1', '--out', out])).code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('<script>alert(1)');
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; \\u202e evil');
    expect(text).not.toContain('\u202e');
  });
});

describe('report of an agent file refuses what it cannot do, in one paragraph, writing nothing', () => {
  const refused = async (args: string[], message: RegExp) => {
    const out = join(dir, `refused-${args.length}.html`);
    await expect(idem(['report', ...args, '--out', out])).rejects.toThrow(message);
    expect(existsSync(out)).toBe(false);
  };

  it('a tool the agent lacks: the tools it has', () => refused([AGENT, '--tool', 'refund'],
    /^--tool: the agent small-agent \(.*small-agent\.yaml\) has no tool named "refund"\. Name one of its tools: charge_card, post_note\.$/));

  it('--tool with a scenario file', () => refused([join(ROOT, 'scenarios/mission-1-blind-retries.yaml'), '--tool', 'x'],
    /^--tool: names a tool of an agent file, but .*mission-1-blind-retries\.yaml is a scenario file \(it has no tools:\)\. Leave --tool out/));

  it('--svg and --at of the agent\'s page, which has no timeline', async () => {
    await refused([AGENT, '--svg'], /^--svg: asks for the action timeline, which an agent's page does not draw .* Give --tool NAME .*such as --tool charge_card\.$/);
    await refused([AGENT, '--at', '1m'], /^--at: asks for the action timeline/);
  });

  it('--rows on the agent\'s page: warned of, as an option with no effect', async () => {
    const r = await idem(['report', AGENT, '--actions', '200', '--rows', '5', '--threads', '1', '--out', join(dir, 'rows.html')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('idem-sim: warning: --rows has no effect on an agent\'s page');
  });
});
