/**
 * A worker thread (see pool.ts): for each run it is sent, one lane of that run (lane.ts). It
 * simulates chunks until none is left, waits until every chunk it holds is confirmed or
 * dropped, and sends its sums once. With a precision target it also sends each chunk's
 * counter sums as it goes. An aborted run sends nothing (the first thread ends the worker).
 * Or it is sent a whole coupled run, which it runs alone (coupled-worker.ts).
 */
import { parentPort } from 'node:worker_threads';
import { runCoupledTask } from './coupled-worker.js';
import { ABORT, CONFIRMED, Lane, type LaneSpec, type WorkerMessage, type WorkerTask } from './lane.js';

/** The longest a blocked worker sleeps before looking at the control block again (ms). */
const NAP_MS = 50;

function runLane(spec: LaneSpec, post: (m: WorkerMessage) => void): void {
  const control = spec.control;
  const lane = new Lane(spec);
  /** Sleeps until the first thread moves the confirmed point or the stop (it wakes this slot then). */
  const nap = () => Atomics.wait(control, CONFIRMED, Atomics.load(control, CONFIRMED), NAP_MS);
  const aborted = () => Atomics.load(control, ABORT) !== 0;
  for (let plan = lane.claim(); plan && !aborted(); plan = lane.claim()) {
    while (lane.mustWait(plan) && !aborted()) nap();
    const totals = lane.run(plan);
    if (totals && spec.window > 0) post({ kind: 'chunk', totals });
    lane.settle();
  }
  while (lane.settle() > 0 && !aborted()) nap();
  if (!aborted()) post({ kind: 'done', state: lane.state.toData(), chunks: lane.chunks });
}

const port = parentPort;
port?.on('message', (task: WorkerTask) => {
  if (task.kind === 'lane') runLane(task.spec, (m) => port.postMessage(m));
  // A failure rejects the promise unhandled, which ends the worker with an 'error' its run hears.
  else void runCoupledTask(task, (m) => port.postMessage(m));
});
