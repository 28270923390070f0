/**
 * `idem-sim sweep AGENT` through the real command line (docs/sweeps.md, "Agent files"): each
 * point gives exactly what `run --set` of its values gives, the same bytes on one thread and
 * two, and what it does not support is refused with exit 2.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const SUPPORT = 'scenarios/agents/support-agent.yaml';
const SMALL = ['--actions', '2000'];

interface RunJson { results: { name: string; seed: string; metrics: unknown }[]; agents: { readings: unknown; tools: { readings: unknown }[] }[] }
interface SweepJson {
  seed: string; vary: string[];
  points: { params: Record<string, unknown>; readings: unknown; tools: { name: string; seed: string; readings: unknown; metrics: unknown }[] }[];
}

describe('idem-sim sweep AGENT', () => {
  it('gives at each point the agent\'s readings and its tools\' metrics that run --set of the point gives, byte for byte', () => {
    const values = { 'tools.create_ticket.idempotency.scope': ['none', 'intent'], 'defaults.client.timeout': ['1s', '4s'] };
    const sweep = cli(['sweep', SUPPORT, ...SMALL, '--json', ...Object.entries(values).flatMap(([k, v]) => ['--vary', `${k}=${v.join(',')}`])]);
    expect(sweep.stderr).toBe('');
    expect(sweep.status).toBe(0);
    const doc = JSON.parse(sweep.stdout) as SweepJson;
    expect(doc.points.map((p) => p.params)).toEqual([
      { 'tools.create_ticket.idempotency.scope': 'none', 'defaults.client.timeout': 1000 }, { 'tools.create_ticket.idempotency.scope': 'none', 'defaults.client.timeout': 4000 },
      { 'tools.create_ticket.idempotency.scope': 'intent', 'defaults.client.timeout': 1000 }, { 'tools.create_ticket.idempotency.scope': 'intent', 'defaults.client.timeout': 4000 },
    ]);
    const [scopes, timeouts] = Object.values(values) as [string[], string[]];
    for (const [k, scope] of scopes.entries()) {
      for (const [j, timeout] of timeouts.entries()) {
        const run = JSON.parse(cli(['run', SUPPORT, ...SMALL, '--json', '--set', `tools.create_ticket.idempotency.scope=${scope}`, '--set', `defaults.client.timeout=${timeout}`]).stdout) as RunJson;
        const point = doc.points[k * timeouts.length + j];
        expect(JSON.stringify(point?.readings)).toBe(JSON.stringify(run.agents[0]?.readings));
        expect(point?.tools.map((t) => t.seed)).toEqual(run.results.map((r) => r.seed));
        expect(point?.tools.map((t) => JSON.stringify(t.metrics))).toEqual(run.results.map((r) => JSON.stringify(r.metrics)));
        expect(point?.tools.map((t) => JSON.stringify(t.readings))).toEqual(run.agents[0]?.tools.map((t) => JSON.stringify(t.readings)));
      }
    }
    // The points differ where their settings do: intent keys end create_ticket's duplicates.
    const dup = (p: SweepJson['points'][number] | undefined) => (p?.tools.find((t) => t.name === 'create_ticket')?.metrics as { duplicates_per_1000: { value: number } }).duplicates_per_1000.value;
    expect(dup(doc.points[0])).toBeGreaterThan(5);
    expect(dup(doc.points[2])).toBe(0);
  });

  it('writes the same bytes on one thread and two', () => {
    const args = ['sweep', SUPPORT, ...SMALL, '--vary', 'agent.conversations_per_s=1,4', '--format', 'csv'];
    const one = cli([...args, '--threads', '1']);
    expect(one.status).toBe(0);
    expect(cli([...args, '--threads', '2']).stdout).toBe(one.stdout);
    const [head, ...rows] = one.stdout.trim().split('\n');
    expect(head?.startsWith('param_agent.conversations_per_s,agent_calls_per_day,')).toBe(true);
    expect(rows.map((r) => r.split(',').slice(0, 2))).toEqual([['1', '345600'], ['4', '1382400']]);
  });

  it('draws a heat map of --metric for two keys, with the replay line', () => {
    const r = cli(['sweep', SUPPORT, ...SMALL, '--vary', 'tools.send_email.idempotency.scope=call,intent', '--vary', 'defaults.network.reply_loss=0,0.05', '--metric', 'send_email.duplicates_per_1000']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^send_email\.duplicates_per_1000\n/);
    expect(r.stdout).toMatch(/│ tools\.send_email\.idempotency\.scope \\ defaults\.network\.reply_loss │/);
    expect(r.stdout).toMatch(/4 points × 6 tools of agent support-agent, each tool from seed support-1\/TOOL/);
    expect(r.stdout).toMatch(/replay: idem-sim sweep scenarios\/agents\/support-agent\.yaml --vary tools\.send_email\.idempotency\.scope=call,intent --vary defaults\.network\.reply_loss=0,0\.05 --actions 2000 --seed support-1 --metric send_email\.duplicates_per_1000\n$/);
  });

  it('refuses what an agent sweep does not do, in one paragraph with exit 2', () => {
    const refusals: [string[], RegExp][] = [
      [['--vary', 'defaults.client.timeout=1s,2s', '--shard', '1/2'], /--shard: cannot split an agent file's sweep/],
      [['--vary', 'defaults.client.timeout=1s,2s', '--format', 'html'], /--format html: is not written for an agent file's sweep/],
      [['--vary', 'defaults.client.timeout=1s,2s', '--svg'], /--svg: is not written for an agent file's sweep/],
      [['--vary', 'defaults.client.timeout=1s,2s', '--metric', 'agent.cost_per_day'], /"cost_per_day" is not a reading of the agent alone: its tools cost in USD, ticket, email/],
      [['--vary', 'tools.refund.client.timeout=1s,2s'], /the agent has no tool named "refund".*Did you mean refund_order\?/],
      [['--vary', 'defaults.client.timeout=1s,2s,3s', '--max-points', '12'], /the grid has 3 points of 6 tools each, 18 runs, more than 12.*--max-points 18/],
      [['--vary', 'tools.refund_order.load.rate_per_s=1,2'], /is set by the agent/],
    ];
    for (const [args, message] of refusals) {
      const r = cli(['sweep', SUPPORT, ...SMALL, ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    }
  });
});
