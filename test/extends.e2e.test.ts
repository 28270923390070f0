/** `extends:` through the real binary: `run` and `check` on a file that starts from another, and the refusals (exit 2, one paragraph). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, withoutNotes } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-extends-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (file: string, text: string): void => { mkdirSync(dirname(join(dir, file)), { recursive: true }); writeFileSync(join(dir, file), text); };

write('lib/lat.txt', '120\n250\n900\n');
write('lib/base.yaml', [
  'description: the refund service as measured', 'seed: 7',
  'service:', '  latency: {dist: empirical, file: lat.txt}',
  'client: {timeout: 2s, retries: 2}',
  'expect:', '  lost_per_1000: "== 0"', '',
].join('\n'));
write('refund-intent.yaml', 'extends: lib/base.yaml\nactions: 400\nidempotency: {scope: intent}\nclient: {retries: 1}\n');

describe('run and check on a file that extends another', () => {
  it('runs the merged scenario: the base\'s keys and data file (read beside the base), this file\'s on top, the base\'s seed', () => {
    const r = cli(['run', 'refund-intent.yaml', '--json'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const [run] = JSON.parse(r.stdout).results as { seed: string; scenario: Record<string, Record<string, unknown>> }[];
    expect(run?.seed).toBe('7');
    expect(run?.scenario['client']).toMatchObject({ timeout: 2000, retries: 1 });
    expect(run?.scenario['idempotency']).toMatchObject({ scope: 'intent' });
    expect(run?.scenario['service']?.['latency']).toEqual({ dist: 'empirical', file: 'lat.txt' });
    expect(withoutNotes(r.stderr)).toBe('');
  });

  it('check holds the file to the base\'s expectations', () => {
    const r = cli(['check', 'refund-intent.yaml'], { cwd: dir });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('lost_per_1000');
  });

  it('an error in the base names the base\'s file and line; a cycle prints the chain', () => {
    write('lib/broken.yaml', 'idempotency: {scope: intent}\nclient:\n  timeout: 2\n');
    write('uses-broken.yaml', 'extends: lib/broken.yaml\n');
    const broken = cli(['run', 'uses-broken.yaml'], { cwd: dir });
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/^idem-sim: error: lib\/broken\.yaml:3:12, key client\.timeout: /);
    write('a.yaml', 'extends: b.yaml\n');
    write('b.yaml', 'extends: a.yaml\n');
    const cycle = cli(['run', 'a.yaml'], { cwd: dir });
    expect(cycle.status).toBe(2);
    expect(cycle.stderr).toContain('b.yaml:1:10, key extends: comes back to a file already in the chain: a.yaml -> b.yaml -> a.yaml');
    expect(cycle.stderr.trimEnd()).not.toMatch(/\n/);
  });
});
