/**
 * The note of the lab values a scenario runs on without writing them (2% lost replies, 60%
 * re-plans): run, sweep, check, report and size, the commands that simulate a scenario file and
 * print what it gave, say it on stderr, once a file, after their report; the report
 * on stdout is the same with or without it; a file that writes the keys, and the built-in
 * defaults asked for with no file, get none; a command that fails says none.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { command } from './command-line.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-lab-note-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** `idem-sim ARGS...` in this process: its status (or the error it threw) and what it wrote. */
async function cli(args: string[]): Promise<{ status: number | Error; stdout: string; stderr: string }> {
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const status = await command(args, { stdout, stderr, env: { NO_COLOR: '1' } }).catch((e: Error) => e);
  return { status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

const PAY = 'actions: 300\nidempotency: {scope: intent}\nexpect: {lost_per_1000: "<= 1000"}\n';
const WRITTEN = `${PAY}network: {reply_loss: 0.02}\nagent: {replan_probability: 0.6}\n`;
const NOTE = /^idem-sim: note: \S+pay\.yaml runs on the guide's lab values of network\.reply_loss 0\.02 \(chance a reply is lost\) and agent\.replan_probability 0\.6 \(chance the model re-issues a failed call\), built-in defaults it does not write\. Write them in the scenario to keep or change them \(such as network\.reply_loss: 0\.02, which keeps the value\) and this note ends; idem-sim explain \S+pay\.yaml shows where every key comes from\.$/;

describe('the note of the lab values a scenario inherits', () => {
  const pay = file('pay.yaml', PAY);
  const written = file('written.yaml', WRITTEN);

  it('run: one line on stderr naming both keys and how to keep them; stdout as for the file that writes them', async () => {
    const noted = await cli(['run', pay, '--json']);
    const quiet = await cli(['run', written, '--json']);
    expect(noted.status).toBe(0);
    expect(noted.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(NOTE)]);
    expect(quiet).toMatchObject({ status: 0, stderr: '' });
    // The same run: only the file's name differs in the JSON.
    expect(noted.stdout.replaceAll(pay, 'F').replaceAll('"pay"', '"N"')).toBe(quiet.stdout.replaceAll(written, 'F').replaceAll('"written"', '"N"'));
  });

  it('run: not for the built-in defaults, which are the lab asked for; once a file, after the report', async () => {
    expect((await cli(['run', '--actions', '200'])).stderr).toBe('');
    const two = await cli(['run', pay, written, pay]);
    expect(two.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('check and sweep say it too; a sweep leaves out the key it varies, which every point writes', async () => {
    const check = await cli(['check', pay]);
    expect(check.status).toBe(0);
    expect(check.stderr.trim()).toMatch(NOTE);
    expect((await cli(['check', written])).stderr).toBe('');
    const sweep = await cli(['sweep', pay, '--vary', 'network.reply_loss=0,0.05', '--format', 'csv']);
    expect(sweep.status).toBe(0);
    expect(sweep.stderr.trim()).toMatch(/^idem-sim: note: \S+pay\.yaml runs on the guide's lab value of agent\.replan_probability 0\.6 \(chance the model re-issues a failed call\), built-in default it does not write\. Write it in the scenario/);
  });

  it('report and size say it too', async () => {
    const report = await cli(['report', pay, '--out', join(dir, 'pay.html')]);
    expect(report.status).toBe(0);
    expect(report.stderr.trim()).toMatch(NOTE);
    const size = await cli(['size', pay]);
    expect(size.status).toBe(0);
    expect(size.stderr.trim()).toMatch(NOTE);
    expect((await cli(['size', written])).stderr).toBe('');
  });

  it('check that fails (a file with no goals, an invalid file) ends with its errors: no note after them', async () => {
    const none = await cli(['check', file('no-goals.yaml', 'actions: 300\n')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^idem-sim: error: \S+no-goals\.yaml, key expect: has no expectations to check\. [^\n]*\n$/);
    const invalid = await cli(['check', pay, file('invalid.yaml', 'client: {timeout: 2}\n')]);
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toMatch(/^idem-sim: error: \S+invalid\.yaml:1:19, key client\.timeout: [^\n]*\n$/);
  });

  it('a command that fails says none: its error is the whole of stderr', async () => {
    // The first file read, the second refused; a point of the sweep refused after the first.
    for (const args of [['run', pay, file('bad.yaml', 'client: {timeout: 2}\n')], ['sweep', pay, '--vary', 'client.timeout=1s,0'], ['check', pay, '--set', 'runtime.max_replays=x']]) {
      const r = await cli(args);
      expect(r.status, args.join(' ')).toBeInstanceOf(Error);
      expect(r.stderr, args.join(' ')).toBe('');
    }
  });
});
