/**
 * Features idem-sim does not model (docs/model.md, "What idem-sim does not model"), by the key
 * names a user reaches for when writing one: `client.hedge` is a feature the model lacks, not a
 * misspelling, and its error says so rather than guessing at a key it may resemble. No name here
 * is a key of the model (test/unmodelled.test.ts), and MODEL.md's future keys are not listed.
 */

/** The section of docs/model.md that lists them. */
export const UNMODELLED_DOC = 'docs/model.md#what-idem-sim-does-not-model';

export interface Unmodelled {
  /** The feature, as docs/model.md names it (in bold there). */
  readonly feature: string;
  /** Key names that mean it, matched in any case with `_` and `-` ignored. */
  readonly keys: readonly string[];
  /** The nearest thing idem-sim does model, in a few words; '' when there is none. */
  readonly nearest: string;
}

export const UNMODELLED: readonly Unmodelled[] = [
  {
    feature: 'hedged requests',
    keys: ['hedge', 'hedges', 'hedged', 'hedging', 'hedge_after', 'hedge_delay', 'hedged_requests'],
    nearest: 'a `client.timeout` shorter than the latency, with `client.retries`: the abandoned attempt still runs on the server',
  },
  {
    feature: 'Kafka consumer-group rebalances',
    keys: ['rebalance', 'rebalances', 'rebalancing', 'consumer_group', 'consumer_groups', 'partition_rebalance'],
    nearest: 'a worker crash before the checkpoint (`runtime.crash_probability`), whose step is replayed',
  },
  {
    feature: 'exactly-once transactions',
    keys: ['exactly_once', 'eos', 'transaction', 'transactions', 'transactional_id', 'two_phase_commit', '2pc'],
    nearest: '`idempotency.transactional: true`, the key\'s record and the side effect committed in one transaction of one store',
  },
  {
    feature: 'distributed sagas and compensation',
    keys: ['saga', 'sagas', 'compensation', 'compensations', 'compensate', 'compensating_action', 'rollback'],
    nearest: 'an agent file\'s `cost.duplicate` and `cost.lost`, what compensation would have to undo',
  },
  {
    feature: 'clock skew between client and store',
    keys: ['clock_skew', 'skew', 'clock_drift'],
    nearest: 'a shorter `idempotency.lease` or `idempotency.retention`, as a store clock running fast',
  },
  {
    feature: 'multi-region store replication lag',
    keys: ['replication_lag', 'replication', 'replica', 'replicas', 'replica_lag', 'multi_region', 'regions', 'region'],
    nearest: '`idempotency.claim: check_then_act`, whose read-then-write window lets two requests both execute',
  },
  {
    feature: 'fencing tokens',
    keys: ['fencing', 'fencing_token', 'fencing_tokens', 'fence'],
    nearest: '',
  },
  {
    feature: 'eviction from the key store',
    keys: ['eviction', 'evict', 'eviction_policy', 'maxmemory', 'maxmemory_policy'],
    nearest: 'a shorter `idempotency.retention`',
  },
  {
    feature: 'rate limits',
    keys: ['rate_limit', 'rate_limits', 'rate_limiting', 'rate_limiter', 'too_many_requests'],
    nearest: 'a queue that sheds with a 503 (`service.capacity.queue`, `retry_after`)',
  },
];

const folded = (key: string): string => key.toLowerCase().replace(/[_-]/g, '');

let byKey: Map<string, Unmodelled> | undefined;

/** The unmodelled feature a key names (in any case, `_` and `-` ignored), if any. */
export function unmodelledFeature(key: string): Unmodelled | undefined {
  byKey ??= new Map(UNMODELLED.flatMap((u) => u.keys.map((k) => [folded(k), u] as const)));
  return byKey.get(folded(key));
}

/** At most this many keys below an unknown one are looked up (a file's whole section could be unknown). */
const MAX_KEYS_BELOW = 1_000;

/** The keys of the mappings in `value` (an unknown key's value), a level at a time in the order written, at most MAX_KEYS_BELOW. */
export function keysBelow(value: unknown): string[] {
  const keys: string[] = [];
  let level: unknown[] = [value];
  while (level.length > 0 && keys.length < MAX_KEYS_BELOW) {
    const next: unknown[] = [];
    for (const v of level) {
      const children = Array.isArray(v) ? v.map((x): [string | undefined, unknown] => [undefined, x])
        : typeof v === 'object' && v !== null ? Object.entries(v) : [];
      for (const [k, x] of children) {
        if (keys.length >= MAX_KEYS_BELOW) return keys;
        if (k !== undefined) keys.push(k);
        next.push(x);
      }
    }
    level = next;
  }
  return keys;
}

/**
 * The start of the fix for an unknown key that names a feature the model lacks, or whose value
 * holds a key that does (`below`: `kafka: {rebalance: ...}`, `--set store.replication_lag=1s`):
 * every key of the unknown path is a feature's name before it is a misplaced key or a typo; ''
 * when none is.
 */
export function unmodelledHint(key: string, below?: unknown): string {
  const u = [key, ...keysBelow(below)].map(unmodelledFeature).find((f) => f !== undefined);
  if (u === undefined) return '';
  const nearest = u.nearest === '' ? '' : ` The nearest it models: ${u.nearest}.`;
  return `idem-sim does not model ${u.feature}: see ${UNMODELLED_DOC}.${nearest} `;
}
