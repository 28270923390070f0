/**
 * An agent file through the real command line (docs/agents.md): `run` in every format, `check`
 * at the agent's level and the tools', and the refusals, with their exit statuses.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, removeScratch, ROOT, scratch } from './helpers.js';

const SUPPORT = 'scenarios/agents/support-agent.yaml';
const SMALL = ['--actions', '2000'];
afterEach(removeScratch);

/** A CSV's rows as records of its header's names. */
function records(csv: string): Record<string, string>[] {
  const [head, ...rows] = csv.trim().split('\n');
  const names = (head as string).split(',');
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [names[i] as string, v])));
}

describe('idem-sim run AGENT', () => {
  it('reports each tool\'s column and the agent\'s readings in the table', () => {
    const r = cli(['run', SUPPORT, ...SMALL]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const tool of ['refund_order', 'send_email', 'create_ticket', 'add_crm_note', 'update_address', 'lookup_order']) expect(r.stdout).toContain(tool);
    expect(r.stdout).toMatch(/Agent support-agent\n/);
    expect(r.stdout).toMatch(/│ chance a conversation \(4 calls\) meets a duplicate +│/);
    expect(r.stdout).toMatch(/lookup_order is marked read-only/);
    expect(r.stdout).toMatch(/replay: idem-sim run scenarios\/agents\/support-agent.yaml --actions 2000 --seed support-1\n$/);
  });

  it('writes one CSV row per tool and one for the agent, whose duplicates are its tools\' that change the world', () => {
    const r = cli(['run', SUPPORT, ...SMALL, '--format', 'csv']);
    expect(r.status).toBe(0);
    const rows = records(r.stdout);
    expect(rows.map((x) => [x['kind'], x['name']])).toEqual([
      ['tool', 'refund_order'], ['tool', 'send_email'], ['tool', 'create_ticket'], ['tool', 'add_crm_note'], ['tool', 'update_address'], ['tool', 'lookup_order'], ['agent', 'support-agent'],
    ]);
    const agent = rows.at(-1) as Record<string, string>;
    const tools = rows.slice(0, -1).filter((x) => x['name'] !== 'lookup_order');
    const sum = tools.reduce((s, x) => s + Number(x['agent_duplicates_per_day']), 0);
    expect(Number(agent['agent_duplicates_per_day'])).toBeCloseTo(sum, 3);
    // A tool's row holds its own metrics; the agent's metric columns are empty.
    expect(Number(rows[2]?.['duplicates_per_1000'])).toBeGreaterThan(0);
    expect(agent['duplicates_per_1000']).toBe('');
    expect(Object.keys(agent)).toEqual(expect.arrayContaining(['agent_cost_per_day_USD', 'agent_cost_per_day_ticket', 'agent_cost_per_day_email']));
  });

  it('lists the agent in the JSON beside its tools\' results', () => {
    const doc = JSON.parse(cli(['run', SUPPORT, ...SMALL, '--json']).stdout) as { results: { name: string; seed: string }[]; agents: { name: string; seed: string; tools: { name: string; run: string; cost: unknown }[]; readings: Record<string, unknown> }[] };
    expect(doc.results.map((r) => r.seed)).toEqual(doc.agents[0]?.tools.map((t) => `support-1/${t.name}`));
    expect(doc.agents[0]?.tools[0]).toMatchObject({ name: 'refund_order', run: 'refund_order', cost: { duplicate: { amount: 40, currency: 'USD' }, lost: { amount: 1, unit: 'ticket' } } });
    expect(Object.keys(doc.agents[0]?.readings ?? {})).toContain('conversation_duplicate_chance');
  });

  it('gives the same bytes on one thread and two', () => {
    const one = cli(['run', SUPPORT, ...SMALL, '--json', '--threads', '1']).stdout;
    expect(cli(['run', SUPPORT, ...SMALL, '--json', '--threads', '2']).stdout).toBe(one);
  });

  it('takes a tool\'s key by name with --set', () => {
    const before = records(cli(['run', SUPPORT, ...SMALL, '--format', 'csv']).stdout).find((x) => x['name'] === 'create_ticket');
    const after = records(cli(['run', SUPPORT, ...SMALL, '--format', 'csv', '--set', 'tools.create_ticket.idempotency.scope=intent']).stdout).find((x) => x['name'] === 'create_ticket');
    expect(Number(before?.['duplicates_per_1000'])).toBeGreaterThan(5);
    expect(Number(after?.['duplicates_per_1000'])).toBe(0);
  });

  it('writes one CSV row per scenario for plain scenario files', () => {
    const rows = records(cli(['run', 'scenarios/lab-defaults.yaml', 'scenarios/mission-1-blind-retries.yaml', '--format', 'csv', ...SMALL]).stdout);
    expect(rows.map((x) => [x['kind'], x['name'], x['agent']])).toEqual([['scenario', 'lab-defaults', ''], ['scenario', 'mission-1-blind-retries', '']]);
    expect(Object.keys(rows[0] ?? {})).not.toContain('share');
  });

  it('refuses --shard of an agent file, and a bad agent file at its line, with exit 2', () => {
    const shard = cli(['run', SUPPORT, '--shard', '1/2']);
    expect(shard.status).toBe(2);
    expect(shard.stderr).toMatch(/cannot split an agent file/);
    const dir = scratch();
    writeFileSync(join(dir, 'a.yaml'), 'agent: {calls_per_s: 2}\ntools:\n  - {name: a, share: 0.5}\n  - {name: b, share: 0.4}\n');
    const bad = cli(['run', join(dir, 'a.yaml')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/a\.yaml:3:\d+, key tools\[\]\.share: the shares sum to 0\.9, not 1\. Make the shares/);
    expect(bad.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('warns of a lying hint on stderr and still runs', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'a.yaml'), 'agent: {calls_per_s: 2}\ndefaults: {actions: 500}\ntools:\n  - {name: note, share: 1, annotations: {idempotentHint: true}}\n');
    const r = cli(['run', join(dir, 'a.yaml')]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/a\.yaml:4:\d+, key tools\[0\]\.annotations\.idempotentHint: note is marked idempotent, but uses no idempotency key/);
  });
});

describe('idem-sim check AGENT', () => {
  it('passes the bundled agent\'s expectations', () => {
    const r = cli(['check', SUPPORT]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/support-agent +│ agent\.cost_per_day\.USD/);
  });

  it('fails an agent-level expectation with exit 1, naming the agent', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'a.yaml'), 'agent: {calls_per_s: 2}\ndefaults: {actions: 2000}\ntools:\n  - {name: note, share: 1, cost: {duplicate: {amount: 3, currency: EUR}}}\nexpect:\n  agent.cost_per_day: "< 1"\n');
    const r = cli(['check', join(dir, 'a.yaml'), '--json']);
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as { scenarios: { name: string; verdicts: { metric: string; pass: boolean }[] }[] };
    expect(JSON.stringify(doc)).toMatch(/"agent\.cost_per_day"/);
  });
});

describe('docs/agents.md (the README links it)', () => {
  /** A table's cells by row label and column heading. */
  const cells = (rows: readonly string[]): Map<string, string> => {
    const split = (line: string) => line.split('│').slice(1, -1).map((c) => c.trim());
    const [head = [], ...body] = rows.map(split);
    return new Map(body.flatMap((r) => head.slice(1).map((h, i) => [`${r[0]}|${h}`, r[i + 1] as string] as const)));
  };

  it('shows cells of the real agent table (its columns trimmed) and the figures after the fix', () => {
    const page = readFileSync(join(ROOT, 'docs/agents.md'), 'utf8');
    const block = /\$ npx idem-sim run scenarios\/agents\/support-agent\.yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const shown = cells(block.split('\n').filter((l) => l.startsWith('│')));
    const agentTable = (out: string) => cells(out.slice(out.indexOf('\nAgent ')).split('\n').filter((l) => l.startsWith('│')));
    const real = agentTable(cli(['run', SUPPORT]).stdout);
    expect(shown.size).toBeGreaterThan(10);
    for (const [key, cell] of shown) expect(real.get(key), key).toBe(cell);
    const fixed = agentTable(cli(['run', SUPPORT, '--set', 'tools.create_ticket.idempotency.scope=intent', '--set', 'tools.add_crm_note.idempotency.scope=intent']).stdout);
    expect(page).toContain(`takes the tickets to ${fixed.get('cost per day (ticket)|agent support-agent')} a day`);
    expect(page).toContain(`meets a duplicate to\n${fixed.get('chance a conversation (4 calls) meets a duplicate|agent support-agent')}.`);
  });
});
