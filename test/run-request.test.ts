/**
 * `run`'s request, made once (exec/runner.ts RunAsk and RunRequest) and checked, for every file,
 * before any run starts: a split a coupled run cannot take, and what the run asks of time; and
 * the grid a request's run is sized for (engine/grid.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gridCellsFor, gridStepFor, runGrid } from '../src/engine/grid.js';
import { Interrupted } from '../src/exec/interrupted.js';
import { InputError } from '../src/scenario/errors.js';
import { command } from './command-line.js';
import { parseRunnable } from './helpers.js';
import { capturingIo } from './merge-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-run-request-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scenarioFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const PLAIN = 'actions: 20000\nload: {rate_per_s: 50}\n';
const COUPLED = `${PLAIN}service:\n  capacity: {workers: 30}\n`;

/** Rejects with what `run ARGS` throws when it is stopped from the start: the first run to begin would throw Interrupted. */
async function stoppedRun(args: string[]): Promise<unknown> {
  const stopped = new AbortController();
  stopped.abort();
  return command(['run', ...args], capturingIo(), stopped.signal).then(() => undefined, (err: unknown) => err);
}

describe("run's request", () => {
  it('refuses a coupled file\'s split before the first file runs: the refusal, not the stop a run would see first', async () => {
    const [plain, coupled] = [scenarioFile('plain.yaml', PLAIN), scenarioFile('coupled.yaml', COUPLED)];
    for (const option of [['--shard', '1/2'], ['--precision', '5']]) {
      const e = await stoppedRun([plain, coupled, ...option]);
      expect(e).not.toBeInstanceOf(Interrupted);
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).message).toMatch(/coupled\.yaml:4:3, key service\.capacity: with service\.capacity set/);
    }
  });

  it('checks what the third file asks of time before the first runs', async () => {
    const plain = scenarioFile('plain.yaml', PLAIN);
    const timed = scenarioFile('timed.yaml', 'load: {rate_per_s: 50, duration: 10m}\n');
    const e = await stoppedRun([plain, plain, timed, '--precision', '5']);
    expect(e).not.toBeInstanceOf(Interrupted);
    expect((e as InputError).message).toMatch(/^--precision, key load\.duration: cannot be combined with load\.duration/);
  });

  it('sizes a precision run\'s grid for 10^9 actions or 1/256 of its limit, and any other run\'s for all its actions, capped at 16 times its cells', () => {
    const s = parseRunnable(PLAIN);
    for (const [total, precise, sizedFor] of [[1e8, true, 1e8], [1e11, true, 1e9], [1e12, true, 1e12 / 256], [1e12, false, 1e12]] as const) {
      const step = gridStepFor(s, sizedFor);
      const cells = gridCellsFor(s, sizedFor, step);
      // A precision run's grid grows as the run goes on (docs/model-decisions.md): no cap.
      expect(runGrid(s, total, precise)).toEqual({ step, cells, cap: precise ? Infinity : 16 * cells });
    }
  });
});
