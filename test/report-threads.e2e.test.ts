/**
 * Terminal rules through the real binary: `report` on a terminal writes report.html (a pty made
 * by util-linux `script`), into a pipe the page goes to stdout; `--threads` above the cores is
 * capped at them, saying so, and changes no byte.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, HAS_SCRIPT, onTerminal } from './helpers.js';

describe.runIf(HAS_SCRIPT)('report on a terminal', () => {
  it('writes report.html in the current directory and says where; again replaces it; refuses a file idem-sim did not write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-tty-'));
    const first = onTerminal(['report', '--actions', '2000'], dir);
    expect(first.status, first.output).toBe(0);
    expect(first.output).not.toContain('<!doctype');
    expect(first.output).toMatch(new RegExp(`wrote ${join(dir, 'report.html').replace(/[.]/g, '\\.')} \\(\\d+ KB\\) because standard output is a terminal`));
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!doctype html>[\s\S]*<title>idem-sim report: lab-defaults<\/title>/);
    expect(onTerminal(['report', '--actions', '2000'], dir).output).toContain('replacing an earlier one idem-sim wrote');
    writeFileSync(join(dir, 'report.html'), 'my notes\n');
    const refused = onTerminal(['report', '--actions', '2000'], dir);
    expect(refused.status).toBe(2);
    expect(refused.output).toContain('was not written by idem-sim and is not replaced. Give --out FILE');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe('my notes\n');
    expect(readdirSync(dir)).toEqual(['report.html']); // no temporary file left
    expect(onTerminal(['report', '--actions', '2000', '--out', '-'], dir).output).toContain('<!doctype html>');
    const svg = onTerminal(['report', '--actions', '2000', '--svg'], dir);
    expect(svg.output).toContain('timeline.svg');
    expect(readFileSync(join(dir, 'timeline.svg'), 'utf8')).toMatch(/^<svg /);
  });

  it('into a pipe the page goes to standard output and no file is written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-pipe-'));
    const r = cli(['report', '--actions', '2000'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('<!doctype html>')).toBe(true);
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });
});

describe('--threads above the cores', () => {
  it('is capped at the core count, with a warning naming what it used, and gives the same bytes', () => {
    const cores = availableParallelism();
    const args = ['run', 'scenarios/mission-2-slow-downstream.yaml', '--actions', '40000', '--json'];
    const over = cli([...args, '--threads', String(cores + 1)]);
    expect(over.status).toBe(0);
    expect(over.stderr).toContain(`--threads ${cores + 1} is more than this machine's ${cores === 1 ? '1 core' : `${cores} cores`}: using ${cores === 1 ? '1 thread' : `${cores} threads`}`);
    expect(over.stdout).toBe(cli([...args, '--threads', '1']).stdout);
  });
});
