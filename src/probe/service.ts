/**
 * The tool's server in the probe: each attempt goes to a key store (the next connection in
 * turn, so that overlapping retries of one key arrive on different connections), which runs
 * the protocol around a handler that takes the attempt's drawn latency and then fails,
 * crashes or commits its side effect, as docs/model.md ("One attempt, sent at time s") says.
 */
import type { Scenario } from '../model/types.js';
import { HandlerCrash, type KeyStore, type Reply } from '../stores/types.js';
import { NO_REPLY, type AttemptRequest, type Received, type ToolServer } from './agent.js';
import { sleepUntil, type Clock } from './clock.js';
import type { StreamAction } from './stream.js';

/** Per-action counts kept by the server: replies it gave, whatever happened to them on the way back. */
export interface ServerTally {
  conflicts: number;
  mismatches: number;
  /** Stored results replayed (successes and stored 5xx). */
  hits: number;
  /** A stored success was replayed to the action (for `merged`). */
  storedSuccess: boolean;
}

/** The status a 5xx handler answers with (a stored 5xx is replayed with it). */
export const ERROR_STATUS = 503;

export class ProbeService implements ToolServer {
  private next = 0;
  private readonly inflight = new Set<Promise<unknown>>();
  private failure: unknown;

  /**
   * `stores`: one per connection, all in one namespace. `body`: the response stored on success.
   * `wrapError` turns a store's failure (a lost connection) into the error the probe reports.
   * Once `signal` aborts, no handler commits a side effect: each ends as a crash, and the stop
   * does not send every handler woken from its sleep to the store at once.
   */
  constructor(
    private readonly stores: readonly KeyStore[], private readonly scenario: Scenario, private readonly clock: Clock,
    private readonly tallies: ServerTally[], private readonly body: string, private readonly wrapError: (e: unknown) => unknown = (e) => e,
    private readonly signal?: AbortSignal,
  ) {}

  async send(req: AttemptRequest): Promise<Received> {
    const d = req.draws;
    if (d.requestLost || this.failure !== undefined || this.signal?.aborted) return NO_REPLY;
    const work = this.serve(req).catch((e: unknown): Received => {
      this.failure ??= this.wrapError(e);
      return NO_REPLY;
    });
    this.inflight.add(work);
    void work.finally(() => this.inflight.delete(work));
    if (d.replyLost) return NO_REPLY; // the server works on; the client hears nothing
    return work;
  }

  async executed(action: StreamAction): Promise<boolean> {
    try {
      return (await (this.stores[0] as KeyStore).effectCount(`${action.id}`)) > 0;
    } catch (e) {
      this.failure ??= this.wrapError(e);
      return false;
    }
  }

  /** Waits for handlers still running after their clients gave up; throws the first store failure. */
  async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
    if (this.failure !== undefined) throw this.failure;
  }

  private async serve(req: AttemptRequest): Promise<Received> {
    const { service } = this.scenario;
    const d = req.draws;
    const arrived = this.clock.now();
    const store = this.stores[this.next++ % this.stores.length] as KeyStore;
    if (req.key === null) throw new Error('the probe needs an idempotency key (scope none has none)');
    const reply: Reply = await store.handle({ key: req.key, fingerprint: req.fingerprint }, async (ctx) => {
      // The request spends L in the server, its claim's round trip included (the model's L is the
      // server's whole time); what the store takes after the handler still adds to it.
      await sleepUntil(this.clock, arrived + d.latency);
      if (this.signal?.aborted) throw new HandlerCrash();
      if (d.outcome < service.error_rate) return { status: ERROR_STATUS, body: '' };
      if (d.outcome < service.error_rate + service.crash_probability) {
        if (d.crashAfterEffect) await ctx.effect(`${req.action.id}`);
        throw new HandlerCrash();
      }
      await ctx.effect(`${req.action.id}`);
      return { status: 200, body: this.body };
    });
    const tally = this.tallies[req.action.id] as ServerTally;
    switch (reply.kind) {
      case 'executed': return 'ok';
      case 'failed': return 'error';
      case 'crashed': return NO_REPLY;
      default: break;
    }
    if (reply.kind === 'conflict') tally.conflicts++;
    else if (reply.kind === 'mismatch') tally.mismatches++;
    else {
      tally.hits++;
      if (reply.response.status < 500) tally.storedSuccess = true;
    }
    await sleepUntil(this.clock, arrived + service.fast_reply); // a reply from the key store takes service.fast_reply
    return reply.kind === 'conflict' ? 'conflict' : reply.kind === 'mismatch' ? 'mismatch' : reply.response.status < 500 ? 'ok' : 'error';
  }
}
