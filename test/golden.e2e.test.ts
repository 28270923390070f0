/**
 * Golden outputs: the tables, JSON, CSV, HTML, SVG and JUnit of a fixed set of commands
 * (test/golden/commands.json) equal, byte for byte, the files committed in test/golden/. They
 * were taken from the code before the hardening and the restructuring, which must not change a
 * number or a byte; an intended change of output regenerates them with scripts/golden.mjs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from './helpers.js';

interface Step { name: string; args: string[]; status?: number; keep?: string; setup?: boolean }

const GOLDEN = join(ROOT, 'test', 'golden');
const { steps } = JSON.parse(readFileSync(join(GOLDEN, 'commands.json'), 'utf8')) as { steps: Step[] };
const tmp = mkdtempSync(join(tmpdir(), 'idem-sim-golden-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('golden outputs', () => {
  // In order: setup steps write the files later steps read.
  for (const step of steps) {
    it(`${step.name}: idem-sim ${step.args.join(' ')}`, () => {
      const r = spawnSync(process.execPath, [BIN, ...step.args.map((a) => a.replaceAll('{tmp}', tmp))], {
        cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 28,
      });
      expect(r.status, r.stderr).toBe(step.status ?? 0);
      if (step.setup) return;
      const text = (step.keep ? readFileSync(join(tmp, step.keep), 'utf8') : r.stdout).replaceAll(tmp, '{tmp}');
      const want = readFileSync(join(GOLDEN, `${step.name}.out`), 'utf8');
      // toBe on long strings prints a diff; the length first makes a truncation obvious.
      expect(text.length).toBe(want.length);
      expect(text).toBe(want);
    });
  }
});
