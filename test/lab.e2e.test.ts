/**
 * `idem-sim lab` through the real binary: --out writes the page whole (its scripts inline), a
 * bad scenario or option is refused before any file is written, and on a terminal without
 * --out it writes lab.html and says where (the rule of `report`; a pty from util-linux `script`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, HAS_SCRIPT, onTerminal, ROOT } from './helpers.js';

/** The JSON the page carries for its script. */
const configOf = (html: string) => JSON.parse(/<script type="application\/json" id="lab-config">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null') as {
  version: string; start: { name: string; file: string | null; text: string; seed: string; overrides: { option: string }[] }; missions: { id: string }[];
};

describe('idem-sim lab', () => {
  it('--out writes one self-contained page with the engine and the missions inline', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-lab-'));
    const out = join(dir, 'x.html');
    const r = cli(['lab', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toBe('');
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!doctype html>[\s\S]*<title>idem-sim lab: lab-defaults<\/title>/);
    expect(html).toContain(readFileSync(join(ROOT, 'dist/browser/lab-engine.js'), 'utf8'));
    expect(html).toContain(readFileSync(join(ROOT, 'dist/browser/lab-ui.js'), 'utf8'));
    expect(statSync(out).size).toBeLessThan(2_000_000);
    const config = configOf(html);
    expect(config.start).toMatchObject({ name: 'lab-defaults', file: null, text: '', seed: '1' });
    expect(config.missions.map((m) => m.id)).toHaveLength(5);
    expect(readdirSync(dir)).toEqual(['x.html']);
  });

  it('starts from a scenario with its --set and --seed, named in the page\'s command', () => {
    const r = cli(['lab', 'scenarios/mission-2-slow-downstream.yaml', '--set', 'idempotency.scope=intent', '--seed', '5', '--out', '-']);
    expect(r.status, r.stderr).toBe(0);
    const config = configOf(r.stdout);
    expect(config.start).toMatchObject({ name: 'mission-2-slow-downstream', file: 'scenarios/mission-2-slow-downstream.yaml', seed: '5' });
    expect(config.start.overrides.map((o) => o.option)).toEqual(['--set idempotency.scope=intent']);
    expect(config.start.text).toBe(readFileSync(join(ROOT, 'scenarios/mission-2-slow-downstream.yaml'), 'utf8'));
  });

  it('refuses a bad scenario, --set or --seed as run does (exit 2, one message), and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-lab-bad-'));
    const out = join(dir, 'x.html');
    const cases: [string[], RegExp][] = [
      [['--set', 'idempotency.scpoe=intent'], /key idempotency\.scpoe: unknown key "scpoe". Did you mean `scope`\?/],
      [['--seed', ''], /--seed: the seed is empty/],
      [[join(dir, 'missing.yaml')], /missing\.yaml/],
    ];
    for (const [args, message] of cases) {
      const r = cli(['lab', ...args, '--out', out]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(existsSync(out)).toBe(false);
    }
    // As run says it.
    expect(cli(['lab', '--set', 'client.timeout=5', '--out', out]).stderr).toBe(cli(['run', '--set', 'client.timeout=5']).stderr);
  });

  it.runIf(HAS_SCRIPT)('on a terminal writes lab.html and says where; replaces its own; leaves another file alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-lab-tty-'));
    const first = onTerminal(['lab'], dir);
    expect(first.status, first.output).toBe(0);
    expect(first.output).not.toContain('<!doctype');
    expect(first.output).toMatch(new RegExp(`wrote ${join(dir, 'lab.html').replace(/[.]/g, '\\.')} \\(\\d+ KB\\) because standard output is a terminal`));
    expect(readFileSync(join(dir, 'lab.html'), 'utf8')).toMatch(/^<!doctype html>[\s\S]*<title>idem-sim lab: lab-defaults<\/title>/);
    expect(onTerminal(['lab'], dir).output).toContain('replacing an earlier one idem-sim wrote');
    writeFileSync(join(dir, 'lab.html'), 'my notes\n');
    const refused = onTerminal(['lab'], dir);
    expect(refused.status).toBe(2);
    expect(refused.output).toContain('was not written by idem-sim and is not replaced. Give --out FILE');
    expect(readFileSync(join(dir, 'lab.html'), 'utf8')).toBe('my notes\n');
    expect(readdirSync(dir)).toEqual(['lab.html']);
  });

  it('into a pipe sends the page to standard output and writes no file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-lab-pipe-'));
    const r = cli(['lab'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('<!doctype html>')).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });
});
