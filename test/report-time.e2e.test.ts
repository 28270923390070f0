/**
 * `idem-sim report` over time (issue 15, item 5), through the binary: --at centres the action
 * timeline on a time of the run (without it, on the first incident's start: issue 21, item 12), a time past the run's end is refused before anything is
 * simulated, and the replay line carries --series and --at and gives the same page again.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_ACTIONS } from '../src/engine/plan.js';
import { cli, SLOWDOWN_YAML, withoutNotes } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-report-time-'));
const SCENARIO = join(dir, 'slowdown.yaml');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(SCENARIO, SLOWDOWN_YAML);

/** A clock() time of a story ("7 min 0.123 s", "59.120 s", "12 ms") in ms. */
function ms(text: string): number {
  const m = /^(?:(\d+) min )?([\d.]+) (s|ms)$/.exec(text);
  if (!m) throw new Error(`not a story time: ${text}`);
  return Number(m[1] ?? 0) * 60_000 + Number(m[2]) * (m[3] === 's' ? 1000 : 1);
}

/** Each timeline row's action number and arrival (ms of the run), read from the rows' stories. */
function rows(html: string): { action: number; arrival: number }[] {
  return [...html.matchAll(/<g class="row[^"]*" data-row="\d+" tabindex="0"><title>(?:Action #(\d+)|The twin of action #(\d+))[^<]*?arrived (.+?) into the run/g)]
    .map((m) => ({ action: Number(m[1] ?? m[2]), arrival: ms(m[3] as string) }));
}

function report(args: string[]): { status: number; stdout: string; stderr: string } {
  return cli(['report', SCENARIO, '--threads', '1', ...args]);
}

describe('report --at', () => {
  it('centres the timeline on the time: its rows arrive within seconds of it, before and after, numbered in the run', () => {
    const centred = report(['--at', '7m']);
    expect(withoutNotes(centred.stderr)).toBe('');
    expect(centred.status).toBe(0);
    const near = rows(centred.stdout);
    expect(near.length).toBeGreaterThan(20); // enough rows to see the centring (how many are eventful varies with the stream)
    // 256 groups at 50/s span about 5 s: every row within 10 s of 7 min, on both sides of it.
    for (const r of near) expect(Math.abs(r.arrival - 420_000)).toBeLessThan(10_000);
    expect(near.some((r) => r.arrival < 420_000)).toBe(true);
    expect(near.some((r) => r.arrival > 420_000)).toBe(true);
    // 7 min is in the run's second chunk: its actions are numbered after the first chunk's.
    for (const r of near) expect(r.action).toBeGreaterThan(CHUNK_ACTIONS);
    expect(centred.stdout).toMatch(/of the \d+ actions arriving nearest 7 min into the run \(from 6 min 5\d\.\d{3} s to 7 min \d\.\d{3} s\)/);
    // The charts mark where the timeline is centred.
    expect(centred.stdout).toContain('data-at-ms="420000"');

  });

  it('without --at, centres the timeline on the first incident\'s start and says so; without incidents, the first chunk', () => {
    const page = report([]).stdout;
    const near = rows(page);
    expect(near.length).toBeGreaterThan(30);
    // The slowdown starts at 4 min: every row within 10 s of it, on both sides of it.
    for (const r of near) expect(Math.abs(r.arrival - 240_000)).toBeLessThan(10_000);
    expect(near.some((r) => r.arrival < 240_000) && near.some((r) => r.arrival > 240_000)).toBe(true);
    expect(page).toMatch(/of the \d+ actions arriving nearest 4 min into the run \(from [^)]*\), when the first incident, slowdown, starts \(the centre without --at; --at TIME moves it\)\./);
    expect(page).toContain('data-at-ms="240000"');
    // A run without incidents: the run's first chunk, from its start.
    const first = rows(cli(['report', '--actions', '3000', '--threads', '1']).stdout);
    expect(Math.max(...first.map((r) => r.arrival))).toBeLessThan(6 * 60_000);
    expect(Math.min(...first.map((r) => r.action))).toBeLessThan(100);
  });

  it('a time past the run\'s end: exit 2, one paragraph naming --at and the fix, no page written', () => {
    const out = join(dir, 'late.html');
    const r = report(['--at', '20m', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^idem-sim: error: --at 20m: is past the run's end: its primaries arrive in the first 10m \(load\.duration\).*Give --at a time from 0 to 10m, such as --at 4m \(the start of slowdown\)/);
    expect(existsSync(out)).toBe(false);
  });

  it('a time without its unit, or not a time: exit 2 naming --at', () => {
    for (const bad of ['7', 'soon']) {
      const r = report(['--at', bad]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^idem-sim: error: --at ${bad}: `));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('--svg: the timeline alone, centred, its caption the replay line', () => {
    const r = report(['--at', '7m', '--svg']);
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('<svg xmlns="http://www.w3.org/2000/svg" class="timeline"')).toBe(true);
    expect(r.stdout).toContain(`idem-sim report ${SCENARIO} --seed 1 --at 7m --svg`);
    for (const row of rows(r.stdout)) expect(Math.abs(row.arrival - 420_000)).toBeLessThan(10_000);
  });
});

describe('report --series', () => {
  it('is in the replay line with --at, and the replay line gives the same page byte for byte', () => {
    const out = join(dir, 'page.html');
    const r = report(['--series', '30s', '--at', '7m', '--out', out]);
    expect(r.status).toBe(0);
    const page = readFileSync(out, 'utf8');
    const line = /<dt>reproduce<\/dt><dd><code>([^<]+)<\/code><\/dd>/.exec(page)?.[1];
    expect(line).toBe(`idem-sim report ${SCENARIO} --seed 1 --series 30s --at 7m`);
    expect(page).toContain('in buckets of 30 s');
    const again = cli([...(line as string).split(' ').slice(1), '--threads', '2']);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(page);
  });

  it('a scenario with an incident is drawn over time without --series (1-minute buckets); one without time keys only with it', () => {
    const page = report([]).stdout;
    expect(page).toContain('<h2>Over time</h2>');
    expect(page).toContain('data-series="conflicts_409"');
    expect(page).toContain('in buckets of 1 min');
    expect(page).toContain('<tr data-alert-row="conflicts">');
    const plain = cli(['report', '--actions', '2000', '--threads', '1']);
    expect(plain.stdout).not.toContain('Over time');
    const asked = cli(['report', '--actions', '2000', '--threads', '1', '--series', '10s']);
    expect(asked.stdout).toContain('<h2>Over time</h2>');
    expect(asked.stdout).toContain('idem-sim report --actions 2000 --seed 1 --series 10s');
  });

  it('a step of no unit, or one that needs too many buckets: exit 2 naming --series', () => {
    for (const bad of ['60', '1ms']) {
      const r = report(['--series', bad]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^idem-sim: error: --series ${bad}: `));
    }
  });
});
