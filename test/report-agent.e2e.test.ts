/**
 * `report AGENT.yaml` and `lab AGENT.yaml --tool NAME` through the real binary (docs/reports.md,
 * docs/lab.md): the agent's page carries `run`'s agent table, the lab page starts from the
 * tool's composed scenario, and the refusals exit 2 with one paragraph and write nothing.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const AGENT = 'test/fixtures/agent-report/small-agent.yaml';
const dir = mkdtempSync(join(tmpdir(), 'idem-sim-agent-pages-'));

describe('report of an agent file (the binary)', () => {
  it('holds the agent column of run\'s table', () => {
    const out = join(dir, 'agent.html');
    const r = cli(['report', AGENT, '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const run = cli(['run', AGENT]);
    // The agent's column of run's table, top to bottom, is the last cell of each row of the page's table.
    const agentColumn = run.stdout.slice(run.stdout.indexOf('Agent small-agent')).split('\n').filter((l) => l.startsWith('│')).map((l) => (l.slice(1, -1).split('│').at(-1) as string).trim());
    const html = readFileSync(out, 'utf8');
    const table = html.slice(html.indexOf('id="agent-readings"'), html.indexOf('</table>', html.indexOf('id="agent-readings"')));
    const pageColumn = [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => /<t[hd]>([^<]*)<\/t[hd]><\/tr>$/.exec(m[0])?.[1]);
    expect(pageColumn).toEqual(agentColumn);
    expect(agentColumn).toHaveLength(12);
  });

  it('refuses --tool with no such tool: exit 2, one line, no file', () => {
    const out = join(dir, 'no.html');
    const r = cli(['report', AGENT, '--tool', 'nope', '--out', out]);
    expect(r.status).toBe(2);
    // The file's warnings come as it is read; then the error, one line.
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`idem-sim: error: --tool: the agent small-agent (${AGENT}) has no tool named "nope". Name one of its tools: charge_card, post_note.`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });
});

describe('lab of an agent file (the binary)', () => {
  const configOf = (html: string) => JSON.parse(/<script type="application\/json" id="lab-config">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null') as { start: { name: string; file: string; seed: string; text: string } };

  it('without --tool: exit 2, one paragraph listing the tools, no file', () => {
    const out = join(dir, 'lab.html');
    const r = cli(['lab', AGENT, '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`idem-sim: error: ${AGENT}: is an agent file of 2 tools (charge_card, post_note), and the lab starts from one scenario. Pick one with --tool NAME, such as \`idem-sim lab ${AGENT} --tool charge_card\`.`);
    expect(existsSync(out)).toBe(false);
  });

  it('with --tool: the page starts from the tool\'s composed scenario, on its seed', () => {
    const out = join(dir, 'lab-tool.html');
    const r = cli(['lab', AGENT, '--tool', 'post_note', '--seed', '9', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const { start } = configOf(readFileSync(out, 'utf8'));
    expect(start).toMatchObject({ name: 'small-agent.post_note', file: 'scenario.yaml', seed: '9/post_note' });
    expect(start.text).toContain('\nseed: 9/post_note\n');
    expect(start.text).toContain('\n  rate_per_s: 3\n');
  });
});
