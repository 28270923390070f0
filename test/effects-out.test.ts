/**
 * `run --effects-out`: every execution of the run, as a production table holds it, with the
 * model's truth apart (docs/reconcile.md, "Effects"). The truth columns must be the run's own
 * counts exactly (the same simulation, traced), case by case.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runEffects, type EffectRecord } from '../src/exec/effects.js';
import { simulate } from '../src/exec/simulate.js';
import { C } from '../src/model/counters.js';
import { captured } from './command-line.js';
import { parseRunnable } from './helpers.js';

const CASES: Record<string, string> = {
  'scope none (blind retries)': 'actions: 20000\nidempotency: {scope: none}\n',
  'scope call (a slow downstream: re-plans execute again)': 'actions: 20000\nservice: {latency: {median: 1200ms, sigma: 0.6}}\nclient: {timeout: 600ms}\nidempotency: {scope: call}\n',
  'scope intent': 'actions: 20000\nidempotency: {scope: intent}\n',
  'twins': 'actions: 20000\nworkload: {twin_probability: 0.2}\nidempotency: {scope: intent}\n',
  'crash replays after a short retention': 'actions: 20000\nruntime: {crash_probability: 0.1}\nidempotency: {scope: intent, retention: 5m}\n',
  'a redelivered webhook': 'actions: 20000\nservice: {latency: {median: 3200ms, sigma: 0.5}}\nclient: {timeout: 10s}\nidempotency: {scope: call}\ntrigger: {preset: slack}\n',
  'a coupled run (workers near capacity: a short pause makes a storm)': 'actions: 20000\nservice: {capacity: {workers: 26}}\nincidents: [{name: pause, from: 2m, to: 150s, service: {capacity: {workers: 0}}}]\n',
  'a coupled run with a trigger': 'actions: 20000\nservice: {latency: {median: 3200ms, sigma: 0.5}, capacity: {workers: 400}}\nclient: {timeout: 10s}\nidempotency: {scope: call}\ntrigger: {preset: slack}\n',
};

const bySource = (rows: readonly EffectRecord[], source: string) => rows.filter((r) => r.duplicate && r.source === source).length;

describe('the effects of a run are its executions, with its duplicates marked by source', () => {
  for (const [name, yaml] of Object.entries(CASES)) {
    it(name, () => {
      const { scenario, state } = simulate(parseRunnable(yaml), '7');
      const rows = [...runEffects(scenario, '7', 'tool')].flat();
      const sum = (c: number) => state.counter(Object.keys(C)[c] as keyof typeof C).mean * state.actions;
      expect(rows.length).toBe(Math.round(sum(C.executions)));
      expect(rows.filter((r) => r.duplicate).length).toBe(Math.round(sum(C.duplicates)));
      expect(bySource(rows, 'transport')).toBe(Math.round(sum(C.duplicates_transport)));
      expect(bySource(rows, 'replan')).toBe(Math.round(sum(C.duplicates_replan)));
      expect(bySource(rows, 'replay')).toBe(Math.round(sum(C.duplicates_replay)));
      expect(bySource(rows, 'redelivery')).toBe(Math.round(sum(C.duplicates_redelivery)));
      // One first execution per executed action, and no duplicate without one.
      const firsts = new Set(rows.filter((r) => !r.duplicate).map((r) => r.action));
      expect(firsts.size).toBe(rows.filter((r) => !r.duplicate).length);
      for (const r of rows) if (r.duplicate) expect(firsts.has(r.action)).toBe(true);
      // A twin shares its sibling's business identity.
      for (const r of rows) expect(r.action.startsWith(r.businessKey)).toBe(true);
    });
  }
});

describe('run --effects-out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-effects-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes CSV in time order, and JSON lines for .jsonl, with the same rows', async () => {
    const csv = join(dir, 'e.csv');
    const jsonl = join(dir, 'e.jsonl');
    expect((await captured(['run', '--actions', '3000', '--set', 'idempotency.scope=call', '--effects-out', csv])).status).toBe(0);
    expect((await captured(['run', '--actions', '3000', '--set', 'idempotency.scope=call', '--effects-out', jsonl])).status).toBe(0);
    const lines = readFileSync(csv, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('business_key,at,idempotency_key,tool,truth_action,truth_duplicate,truth_source');
    const times = lines.slice(1).map((l) => l.split(',')[1] as string);
    expect([...times].sort()).toEqual(times);
    expect(times[0]).toMatch(/^2026-01-01T00:00:0\d\.\d{3}Z$/);
    const json = readFileSync(jsonl, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(json.length).toBe(lines.length - 1);
    expect(json[0]).toEqual(expect.objectContaining({ business_key: lines[1]!.split(',')[0], idempotency_key: expect.stringMatching(/^call:\d+\.\d+$/) as unknown, tool: 'lab-defaults' }));
  });

  it('refuses what it cannot write, in one paragraph with exit 2, and leaves no file', async () => {
    const out = join(dir, 'refused.csv');
    await expect(captured(['run', '--set', 'service.capacity={workers: 30}', '--actions', '300000', '--effects-out', out])).rejects.toThrow(/actions: is 300,000, and --effects-out traces a coupled run .* whole, at most 200,000 actions/);
    await expect(captured(['run', '--shard', '1/2', '--effects-out', out])).rejects.toThrow(/--effects-out: cannot be combined with --shard/);
    await expect(captured(['run', '--effects-out', '-'])).rejects.toThrow(/would write the effects into the report on standard output/);
    await expect(captured(['run', '--effects-out', dir])).rejects.toThrow(/is a directory/);
    expect(readdirSync(dir).filter((f) => f.startsWith('.') || f.startsWith('refused'))).toEqual([]);
  });
});

describe('an agent file with a trigger', () => {
  it('runs, sweeps and says model 4 in the sweep\'s JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-agent-trigger-'));
    const file = join(dir, 'bot.yaml');
    writeFileSync(file, [
      'agent: {name: bot, conversations_per_s: 2, calls_per_conversation: 2}',
      'defaults: {actions: 2000, trigger: {preset: slack}, service: {latency: {median: 3200ms, sigma: 0.5}}, client: {timeout: 10s}}',
      'tools:',
      '  - {name: refund, share: 0.5, scenario: {idempotency: {scope: call}}}',
      '  - {name: email, share: 0.5, scenario: {idempotency: {scope: intent}, trigger: {preset: slack, run_id: from_message}}}',
      '',
    ].join('\n'));
    const run = await captured(['run', file, '--json']);
    const tools = (JSON.parse(run.stdout) as { results: { name: string; metrics: { duplicates_per_1000: { redelivery?: { value: number } } } }[] }).results;
    expect(tools.find((t) => t.name === 'refund')!.metrics.duplicates_per_1000.redelivery!.value).toBeGreaterThan(500);
    expect(tools.find((t) => t.name === 'email')!.metrics.duplicates_per_1000.redelivery!.value).toBe(0);
    const sweep = await captured(['sweep', file, '--vary', 'defaults.trigger.ack_timeout=3s,10s', '--format', 'json']);
    expect((JSON.parse(sweep.stdout) as { model: number }).model).toBe(4);
    rmSync(dir, { recursive: true, force: true });
  });
});
