/**
 * For the signal tests only: with IDEM_SIM_TEST_PAUSE=<point>:<file>, the process stops at that
 * point (synchronously, as the code around it runs) after saying so on standard error, and goes
 * on once `file` exists, so a test can send a signal at that exact moment. A test sends the
 * signal, then creates the file: the signal is pending before the process sees the file.
 * Unset, or set to another point, it costs one lookup. It waits at most MAX_PAUSE_MS.
 */
import { existsSync, writeSync } from 'node:fs';

const MAX_PAUSE_MS = 60_000;
const STEP_MS = 5;

/** Where a test may pause: the launcher listening, before the program loads; an output just committed; the outcome settled (main returned). */
export type PausePoint = 'listening' | 'committed' | 'settled';

export function pauseForTest(point: PausePoint): void {
  const asked = process.env['IDEM_SIM_TEST_PAUSE'];
  if (asked === undefined || !asked.startsWith(`${point}:`)) return;
  const go = asked.slice(point.length + 1);
  writeSync(2, `idem-sim: test pause at ${point}\n`);
  const sleep = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited < MAX_PAUSE_MS && !existsSync(go); waited += STEP_MS) Atomics.wait(sleep, 0, 0, STEP_MS);
}
