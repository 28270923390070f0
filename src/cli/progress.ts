/** A progress bar on stderr for runs that take more than a moment; only on a terminal. */
import cliProgress from 'cli-progress';

/** Shown only once a run has taken this long, so quick runs stay quiet. */
const QUIET_MS = 500;

export type ProgressFn = (done: number, total: number) => void;

export function progressBar(stream: NodeJS.WritableStream & { isTTY?: boolean }, label: string): { update: ProgressFn; stop: () => void } {
  if (!stream.isTTY) return { update: () => undefined, stop: () => undefined };
  const started = Date.now();
  let bar: cliProgress.SingleBar | undefined;
  return {
    update: (done, total) => {
      if (!bar) {
        if (Date.now() - started < QUIET_MS) return;
        bar = new cliProgress.SingleBar({
          stream, format: `${label} {bar} {percentage}% | {value}/{total} actions | ETA {eta_formatted}`,
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
