/**
 * The page's side of the engine: a Web Worker started from the engine's script (inline in the
 * page, so from a blob: URL: no file is fetched), one request at a time. A new run stops the
 * one still going (the worker is ended and started again), so the page always shows the
 * latest settings and never waits for a run it no longer wants.
 */
import type { LabReply, LoadRequest, RunRequest } from '../protocol.js';

/** Why a request got no reply: a later one replaced it, or Stop was pressed. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

type Pending = { resolve: (reply: LabReply) => void; reject: (e: Error) => void };

/** A request without its id, which the client gives. */
export type Request = Omit<LoadRequest, 'id'> | Omit<RunRequest, 'id'>;

export class EngineClient {
  private readonly url: string;
  private worker: Worker;
  private pending: { id: number; handlers: Pending } | null = null;
  private next = 1;

  constructor(source: string) {
    this.url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    this.worker = this.spawn();
  }

  get busy(): boolean {
    return this.pending !== null;
  }

  private spawn(): Worker {
    const worker = new Worker(this.url, { name: 'idem-sim engine' });
    worker.onmessage = (event: MessageEvent<LabReply>) => {
      const p = this.pending;
      if (!p || p.id !== event.data.id) return;
      this.pending = null;
      p.handlers.resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const p = this.pending;
      this.pending = null;
      p?.handlers.reject(new Error(event.message || 'the engine stopped'));
    };
    return worker;
  }

  /** Sends `req`, first stopping any request still running. */
  request(req: Request): Promise<LabReply> {
    if (this.pending) this.stop();
    const id = this.next++;
    return new Promise<LabReply>((resolve, reject) => {
      this.pending = { id, handlers: { resolve, reject } };
      this.worker.postMessage({ ...req, id });
    });
  }

  /** Ends the running request (its promise rejects with Cancelled) and starts a fresh worker. */
  stop(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.worker.terminate();
    this.worker = this.spawn();
    p.handlers.reject(new Cancelled());
  }
}
