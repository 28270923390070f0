/**
 * A sweep of workers over a paused service answers "the fewest workers whose backlog clears
 * within 60 s of the pause" (docs/sweeps.md, "Recovery"): in its CSV, table, JSON and chart,
 * through the binary; its alerts judged on --series' buckets; sharded and merged alike.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, marks } from './helpers.js';

const STORM = 'scenarios/capacity-storm.yaml';
// 20 workers storm before the pause (seed 1: from 25 s on), 100 never recover from it, 140 clear it in 61 s, 150 and 160 within 60 s.
const SWEEP = ['sweep', STORM, '--vary', 'service.capacity.workers=20,100,140,150,160', '--find', 'backlog_cleared_ms.pause<=60s'];

/** The CSV as rows of named cells (overload_episodes, quoted JSON, is the only cell with commas). */
function rows(csv: string): Record<string, string>[] {
  const [head = '', ...lines] = csv.trimEnd().split('\n');
  const names = head.split(',');
  return lines.map((line) => {
    const cells = line.replace(/"[^"]*"/g, 'EPISODES').split(',');
    return Object.fromEntries(names.map((n, i) => [n, cells[i] ?? '']));
  });
}

describe('sweep --find over workers of capacity-storm.yaml', () => {
  it('the CSV marks a storm before the pause and a backlog that outlived the load in words, and finds 150 workers', () => {
    const r = cli([...SWEEP, '--format', 'csv']);
    expect(r.status, r.stderr).toBe(0);
    const csv = rows(r.stdout);
    expect(csv.map((x) => x['param_service.capacity.workers'])).toEqual(['20', '100', '140', '150', '160']);
    expect(csv.map((x) => x['recovery.pause'])).toEqual(['stormed_before', 'not_recovered', 'recovered', 'recovered', 'recovered']);
    expect(csv.map((x) => x['found'])).toEqual(['false', 'false', 'false', 'true', 'true']);
    // Every backlog is a number (never an empty cell), and the storms' are long: no filter on it passes them.
    for (const x of csv) expect(Number(x['backlog_cleared_ms.pause'])).toBeGreaterThan(30_000);
    expect(Number(csv[0]?.['backlog_cleared_ms.pause'])).toBeGreaterThan(60_000);
    expect(Number(csv[2]?.['backlog_cleared_ms.pause'])).toBeGreaterThan(60_000);
    expect(Number(csv[3]?.['backlog_cleared_ms.pause'])).toBeLessThanOrEqual(60_000);
    expect(csv[0]?.['stable']).toBe('false');
  });

  it('the table says the answer, and the SVG draws the recovery with its marks and --find\'s bound', () => {
    const table = cli(SWEEP);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toContain('found: least service.capacity.workers with backlog_cleared_ms.pause<=60s: 150 (and every value above it)');
    expect(table.stdout).toMatch(/│ 20 +│.*│ +stormed before │.*│ no +│/);
    expect(table.stdout).toMatch(/│ 100 +│.*│ +not recovered │.*│ no +│/);
    expect(table.stdout).toContain("replay: idem-sim sweep scenarios/capacity-storm.yaml --vary service.capacity.workers=20,100,140,150,160 --seed 1 --find 'backlog_cleared_ms.pause<=60s'");
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-recovery-'));
    const svg = cli([...SWEEP, '--svg', '--out', join(dir, 'r.svg')]);
    expect(svg.status, svg.stderr).toBe(0);
    const text = readFileSync(join(dir, 'r.svg'), 'utf8');
    expect(text).toContain('Backlog cleared after pause');
    expect(marks(text, 'recovery0_points')).toBe(5);
    expect(marks(text, 'recovery0_bound')).toBe(1);
    for (const words of ['stormed before the incident', 'not recovered before the load ended', 'found: least service.capacity.workers']) expect(text).toContain(words);
  });

  it('--metric takes an alert\'s recovery; --series judges it on finer buckets, and the same sweep sharded merges to the same bytes', () => {
    const args = [...SWEEP, '--metric', 'alerts.timeouts.recovery_ms.pause', '--format', 'json'];
    const minute = cli(args);
    expect(minute.status, minute.stderr).toBe(0);
    expect(minute.stderr).toContain('alerts.timeouts.recovery_ms.pause is judged on 1-minute buckets');
    const fine = cli([...args, '--series', '5s']);
    expect(fine.status, fine.stderr).toBe(0);
    expect(fine.stderr).not.toContain('judged on 1-minute buckets');
    type Doc = { find: { answers: { least: number }[] }; points: { alerts: { recovery_ms: Record<string, number | null> }[] }[] };
    const recovery = (d: Doc) => d.points.map((p) => p.alerts[0]?.recovery_ms['pause'] ?? null);
    const [m, f] = [JSON.parse(minute.stdout) as Doc, JSON.parse(fine.stdout) as Doc];
    expect(m.find.answers[0]?.least).toBe(150);
    // The pause ends at 10.5 min: on minute buckets a firing ends on a minute, 30 s past a multiple of the step from it.
    const offMinute = (v: number | null) => v !== null && v > 0 && (v - 30_000) % 60_000 !== 0;
    expect(recovery(m).filter(offMinute)).toEqual([]);
    expect(recovery(f).filter(offMinute).length).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-recovery-'));
    for (const i of [1, 2]) expect(cli([...args, '--series', '5s', '--shard', `${i}/2`, '--out', join(dir, `p${i}.json`)]).status).toBe(0);
    const merged = cli(['merge', join(dir, 'p1.json'), join(dir, 'p2.json'), '--format', 'json']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toBe(fine.stdout);
  });

  it('refuses a reading no point can have, with the fix', () => {
    const incident = cli(['sweep', STORM, '--vary', 'service.capacity.workers=20,30', '--find', 'backlog_cleared_ms.gc<=60s']);
    expect(incident.status).toBe(2);
    expect(incident.stderr).toMatch(/^idem-sim: error: --find backlog_cleared_ms\.gc<=60s: backlog_cleared_ms\.gc names the incident "gc", which the scenario does not have\. Use one of the incidents' names: pause\./);
    const plain = cli(['sweep', 'scenarios/mission-1-blind-retries.yaml', '--vary', 'client.timeout=1s,2s', '--metric', 'stable']);
    expect(plain.status).toBe(2);
    expect(plain.stderr).toMatch(/stable is a reading of the workers' saturation.*Set service\.capacity/);
    const unit = cli(['sweep', STORM, '--vary', 'service.capacity.workers=20,30', '--find', 'backlog_cleared_ms.pause<=60']);
    expect(unit.status).toBe(2);
    expect(unit.stderr).toMatch(/has no unit, but backlog_cleared_ms\.pause is a time/);
    const agent = cli(['sweep', 'scenarios/agents/support-agent.yaml', '--vary', 'defaults.client.timeout=1s,2s', '--find', 'stable==true']);
    expect(agent.status).toBe(2);
    expect(agent.stderr).toMatch(/applies to a scenario's sweep, and this is an agent file/);
    for (const r of [incident, plain, unit, agent]) expect(r.stdout).toBe('');
  });
});
