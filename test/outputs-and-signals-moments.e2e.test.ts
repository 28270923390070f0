/**
 * Signals at the exact moments where the exit status and the output could disagree (the real
 * binary): while the program loads, just after an output is committed, and once the outcome is
 * settled while the process winds down. Each moment is reached with the test pause
 * (src/io/test-pause.ts): the process stops there, the test sends the signal and then lets it
 * go on, so the signal is pending at that very point. Then, over many timings, the invariant:
 * the output is whole with exit 0, or absent with 130 / 143 / 129, never anything else.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, removeScratch, scratch } from './helpers.js';

afterEach(removeScratch);

const EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type Sig = keyof typeof EXIT;
const SIGNALS = Object.keys(EXIT) as Sig[];

interface Ended { code: number | null; killedBy: NodeJS.Signals | null; stdout: string; stderr: string }

/** Starts idem-sim in `cwd`; `paused` resolves once the process says it paused at `pause` (`point:go-file`). */
function start(args: string[], cwd: string, pause?: string): { child: ReturnType<typeof spawn>; paused: Promise<void>; ended: Promise<Ended> } {
  const env = { ...process.env, NO_COLOR: '1', ...(pause ? { IDEM_SIM_TEST_PAUSE: pause } : {}) };
  const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  let onPause = (): void => undefined;
  const paused = new Promise<void>((resolve) => { onPause = resolve; });
  child.stdout.on('data', (d) => { stdout += String(d); });
  child.stderr.on('data', (d) => {
    stderr += String(d);
    if (stderr.includes('idem-sim: test pause at ')) onPause();
  });
  const ended = new Promise<Ended>((resolve) => child.on('close', (code, killedBy) => resolve({ code, killedBy, stdout, stderr })));
  return { child, paused, ended };
}

/**
 * Pauses the command at `point`, sends `sig` there, lets it go on, and waits for its end.
 * `holdStdout`: standard output is not read until then, so what the command wrote to it waits in the pipe.
 */
async function signalAt(point: string, sig: Sig, args: string[], cwd: string, holdStdout = false): Promise<Ended> {
  const go = join(scratch(), 'go');
  const run = start(args, cwd, `${point}:${go}`);
  if (holdStdout) run.child.stdout?.pause();
  await Promise.race([run.paused, run.ended]);
  run.child.kill(sig);
  writeFileSync(go, ''); // after the signal: it is pending when the process sees this file
  run.child.stdout?.resume();
  return run.ended;
}

const SCENARIO = 'actions: 20000\n';

describe('a signal at the exact moment: the exit status and the output agree', () => {
  for (const sig of SIGNALS) {
    it(`${sig} while the program loads: exit ${EXIT[sig]}, nothing written`, async () => {
      const dir = scratch();
      writeFileSync(join(dir, 's.yaml'), SCENARIO);
      const r = await signalAt('listening', sig, ['run', 's.yaml', '--json', '--out', 'out.json'], dir);
      expect(r.killedBy, r.stderr).toBeNull();
      expect(r.code, r.stderr).toBe(EXIT[sig]);
      expect(r.stderr).toContain(`interrupted by ${sig}; nothing was written`);
      expect(readdirSync(dir)).toEqual(['s.yaml']);
    });

    for (const point of ['committed', 'settled']) {
      it(`${sig} once the output is ${point}: exit 0, the output whole`, async () => {
        const dir = scratch();
        writeFileSync(join(dir, 's.yaml'), SCENARIO);
        const r = await signalAt(point, sig, ['run', 's.yaml', '--json', '--out', 'out.json'], dir);
        expect(r.killedBy, r.stderr).toBeNull();
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'))).toMatchObject({ tool: 'idem-sim' });
        expect(readdirSync(dir).sort()).toEqual(['out.json', 's.yaml']);
      });
    }
  }

  it('every command that writes: a signal once its output is committed, or once settled, exits 0 with it whole', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 's.yaml'), SCENARIO);
    for (const shard of ['1/2', '2/2']) {
      expect((await start(['run', 's.yaml', '--shard', shard, '--out', `part-${shard[0]}.json`], dir).ended).code).toBe(0);
    }
    const commands: [string[], string][] = [
      [['report', 's.yaml', '--out', 'out.html'], '<!doctype html>'],
      [['lab', 's.yaml', '--out', 'out.html'], '<!doctype html>'],
      [['merge', 'part-1.json', 'part-2.json', '--json', '--out', 'out.json'], '{'],
      [['schema', '--out', 'out.json'], '{'],
    ];
    for (const [args, head] of commands) {
      for (const point of ['committed', 'settled']) {
        const r = await signalAt(point, 'SIGTERM', args, dir);
        expect([r.killedBy, r.code], `${args.join(' ')} at ${point}: ${r.stderr}`).toEqual([null, 0]);
        const out = args[args.length - 1] as string;
        expect(readFileSync(join(dir, out), 'utf8').startsWith(head)).toBe(true);
        expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      }
    }
  });

  it('a signal once settled waits for standard output to take the whole report (a pipe), then exits 0', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 's.yaml'), SCENARIO);
    const whole = await start(['lab', 's.yaml'], dir).ended;
    expect(whole.code).toBe(0);
    // The page (about 800 KB) is far more than a pipe holds (64 KB): most of it is still the process's to write.
    expect(whole.stdout.length).toBeGreaterThan(1 << 17);
    const r = await signalAt('settled', 'SIGINT', ['lab', 's.yaml'], dir, true);
    expect([r.killedBy, r.code], r.stderr).toEqual([null, 0]);
    expect(r.stdout.length).toBe(whole.stdout.length); // lengths first: a diff of two 800 KB pages says little
    expect(r.stdout === whole.stdout).toBe(true);
  });
});

describe('a signal at any moment: exit 0 with the output whole, or 130 / 143 / 129 with none', () => {
  it('over timings from the start of the process to its end', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 's.yaml'), SCENARIO);
    for (let round = 0; round < 24; round++) {
      const sig = SIGNALS[round % 3] as Sig;
      const run = start(['run', 's.yaml', '--json', '--out', 'out.json'], dir);
      await new Promise((r) => setTimeout(r, round * 40));
      run.child.kill(sig);
      const r = await run.ended;
      const files = readdirSync(dir).sort();
      const at = `${sig} at ${round * 40} ms: exit ${r.code}, killed by ${r.killedBy}: ${r.stderr}`;
      if (r.code === 0) {
        expect(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')), at).toMatchObject({ tool: 'idem-sim' });
        expect(files, at).toEqual(['out.json', 's.yaml']);
        rmSync(join(dir, 'out.json'));
      } else {
        // Killed by the signal's default action only before the launcher's first line (Node starting).
        expect(r.killedBy === sig || (r.killedBy === null && r.code === EXIT[sig]), at).toBe(true);
        expect(files, at).toEqual(['s.yaml']);
      }
    }
  });
});
