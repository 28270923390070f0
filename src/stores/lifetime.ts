/**
 * How long what a probe creates may outlive it. A probe stopped by a signal removes its
 * namespace itself; one killed outright (SIGKILL, a lost machine) cannot, so every namespace
 * carries an expiry and a sign that its probe still runs:
 *   - Redis: every key has a TTL of at most the namespace's life; `<ns>probe` holds the
 *     expiry (and expires then), `<ns>lease` lives LEASE_MS and the running probe renews it.
 *   - PostgreSQL: `COMMENT ON SCHEMA` holds the expiry; the running probe holds a session
 *     advisory lock on the schema, which the server drops the moment its connection dies.
 * `idem-sim probe --clean-up --store URL` removes what no running probe holds once its expiry
 * has passed; with `--force`, whatever no running probe holds (src/stores/redis/cleanup.ts, src/stores/postgres/cleanup.ts).
 */

/** Life of a namespace before the probe knows its run time (connecting and measuring): 1 h. */
export const BASE_LIFE_MS = 3_600_000;

/** A namespace's life once the probe knows how long its replay should take: 1 h plus twice that. */
export function namespaceLifeMs(expectedWallMs: number): number {
  return Math.ceil(BASE_LIFE_MS + 2 * Math.max(0, expectedWallMs));
}

/** The longest real time a probe may run (24 h): beyond, its expiry and Node's timers (24.8 days at most) get unwieldy. */
export const MAX_PROBE_WALL_MS = 24 * 3_600_000;

/** TTL of a Redis probe's lease key, and how often the running probe renews it. */
export const LEASE_MS = 15_000;
export const LEASE_RENEW_MS = 5_000;

/** What a probe writes to mark a namespace as its own: in `<ns>probe` (Redis) or the schema's comment (PostgreSQL). */
export interface ProbeMarker {
  tool: 'idem-sim';
  kind: 'probe';
  /** ISO 8601 times. */
  created: string;
  expires: string;
}

export function probeMarker(created: Date, lifeMs: number): ProbeMarker {
  return { tool: 'idem-sim', kind: 'probe', created: created.toISOString(), expires: new Date(Date.now() + lifeMs).toISOString() };
}

/** The marker in `text`, or null when it is not one idem-sim wrote. */
export function readMarker(text: string | null | undefined): ProbeMarker | null {
  if (typeof text !== 'string') return null;
  try {
    const m = JSON.parse(text) as Partial<ProbeMarker>;
    const ok = m.tool === 'idem-sim' && m.kind === 'probe' && typeof m.created === 'string' && typeof m.expires === 'string'
      && Number.isFinite(Date.parse(m.expires));
    return ok ? (m as ProbeMarker) : null;
  } catch {
    return null;
  }
}

/** Names of the probe's namespaces: `idem-sim:<8 hex>:` (Redis), `idem_sim_<8 hex>` (PostgreSQL). */
export const REDIS_NAMESPACE = /^idem-sim:([0-9a-f]{8}):/;
export const PG_NAMESPACE = /^idem_sim_[0-9a-f]{8}$/;

/** What a clean-up found: each namespace removed or left, and why it was left. */
export interface CleanUpReport {
  removed: { namespace: string; objects: number }[];
  left: { namespace: string; reason: string }[];
}
