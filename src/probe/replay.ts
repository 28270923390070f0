/** Runs a stream against key stores on a clock and counts what happened, as docs/model.md defines the counts. */
import { Interrupted } from '../exec/interrupted.js';
import { MemoryStore } from '../stores/memory.js';
import type { KeyStore } from '../stores/types.js';
import { runAction, type ClientTally } from './agent.js';
import { sleepUntil, VirtualClock, type Clock } from './clock.js';
import { storeOptions, variantOf } from './setup.js';
import { ProbeService, type ServerTally } from './service.js';
import type { ProbeStream } from './stream.js';

/** Totals over the stream's actions (twins included). */
export interface StreamCounts {
  actions: number;
  attempts: number;
  /** Side effects committed, as the store's effects log holds them. */
  executions: number;
  /** Executions beyond each action's first. */
  duplicates: number;
  /** Actions executed more than once. */
  duplicated_actions: number;
  /** Actions never executed; of them, `merged` received a stored success (their twin's). */
  lost: number;
  merged: number;
  unknown_outcomes: number;
  conflicts_409: number;
  mismatches_422: number;
  dedup_hits: number;
}

export interface ReplayOptions {
  body: string;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  wrapError?: (e: unknown) => unknown;
}

/** Every action of the stream as its own task, started at its arrival; resolves when all handlers have finished. */
export async function replayStream(stream: ProbeStream, stores: readonly KeyStore[], clock: Clock, opts: ReplayOptions): Promise<{ counts: StreamCounts; endedAt: number }> {
  const n = stream.actions.length;
  const client: ClientTally[] = Array.from({ length: n }, () => ({ attempts: 0, unknown: 0 }));
  const server: ServerTally[] = Array.from({ length: n }, () => ({ conflicts: 0, mismatches: 0, hits: 0, storedSuccess: false }));
  const service = new ProbeService(stores, stream.scenario, clock, server, opts.body, opts.wrapError, opts.signal);
  let done = 0;
  let endedAt = 0;
  await Promise.all(stream.actions.map(async (a) => {
    await sleepUntil(clock, a.arrival);
    await runAction(a, stream, clock, service, client[a.id] as ClientTally, opts.signal);
    endedAt = Math.max(endedAt, clock.now());
    opts.onProgress?.(++done, n);
  }));
  await service.drain();
  if (opts.signal?.aborted) throw new Interrupted(); // stopped: the counts would be of part of the stream
  const effects = await (stores[0] as KeyStore).effects().catch((e: unknown) => { throw opts.wrapError ? opts.wrapError(e) : e; });
  return { counts: count(stream, client, server, effects), endedAt: Math.max(endedAt, clock.now()) };
}

/**
 * The model's prediction for this very stream: the same client and server code against the
 * protocol in memory (MemoryStore), on a virtual clock. No store, no real time.
 */
export function predictStream(stream: ProbeStream, body: string): Promise<{ counts: StreamCounts; endedAt: number }> {
  const clock = new VirtualClock();
  const store = new MemoryStore(variantOf(stream.scenario), storeOptions(stream.scenario), clock);
  return clock.run(replayStream(stream, [store], clock, { body }));
}

function count(stream: ProbeStream, client: ClientTally[], server: ServerTally[], effects: Map<string, number>): StreamCounts {
  const c: StreamCounts = {
    actions: stream.actions.length, attempts: 0, executions: 0, duplicates: 0, duplicated_actions: 0, lost: 0, merged: 0,
    unknown_outcomes: 0, conflicts_409: 0, mismatches_422: 0, dedup_hits: 0,
  };
  for (const a of stream.actions) {
    const cl = client[a.id] as ClientTally;
    const sv = server[a.id] as ServerTally;
    const executions = effects.get(`${a.id}`) ?? 0;
    c.attempts += cl.attempts;
    c.unknown_outcomes += cl.unknown;
    c.conflicts_409 += sv.conflicts;
    c.mismatches_422 += sv.mismatches;
    c.dedup_hits += sv.hits;
    c.executions += executions;
    if (executions > 1) {
      c.duplicates += executions - 1;
      c.duplicated_actions++;
    }
    if (executions === 0) {
      c.lost++;
      if (sv.storedSuccess) c.merged++;
    }
  }
  return c;
}
