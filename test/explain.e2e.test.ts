/**
 * `idem-sim explain` through the binary: every key of a scenario, its value and where it came
 * from, as a table and as JSON; an agent file's tools; a bad file refused in one paragraph.
 * The provenance itself: test/provenance.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-explain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'base.yaml'), '# the shared client\nclient:\n  timeout: 3s\n');
writeFileSync(join(dir, 'pay.yaml'), 'extends: base.yaml\npreset: stripe\nidempotency:\n  scope: intent\n');

interface Key { key: string; value: unknown; text: string; from: string; source?: string; line?: number; preset?: string }

describe('idem-sim explain', () => {
  it('a table: each key, its value as written or readable, and where it came from; exit 0, nothing on stderr', () => {
    const r = cli(['explain', 'pay.yaml', '--set', 'client.retries=1'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const row = (key: string) => r.stdout.split('\n').find((l) => l.startsWith(`│ ${key} `))?.split('│').slice(1, -1).map((c) => c.trim());
    expect(r.stdout.split('\n')[0]).toBe('scenario pay.yaml');
    expect(row('idempotency.scope')).toEqual(['idempotency.scope', 'intent', 'pay.yaml:4']);
    expect(row('idempotency.retention')).toEqual(['idempotency.retention', '24h', 'preset stripe (pay.yaml:2)']);
    expect(row('client.timeout')).toEqual(['client.timeout', '3s', 'extends: base.yaml:3']);
    expect(row('client.retries')).toEqual(['client.retries', '1', '--set client.retries=1']);
    expect(row('client.backoff.max')).toEqual(['client.backoff.max', '5s', 'built-in default']);
    expect(r.stdout).toContain('lab values it runs on without writing them: network.reply_loss 0.02, agent.replan_probability 0.6');
  });

  it('JSON: every key with its value in ms, its text, and its source and line', () => {
    const r = cli(['explain', 'pay.yaml', '--format', 'json', '--actions', '500'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { tool: string; file: string; scenarios: { name: string; keys: Key[]; lab_defaults: { key: string; value: number }[] }[] };
    expect(doc).toMatchObject({ tool: 'idem-sim', file: 'pay.yaml' });
    const [scenario] = doc.scenarios;
    const key = (k: string) => scenario?.keys.find((x) => x.key === k);
    expect(key('client.timeout')).toEqual({ key: 'client.timeout', value: 3000, text: '3s', from: 'base', source: 'base.yaml', line: 3 });
    expect(key('idempotency.on_error')).toEqual({ key: 'idempotency.on_error', value: 'store', text: 'store', from: 'preset', preset: 'stripe', source: 'pay.yaml', line: 2 });
    expect(key('actions')).toEqual({ key: 'actions', value: 500, text: '500', from: 'set', source: '--actions 500' });
    expect(key('network.reply_loss')).toEqual({ key: 'network.reply_loss', value: 0.02, text: '0.02', from: 'default' });
    expect(scenario?.lab_defaults).toEqual([{ key: 'network.reply_loss', value: 0.02 }, { key: 'agent.replan_probability', value: 0.6 }]);
    expect(cli(['explain', 'pay.yaml', '--json', '--actions', '500'], { cwd: dir }).stdout).toBe(r.stdout);
  });

  it("an agent file: each tool's scenario, the keys of the agent's defaults named as such", () => {
    const r = cli(['explain', 'scenarios/agents/support-agent.yaml', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { agent: string; scenarios: { name: string; keys: Key[] }[] };
    expect(doc.agent).toBe('support-agent');
    expect(doc.scenarios.map((s) => s.name)).toContain('refund_order');
    const refund = doc.scenarios.find((s) => s.name === 'refund_order')?.keys ?? [];
    expect(refund.find((k) => k.key === 'client.timeout')).toMatchObject({ from: 'agent-defaults', source: 'scenarios/agents/support-agent.yaml' });
    expect(refund.find((k) => k.key === 'idempotency.scope')).toMatchObject({ value: 'intent', from: 'file', source: 'scenarios/agents/support-agent.yaml' });
    expect(refund.find((k) => k.key === 'load.rate_per_s')).toMatchObject({ from: 'agent' });
  });

  it('a bad file: exit 2, one paragraph naming the file, line and key, nothing on stdout', () => {
    writeFileSync(join(dir, 'bad.yaml'), 'client:\n  timeout: 2\n');
    const r = cli(['explain', 'bad.yaml'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^idem-sim: error: bad\.yaml:2:\d+, key client\.timeout: 2 has no unit\./);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    const missing = cli(['explain', 'nowhere.yaml'], { cwd: dir });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^idem-sim: error: nowhere\.yaml: /);
  });
});
