/**
 * docs/model.md's "Time" through the binary: `run --series` in JSON and CSV, byte-identical
 * across threads and across shards merged, alerts in `check`, and the errors of bad time keys.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, removeScratch, scratch } from './helpers.js';

afterEach(removeScratch);

const INCIDENT = `load: {duration: 20m}
idempotency: {scope: intent}
incidents:
  - {name: slowdown, from: 5m, to: 8m, service: {latency_multiplier: 4}}
alerts:
  - {name: conflicts, metric: conflicts_409, above: 10, for: 2m}
`;

function file(text: string, name = 's.yaml'): string {
  const path = join(scratch(), name);
  writeFileSync(path, text);
  return path;
}

describe('run --series', () => {
  it('gives the same bytes on 1 and 2 threads, and when 3 shards are merged', () => {
    const s = file(INCIDENT);
    const one = cli(['run', s, '--series', '1m', '--json', '--threads', '1']);
    expect(one.status).toBe(0);
    expect(cli(['run', s, '--series', '1m', '--json', '--threads', '2']).stdout).toBe(one.stdout);
    const dir = scratch();
    const parts = [1, 2, 3].map((k) => {
      const out = join(dir, `p${k}.json`);
      expect(cli(['run', s, '--series', '1m', '--shard', `${k}/3`, '--out', out]).status).toBe(0);
      return out;
    });
    const merged = cli(['merge', ...parts, '--json']);
    expect(merged.status).toBe(0);
    const [a, b] = [one.stdout, merged.stdout].map((t) => JSON.parse(t).results[0]);
    expect(b.series).toEqual(a.series);
    expect(b.alerts).toEqual(a.alerts);
    expect(b.metrics).toEqual(a.metrics);
    expect(a.series.step_ms).toBe(60_000);
    expect(a.alerts[0].detection_delay_ms.slowdown).toBe(120_000);
    expect(a.alerts[0].false_alarms).toBe(0);
  });

  it('writes one CSV row per bucket with --series, and one per run without', () => {
    const s = file(INCIDENT);
    const csv = cli(['run', s, '--series', '5m', '--format', 'csv']);
    expect(csv.status).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('run,start_ms,arrivals,attempts,executions,duplicates,conflicts_409,mismatches_422,dedup_hits,timeouts,unknown_outcomes,lost,store_unavailable,step_ms,load_ms,seed,idem_sim_version');
    expect(lines[1]?.startsWith('s,0,')).toBe(true);
    expect(lines.length - 1).toBeGreaterThanOrEqual(4); // 20 min of arrivals, and their retries after
    // Without --series (an incident's own 1-minute series aside, which is not written): the run's metrics, one row.
    const runs = cli(['run', s, '--format', 'csv']);
    expect(runs.status).toBe(0);
    const rows = runs.stdout.trim().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.startsWith('kind,name,agent,duplicates_per_1000,')).toBe(true);
    expect(rows[1]?.startsWith('scenario,s,,')).toBe(true);
  });

  it('refuses a step without its unit or one that would need too many buckets', () => {
    const s = file(INCIDENT);
    const bare = cli(['run', s, '--series', '60']);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/60s or 60ms/);
    const fine = cli(['run', s, '--series', '1ms']);
    expect(fine.status).toBe(2);
    expect(fine.stderr).toMatch(/Give --series a step of at least/);
  });

  it('a queue whose backlog outlasts the step checked before the run: the run goes on in twice the step, says so, and gives what that step gives', () => {
    const storm = 'scenarios/capacity-storm.yaml';
    const before = cli(['run', storm, '--series', '1ms']);
    expect(before.status).toBe(2);
    const checked = /a step of at least (\d+ms)/.exec(before.stderr)?.[1] ?? '';
    expect(checked).toBe('34ms'); // its calls end by minute 56.6; its backlog drains near minute 100 (98.6 with this stream, 99.9 with another)
    const out = join(scratch(), 'r.json');
    const short = cli(['run', storm, '--series', checked, '--format', 'json', '--out', out]);
    expect(short.status, short.stderr).toBe(0);
    // 98.6 min in 34 ms buckets is 174,000 of them: twice the step (68 ms) holds it (up to 113 min).
    expect(short.stderr).toMatch(/warning: capacity-storm: the queue served its backlog until minute \d+\.\d, past the 100,000 buckets of 34ms a series may hold \(--series 34ms\), so the series were counted in buckets of 68ms/);
    const coarse = join(scratch(), 'r68.json');
    const run = cli(['run', storm, '--series', '68ms', '--format', 'json', '--out', coarse]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/buckets of 68ms/);
    // The same bytes as the run asked for 68 ms, but for the command line it records.
    const results = (f: string) => (JSON.parse(readFileSync(f, 'utf8')) as { results: { series: { step_ms: number } }[] }).results;
    expect(results(out)[0]?.series.step_ms).toBe(68);
    expect(results(out)).toEqual(results(coarse));
    // A promtool test's rules are made for the step asked: there the longer step is refused, and no file is left.
    const test = join(scratch(), 'storm.test.yaml');
    const alerts = cli(['alerts', storm, '--series', checked, '--format', 'promtool-test', '--out', test]);
    expect(alerts.status).toBe(2);
    expect(alerts.stderr).toMatch(/counted its series in buckets of 68ms, and a test's rules and series must share one step\. Give --series 68ms/);
    expect(existsSync(test) || existsSync(test.replace('.test.yaml', '.rules.yaml'))).toBe(false);
  });
});

describe('check with alerts', () => {
  it('gates on a detection delay and on false alarms', () => {
    const pass = file(`${INCIDENT}expect:\n  alerts.conflicts.detection_delay_ms.slowdown: "< 3m"\n  alerts.conflicts.false_alarms: "== 0"\n`);
    expect(cli(['check', pass]).status).toBe(0);
    const fail = file(`${INCIDENT}expect:\n  alerts.conflicts.detection_delay_ms.slowdown: "< 1m"\n`, 'f.yaml');
    const r = cli(['check', fail]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('2 min');
  });

  it('refuses an expectation on an alert or an incident the scenario does not have, naming the line', () => {
    const bad = file(`${INCIDENT}expect:\n  alerts.conflicts.detection_delay_ms.slowdonw: "< 3m"\n`);
    const r = cli(['check', bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/s\.yaml:8:\d+, key expect\.alerts\.conflicts\.detection_delay_ms\.slowdonw: names the incident "slowdonw"/);
    expect(r.stderr).toContain('slowdown');
  });
});

describe('sweeps over incidents and alert thresholds', () => {
  it('varies an incident\'s multiplier and an alert\'s threshold, with the alert\'s readings as columns', () => {
    const s = file(INCIDENT);
    const r = cli(['sweep', s, '--vary', 'alerts[0].above=5,80', '--vary', 'incidents[0].service.latency_multiplier=1,4', '--format', 'csv']);
    expect(r.status).toBe(0);
    const [head, ...rows] = r.stdout.trim().split('\n');
    const columns = (head as string).split(',');
    const delay = columns.indexOf('alerts.conflicts.detection_delay_ms.slowdown');
    expect(delay).toBeGreaterThan(0);
    expect(columns).toContain('alerts.conflicts.false_alarms');
    const cells = rows.map((row) => row.split(','));
    // above 5/s with a 4× slowdown: detected after 2 minutes; above 80/s, or no slowdown: missed (an empty cell).
    expect(cells.map((c) => [c[0], c[1], c[delay]])).toEqual([['5', '1', ''], ['5', '4', '120000'], ['80', '1', ''], ['80', '4', '']]);
  });
});

describe('the bundled time scenarios', () => {
  it('pass check as shipped: incident-slowdown (the 409 alert) and deploy-wave (retention and the replay alert)', () => {
    const r = cli(['check', 'scenarios/incident-slowdown.yaml', 'scenarios/deploy-wave.yaml']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('all 7 expectations pass');
  });

  it('deploy-wave with 5 minutes of retention makes replay duplicates, and check says so', () => {
    const r = cli(['check', 'scenarios/deploy-wave.yaml', '--set', 'idempotency.retention=5m']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/duplicates_per_1000\.replay .*FAIL/);
  });

  it('probe refuses a scenario with time keys, naming the key, before any connection', () => {
    const r = cli(['probe', 'scenarios/incident-slowdown.yaml', '--store', 'redis://127.0.0.1:1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/key incidents: is a key of time/);
  });
});
