/**
 * Worker threads kept for the life of the process. A command that runs many scenarios (a
 * sweep's points, several files) starts each worker once, and the engine stays compiled in
 * it from one run to the next: starting and warming up a worker costs 0.1 to 0.2 s, more
 * than a small run takes. Idle workers are unreferenced, so they never keep the process alive.
 */
import { Worker } from 'node:worker_threads';

/**
 * Young-generation size of a worker's heap (MB). A worker's live data is a few MB; V8's
 * default young generation is larger than it needs and made most of the resident size of
 * a two-thread run of 10^9 actions (209 MB measured with the default).
 */
const YOUNG_MB = 8;

const idle: Worker[] = [];

function spawn(): Worker {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
  // A run listens for errors while it uses the worker; this keeps one that comes after the
  // run stopped listening (a second worker failing while the first is ended) from being thrown.
  worker.on('error', () => { /* the run that used it has already failed */ });
  worker.on('exit', () => {
    const k = idle.indexOf(worker);
    if (k >= 0) idle.splice(k, 1);
  });
  return worker;
}

/** `count` workers for one run: idle ones first, new ones for the rest. */
export function hire(count: number): Worker[] {
  const workers = idle.splice(0, count);
  while (workers.length < count) workers.push(spawn());
  for (const w of workers) w.ref();
  return workers;
}

/** Takes back workers that finished their run cleanly (listeners the run added removed). */
export function release(workers: Worker[]): void {
  for (const w of workers) {
    w.unref();
    idle.push(w);
  }
}
