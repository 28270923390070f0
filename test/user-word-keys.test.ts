/**
 * Where a user's word becomes a key (a cost's unit, a tool's metric in expect:, a data file's name,
 * an environment variable's name), it is a key of a map, or of an object without a prototype: a
 * word such as `constructor` or `__proto__` is a key like any other, never an object's member.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAgent } from '../src/agent/parse.js';
import { agentReadings, readReading } from '../src/agent/readings.js';
import { serverEnvironment } from '../src/cli/inventory.js';
import { labSettings, startScenario } from '../src/cli/lab.js';
import { labRun } from '../src/lab/engine.js';
import { InputError } from '../src/scenario/errors.js';
import { command } from './command-line.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-user-words-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two tools: one whose duplicates cost a `constructor` (a word the unit pattern takes), one a ticket. */
const AGENT = `agent: {calls_per_s: 10}
defaults: {actions: 2000}
tools:
  - {name: a, share: 0.5, cost: {duplicate: {amount: 2, unit: constructor}}}
  - {name: b, share: 0.5, cost: {duplicate: {amount: 3, unit: ticket}}}
`;

async function cli(args: string[]): Promise<{ status: number; stdout: string }> {
  const stdout = new PassThrough();
  const out: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  const status = await command(args, { stdout, stderr: new PassThrough(), env: {} });
  return { status, stdout: Buffer.concat(out).toString('utf8') };
}

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

function refusal(f: () => unknown): InputError {
  try { f(); } catch (e) { if (e instanceof InputError) return e; throw e; }
  throw new Error('accepted');
}

describe('a cost in the unit constructor', () => {
  it('is a reading of its own, and none of the tools that do not cost in it', () => {
    const metrics = (dup: number) => ({ duplicates_per_day: { value: dup, ci95: [dup, dup] }, lost_per_1000: { value: 0, ci95: [0, 0] }, actions_per_second: 5, actions: 1000, primary_actions: 1000, keys: 0, key_store_mb: 0 });
    const tools = parseAgent(AGENT, 'agent.yaml', 'agent').tools;
    const r = agentReadings(tools.map((t, i) => ({ name: t.name, share: t.share, cost: t.cost, metrics: metrics(10 * (i + 1)) as never, duplicated: { mean: 0, half: 0 }, readOnly: false })), 1);
    expect([...r.cost_per_day.keys()]).toEqual(['constructor', 'ticket']);
    expect(readReading(r, 'cost_per_day.constructor')?.value).toBe(20);
    expect(r.tools[1]?.cost_per_day.get('constructor')).toBeUndefined();
    expect(readReading(r, 'cost_per_day.toString')).toBeUndefined();
  });

  it('reaches the table, the JSON and the CSV, and check judges it', async () => {
    const f = file('costs.yaml', `${AGENT}expect:\n  agent.cost_per_day.constructor: "> 0"\n`);
    const table = (await cli(['run', f])).stdout;
    expect(table).toMatch(/│ cost per day \(constructor\) +│ +[0-9,]+ ± [0-9,]+ │ +– │ +[0-9,]+ ± [0-9,]+ │/);
    const json = JSON.parse((await cli(['run', f, '--json'])).stdout) as { agents: { readings: { cost_per_day: Record<string, { value: number }> }; tools: { readings: { cost_per_day: Record<string, unknown> } }[] }[] };
    expect(Object.keys(json.agents[0]?.readings.cost_per_day ?? {})).toEqual(['constructor', 'ticket']);
    expect(json.agents[0]?.readings.cost_per_day['constructor']?.value).toBeGreaterThan(0);
    expect(Object.keys(json.agents[0]?.tools[0]?.readings.cost_per_day ?? {})).toEqual(['constructor']);
    const [head, ...rows] = (await cli(['run', f, '--format', 'csv'])).stdout.trim().split('\n');
    const column = (head as string).split(',').indexOf('agent_cost_per_day_constructor');
    expect(column).toBeGreaterThan(0);
    expect(Number((rows.at(-1) as string).split(',')[column])).toBeGreaterThan(0);
    const check = await cli(['check', f]);
    expect(check.stdout).toMatch(/agent\.cost_per_day\.constructor │ > 0 +│ +[0-9,]+ ± [0-9,]+ │ pass/);
    expect(check.status).toBe(0);
  });

  it('is the only such word the unit takes: __proto__ and toString are refused', () => {
    for (const unit of ['__proto__', 'toString']) {
      expect(refusal(() => parseAgent(AGENT.replace('unit: ticket', `unit: ${unit}`), 'agent.yaml', 'agent')).keyPath).toBe('tools[1].cost.duplicate.unit');
    }
    // The form the error states is the pattern's: __proto__ is of lower-case letters and _, but does not begin with a letter.
    expect(refusal(() => parseAgent(AGENT.replace('unit: ticket', 'unit: __proto__'), 'agent.yaml', 'agent')).message)
      .toContain('got "__proto__", expected what is counted when the cost is not money, in the singular: lower-case letters, _ and -, beginning with a letter (so not __proto__), at most 32 (ticket, email)');
  });
});

describe('an agent file\'s TOOL.METRIC expectation', () => {
  it('named __proto__, constructor or toString is refused, not dropped', () => {
    for (const metric of ['__proto__', 'constructor', 'toString']) {
      const text = `${AGENT}expect:\n  a.${metric}: "< 0"\n  a.duplicates_per_1000: "< 1000"\n`;
      expect(refusal(() => parseAgent(text, 'agent.yaml', 'agent')).keyPath, metric).toBe(`expect.a.${metric}`);
    }
  });
});

describe('lab', () => {
  it('carries the values of an empirical latency file named __proto__', async () => {
    file('__proto__', '100\n200\n300\n');
    const f = file('proto-data.yaml', 'actions: 2000\nservice: {latency: {dist: empirical, file: __proto__}}\n');
    const start = await startScenario(f, labSettings({}), { stdout: new PassThrough(), stderr: new PassThrough(), env: {} });
    // As the page gets it: JSON in the page, read back.
    const data = JSON.parse(JSON.stringify(start.data)) as Record<string, number[]>;
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
    const page = labRun({ ...start, data, kind: 'run', id: 1, command: 'test', version: 'test' });
    expect(page.metrics['actions']).toBe(2000);
  });
});

describe('inventory --env', () => {
  it('takes constructor and __proto__ as names of variables, not of the environment\'s members', () => {
    expect(refusal(() => serverEnvironment(['constructor'], {})).message).toMatch(/--env constructor: is not set in idem-sim's environment/);
    const env = serverEnvironment(['__proto__=x', 'toString=y'], {});
    expect(Object.entries(env)).toEqual([['__proto__', 'x'], ['toString', 'y']]);
  });
});
