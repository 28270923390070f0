/**
 * SIGINT, SIGTERM and SIGHUP, from the moment the launcher listens (its first step, before the
 * program loads) to the end of the process. The exit status and the output always agree:
 *   - while the command works, the first signal aborts its AbortSignal: the command removes its
 *     temporary files and store objects, writes nothing, and exits 128 + the signal's number
 *     (130, 143, 129); a second signal ends the process at once, its temporary files removed;
 *   - once the command's outcome is settled (its output committed, or its error reported), a
 *     signal changes nothing: the process exits at once with that outcome's status (0 with the
 *     output whole), after standard output has taken what was written to it.
 * An output is committed in one synchronous stretch that runs on to the command's end (no
 * signal is handled in between: handlers run between tasks), so no signal finds an output
 * written and the outcome not yet settled.
 */
import { abortPendingOutputs } from '../io/outputs.js';

/** The signals that stop a command cleanly, and their exit statuses (128 + the signal's number, as shells report it). */
export const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const satisfies Record<string, number>;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** Where the handlers write and how they end the process (the real process, or a test's). */
export interface SignalEdge {
  stdout: NodeJS.WritableStream & { writableLength?: number };
  stderr: NodeJS.WritableStream;
  exit: (code: number) => void;
}

const PROCESS_EDGE: SignalEdge = { stdout: process.stdout, stderr: process.stderr, exit: (code) => process.exit(code) };

export class StopSignals {
  private readonly controller = new AbortController();
  /** Aborted by the first signal that comes while the command works. */
  readonly signal: AbortSignal = this.controller.signal;
  /** That first signal. */
  stoppedBy: StopSignal = 'SIGINT';
  private settled: number | undefined;
  private flushing = false;
  private readonly listeners: (readonly [StopSignal, () => void])[];

  constructor(private readonly edge: SignalEdge = PROCESS_EDGE) {
    this.listeners = (Object.keys(STOP_SIGNALS) as StopSignal[]).map((sig) => {
      const listener = () => this.receive(sig);
      process.on(sig, listener);
      return [sig, listener] as const;
    });
  }

  /** The command's outcome is decided and `code` is its exit status: a signal from now on ends the process with it. */
  settle(code: number): void {
    this.settled = code;
  }

  /** Stops listening: for a caller that runs a command inside its own process (tests). */
  close(): void {
    for (const [sig, listener] of this.listeners) process.off(sig, listener);
  }

  private receive(sig: StopSignal): void {
    if (this.settled !== undefined) {
      this.end(sig, this.settled);
      return;
    }
    if (!this.signal.aborted) {
      this.stoppedBy = sig;
      this.controller.abort();
      return;
    }
    // A second signal: the user will not wait for the clean stop (a probe's clean-up).
    abortPendingOutputs();
    this.edge.stderr.write(`idem-sim: ${sig} again: stopping at once; nothing was written\n`);
    this.edge.exit(STOP_SIGNALS[sig]);
  }

  /** A signal after the outcome: exit with `code` once standard output has taken its bytes; a second one while it drains, at once. */
  private end(sig: StopSignal, code: number): void {
    if (this.flushing) {
      this.edge.stderr.write(`idem-sim: ${sig} again: stopping at once; standard output may be incomplete\n`);
      this.edge.exit(STOP_SIGNALS[sig]);
      return;
    }
    if ((this.edge.stdout.writableLength ?? 0) === 0) {
      this.edge.exit(code);
      return;
    }
    this.flushing = true;
    this.edge.stdout.write('', () => this.edge.exit(code));
  }
}
