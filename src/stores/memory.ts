/**
 * The protocol in memory, exactly as docs/model.md states it, on any clock: the probe runs
 * its stream against this store on a virtual clock to get the model's prediction for that
 * very stream. Not shared between processes: a reference, not a production store.
 */
import { runningLife } from '../model/policy.js';
import { answer, decide, finish, runHandler } from './protocol.js';
import type { Handler, KeyRecord, KeyStore, Reply, StoreOptions, StoreRequest, StoreVariant, StoredResponse } from './types.js';

interface MemoryRecord {
  status: 'running' | 'done';
  fingerprint: string;
  response: StoredResponse | null;
  /** Clock time after which the record no longer counts: lease (or retention) after the claim, retention after completion. */
  until: number;
}

export class MemoryStore implements KeyStore {
  private readonly records = new Map<string, MemoryRecord>();
  private readonly committed = new Map<string, number>();

  /** `clock.now()` in the same unit as the options' durations. */
  constructor(readonly variant: StoreVariant, private readonly opts: StoreOptions, private readonly clock: { now(): number }) {}

  async lookup(key: string): Promise<KeyRecord | null> {
    const r = this.records.get(key);
    if (!r || this.clock.now() >= r.until) return null;
    return { status: r.status, fingerprint: r.fingerprint, response: r.response };
  }

  async effectCount(effectId: string): Promise<number> {
    return this.committed.get(effectId) ?? 0;
  }

  async effects(): Promise<Map<string, number>> {
    return new Map(this.committed);
  }

  async handle(req: StoreRequest, handler: Handler): Promise<Reply> {
    const found = await this.lookup(req.key);
    const decision = decide(found, req.fingerprint, this.opts.checkFingerprint);
    if (decision !== 'claim') return answer(decision, found as KeyRecord);
    const claims = this.variant !== 'check_then_act';
    const transactional = this.variant === 'transactional';
    if (claims) {
      const life = runningLife(this.opts.leaseMs, this.opts.retentionMs);
      this.records.set(req.key, { status: 'running', fingerprint: req.fingerprint, response: null, until: this.clock.now() + life });
    }
    const pending: string[] = [];
    const outcome = await runHandler(handler, {
      effect: async (id) => {
        if (transactional) pending.push(id);
        else this.commit(id);
      },
    });
    if (outcome.kind === 'crashed') {
      if (transactional) this.records.delete(req.key); // the rollback releases the claim at the crash
    } else if (outcome.kind === 'failed' && this.opts.onError === 'release') {
      if (claims) this.records.delete(req.key);
    } else {
      this.records.set(req.key, {
        status: 'done', fingerprint: req.fingerprint, response: outcome.response, until: this.clock.now() + this.opts.retentionMs,
      });
      for (const id of pending) this.commit(id);
    }
    return finish(outcome);
  }

  private commit(id: string): void {
    this.committed.set(id, (this.committed.get(id) ?? 0) + 1);
  }
}
