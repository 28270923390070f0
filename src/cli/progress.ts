/** A progress bar on stderr for runs that take more than a moment; only on a terminal. */
import { createRequire } from 'node:module';
import type cliProgressTypes from 'cli-progress';

/** Shown only once a run has taken this long, so quick runs stay quiet. */
const QUIET_MS = 500;

export type ProgressFn = (done: number, total: number) => void;

export function progressBar(stream: NodeJS.WritableStream & { isTTY?: boolean }, label: string, unit = 'actions'): { update: ProgressFn; stop: () => void } {
  if (!stream.isTTY) return { update: () => undefined, stop: () => undefined };
  const started = Date.now();
  let bar: cliProgressTypes.SingleBar | undefined;
  return {
    update: (done, total) => {
      if (!bar) {
        if (Date.now() - started < QUIET_MS) return;
        // Loaded only when a bar is shown: it pulls in readline, which slows every start.
        const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressTypes;
        bar = new cliProgress.SingleBar({
          stream, format: `${label} {bar} {percentage}% | {value}/{total} ${unit} | ETA {eta_formatted}`,
          hideCursor: true, clearOnComplete: true,
        }, cliProgress.Presets.shades_classic);
        bar.start(total, 0);
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop: () => bar?.stop(),
  };
}
