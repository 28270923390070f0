// The one core the benchmarks run the processes they compare on (not a test): `taskset -c`, where it
// is. This host's two cores have run the same process at speeds up to 1.7x apart for minutes at a
// time (another tenant on one of them: docs/performance.md, "Measuring on this host"), so two
// processes compared while each ran on its own core measured the cores. bench.js runs numpy and
// the lab cases in turns on it, compare.js the two builds.
import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';

/** The last core, or null where `taskset` does not run (each process then runs where the system puts it). */
export const PIN = await (async () => {
  const core = os.cpus().length - 1;
  try {
    await promisify(execFile)('taskset', ['-c', String(core), 'true']);
    return core;
  } catch {
    return null;
  }
})();

/** `file` with `args` in a process of its own, on PIN's core when `pinned`; its stdout. */
export async function exec(file, args, pinned = false) {
  const [cmd, ...rest] = pinned && PIN !== null ? ['taskset', '-c', String(PIN), file, ...args] : [file, ...args];
  return (await promisify(execFile)(cmd, rest, { encoding: 'utf8' })).stdout;
}
