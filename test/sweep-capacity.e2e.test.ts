/** A sweep charts a coupled run's readings (`--metric`, its table), and refuses one its points cannot report; the report's headline shows them. */
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

describe('sweep --metric and capacity', () => {
  it('charts utilisation over workers, JSON saying model 4', () => {
    const r = cli(['sweep', 'scenarios/mission-1-blind-retries.yaml', '--set', 'service.capacity.workers=26', '--actions', '4000',
      '--vary', 'service.capacity.workers=20,30', '--vary', 'client.timeout=1s,2s', '--metric', 'utilisation', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { model: number; points: { metrics: { utilisation: number } }[] };
    expect(doc.model).toBe(4);
    expect(doc.points).toHaveLength(4);
    const [u20, , u30] = doc.points.map((p) => p.metrics.utilisation);
    expect(u20).toBeGreaterThan(u30 as number); // the same load over fewer workers
  });

  it('the table of a coupled sweep adds shedding, the queue wait and utilisation', () => {
    const r = cli(['sweep', 'scenarios/mission-1-blind-retries.yaml', '--actions', '2000', '--vary', 'service.capacity.workers=20,30']);
    expect(r.status, r.stderr).toBe(0);
    const head = r.stdout.split('\n').find((l) => l.includes('dup/1000')) ?? '';
    for (const h of ['shed/1000', 'wait p95', 'utilisation']) expect(head).toContain(h);
    const plain = cli(['sweep', 'scenarios/mission-1-blind-retries.yaml', '--actions', '2000', '--vary', 'client.timeout=1s,2s']);
    expect(plain.stdout).not.toContain('shed/1000');
  });

  it('a sweep varying a coupling key may chart its readings; one whose points are never coupled is refused, with the fix', () => {
    const ok = cli(['sweep', 'scenarios/mission-1-blind-retries.yaml', '--actions', '2000', '--vary', 'service.capacity.workers=20,30', '--metric', 'shed_per_1000', '--format', 'csv']);
    expect(ok.status, ok.stderr).toBe(0);
    const refused = cli(['sweep', 'scenarios/mission-1-blind-retries.yaml', '--actions', '2000', '--vary', 'client.timeout=1s,2s', '--metric', 'shed_per_1000']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^idem-sim: error: .*mission-1-blind-retries\.yaml.*sweep\.metric: shed_per_1000 is reported only by scenarios with service\.capacity.*--vary service\.capacity\.workers/s);
    expect(refused.stdout).toBe('');
  });

  it('the report\'s headline shows a coupled run\'s readings, and a run that is not coupled keeps its rows', () => {
    const coupled = cli(['report', 'scenarios/mission-1-blind-retries.yaml', '--set', 'service.capacity.workers=26', '--actions', '2000', '--series', '1m']);
    expect(coupled.status, coupled.stderr).toBe(0);
    const head = /<table class="headline">([\s\S]*?)<\/table>/.exec(coupled.stdout)?.[1] ?? '';
    for (const t of ['requests shed per 1000 actions', 'queue wait, 95th percentile', 'worker utilisation']) expect(head).toContain(t);
    const plain = cli(['report', 'scenarios/mission-1-blind-retries.yaml', '--actions', '2000']);
    expect(/<table class="headline">([\s\S]*?)<\/table>/.exec(plain.stdout)?.[1]).not.toContain('worker utilisation');
  });

  it('the report\'s headline says what the per-day figure repeats with incidents, as the run table does, with the quiet time\'s next to it', () => {
    const r = cli(['report', 'scenarios/incident-slowdown.yaml']);
    expect(r.status, r.stderr).toBe(0);
    const head = /<table class="headline">([\s\S]*?)<\/table>/.exec(r.stdout)?.[1] ?? '';
    expect(head).toContain('duplicates per day, the run repeated (incidents and all)');
    expect(head).toContain('duplicates per day outside incidents (quiet time repeated all day)');
  });
});
