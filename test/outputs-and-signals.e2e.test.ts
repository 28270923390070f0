/**
 * Signals (hardening): SIGINT, SIGTERM and SIGHUP stop every long command with 130 / 143 / 129,
 * nothing written and no temporary file left.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, removeScratch, scratch } from './helpers.js';

afterEach(removeScratch);

/** Starts a command, sends `signal` once it has been running for `afterMs`, and waits for it. */
async function stopWith(args: string[], signal: NodeJS.Signals, afterMs: number, cwd: string) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => { stderr += String(d); });
  child.stdout.on('data', (d) => { stdout += String(d); });
  await new Promise((r) => setTimeout(r, afterMs));
  child.kill(signal);
  const code = await new Promise<number | null>((r) => child.on('close', r));
  return { code, stderr, stdout };
}

const EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

describe('signals stop every long command cleanly', () => {
  const long = 'actions: 1e9\n';
  const commands: [string, string[]][] = [
    ['run', ['run', 's.yaml', '--out', 'out.json', '--json']],
    ['sweep', ['sweep', 's.yaml', '--vary', 'client.timeout=1s,2s', '--out', 'out.csv', '--format', 'csv']],
    ['check', ['check', 's.yaml', '--out', 'out.txt', '--junit', 'j.xml']],
    ['report', ['report', 's.yaml', '--out', 'out.html']],
    ['size', ['size', 's.yaml', '--rate', '10']],
    // Time: a month of arrivals at 1000/s (2.6 * 10^9 actions), counted into series and alerts.
    ['run (time)', ['run', 't.yaml', '--series', '1h', '--format', 'csv', '--out', 'out.csv']],
  ];
  const timed = 'load: {duration: 30d, rate_per_s: 1000}\nincidents: [{name: w, from: 1d, to: 2d, service: {latency_multiplier: 3}}]\nalerts: [{name: slow, metric: timeouts, above: 1}]\n';
  for (const sig of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    for (const [name, args] of commands) {
      it(`${name} on ${sig}: exit ${EXIT[sig]}, nothing written, no temporary file`, async () => {
        const dir = scratch();
        const input = args[1] as string;
        writeFileSync(join(dir, input), name === 'check' ? `${long}expect:\n  duplicates_per_1000: "< 1000"\n` : input === 't.yaml' ? timed : long);
        const r = await stopWith(args, sig, 900, dir);
        expect(r.code, r.stderr).toBe(EXIT[sig]);
        expect(r.stderr).toContain(`interrupted by ${sig}; nothing was written`);
        expect(r.stdout).toBe('');
        expect(readdirSync(dir)).toEqual([input]);
      });
    }
  }

  it('an --out file that exists keeps its bytes when a signal stops the run', async () => {
    for (const [sig, args] of [['SIGTERM', ['run', 's.yaml', '--json', '--out', 'out.json']], ['SIGHUP', ['report', 's.yaml', '--out', 'out.json']]] as const) {
      const dir = scratch();
      writeFileSync(join(dir, 's.yaml'), long);
      writeFileSync(join(dir, 'out.json'), 'the previous results\n');
      const r = await stopWith([...args], sig, 900, dir);
      expect(r.code, r.stderr).toBe(EXIT[sig]);
      expect(readFileSync(join(dir, 'out.json'), 'utf8')).toBe('the previous results\n');
      expect(readdirSync(dir).sort()).toEqual(['out.json', 's.yaml']);
    }
  });

  it('a second signal ends the run at once, its temporary file removed', async () => {
    for (let round = 0; round < 5; round++) {
      const dir = scratch();
      const child = spawn(process.execPath, [BIN, 'run', '--actions', '2e8', '--threads', '2', '--out', 'o.json'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => { stderr += String(d); });
      await new Promise((r) => setTimeout(r, 800));
      child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 5));
      child.kill('SIGINT');
      const code = await new Promise<number | null>((r) => child.on('close', r));
      expect(code, stderr).toBe(130);
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});
