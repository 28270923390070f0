/**
 * The lab page's Web Worker: the engine (engine.ts) behind messages, so a run never blocks the
 * page. Built for the browser by scripts/build-lab.mjs into dist/lab/engine.js.
 */
import { labError, labLoad, labRun } from './engine.js';
import type { LabReply, LabRequest } from './protocol.js';

interface WorkerScope {
  onmessage: ((event: { data: LabRequest }) => void) | null;
  postMessage(reply: LabReply): void;
}

const scope = globalThis as unknown as WorkerScope;

scope.onmessage = ({ data }) => {
  try {
    scope.postMessage(data.kind === 'load' ? labLoad(data, data.id) : labRun(data));
  } catch (e) {
    scope.postMessage({ kind: 'error', id: data.id, error: labError(e) });
  }
};
