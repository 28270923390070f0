/**
 * The protocol on Redis with an atomic claim: `SET key running NX PX life`, where life is the
 * lease (without one, the retention), so Redis itself drops a claim whose lease lapsed. The
 * claim and, when it fails, the read of the record that beat it run as one Lua script: no
 * other command can run between them.
 */
import type { Redis } from 'ioredis';
import { answer, decide, finish, runHandler } from '../protocol.js';
import { timed, type Handler, type KeyRecord, type KeyStore, type Reply, type StoreOptions, type StoreRequest } from '../types.js';
import { decode, encodeRunning, RedisNamespace } from './records.js';

/**
 * KEYS[1] the key, ARGV[1] the running record, ARGV[2] its life in ms. Returns '' when this
 * request claimed the key, else the record that holds it.
 */
export const CLAIM_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return '' end
return redis.call('GET', KEYS[1])
`;

interface WithClaim { idemClaim(key: string, record: string, lifeMs: number): Promise<string | null> }

/** Defines the claim script on a connection (ioredis sends EVALSHA, and the script once if Redis lacks it). */
export function withClaimScript(client: Redis): Redis & WithClaim {
  if (!('idemClaim' in client)) client.defineCommand('idemClaim', { numberOfKeys: 1, lua: CLAIM_SCRIPT });
  return client as Redis & WithClaim;
}

export class RedisAtomicStore extends RedisNamespace implements KeyStore {
  readonly variant = 'atomic';
  private readonly scripted: Redis & WithClaim;

  constructor(client: Redis, prefix: string, opts: StoreOptions) {
    super(client, prefix, opts);
    this.scripted = withClaimScript(client);
  }

  async handle(req: StoreRequest, handler: Handler): Promise<Reply> {
    const key = this.keyOf(req.key);
    const life = this.ttl(this.opts.leaseMs ?? this.opts.retentionMs);
    const held = await timed(this.opts.observe, 'claim', () => this.scripted.idemClaim(key, encodeRunning(req.fingerprint), life));
    if (held !== '') {
      const found = decode(held);
      // The holder expired between SET NX and GET: impossible inside one script, but answer safely.
      if (found === null) return { kind: 'conflict' };
      const decision = decide(found, req.fingerprint, this.opts.checkFingerprint);
      return answer(decision === 'claim' ? 'conflict' : decision, found as KeyRecord);
    }
    const outcome = await runHandler(handler, { effect: (id) => this.commitEffect(id) });
    if (outcome.kind === 'failed' && this.opts.onError === 'release') {
      await timed(this.opts.observe, 'release', () => this.client.del(key));
    } else if (outcome.kind !== 'crashed') {
      await this.storeResult(req.key, req.fingerprint, outcome.response.status, outcome.response.body);
    }
    return finish(outcome);
  }
}
