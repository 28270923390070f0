/**
 * The coupled engine's per-group and per-actor state beyond the shared layers' (engine-state.ts):
 * typed arrays indexed by group slot g or actor 2g + j, grown together by doubling. A finished
 * group's slot is reused, so they follow the groups in flight.
 */
import { LiveRows } from '../live-rows.js';
import { WriteLog } from '../write-log.js';
import { grown } from './grow.js';

export class GroupSlots {
  /** Each group's key store and key rows (kept apart until it ends), next call number and free text. */
  readonly logs: WriteLog[] = [];
  readonly rows: LiveRows[] = [];
  nextCall = new Int32Array(0);
  nextText = new Int32Array(0);
  /** Actors still acting (their action not over) and requests still at the server: the group ends when both are 0. */
  acting = new Int8Array(0);
  atServer = new Int32Array(0);
  twin = new Uint8Array(0);
  /**
   * With a trigger (delivery.ts): the group a slot's actors act for (its own slot, or, for a
   * redelivered run's slot, its action's group), and the deadlines a group still waits for.
   */
  home = new Int32Array(0);
  deadlines = new Int32Array(0);
  private free = new Int32Array(0);
  private freeCount = 0;
  private used = 0;
  /** Groups in flight now. */
  live = 0;

  get capacity(): number {
    return this.acting.length;
  }

  /** A slot for a new group, or -1 when every slot is taken (the caller grows them). */
  take(): number {
    this.live++;
    if (this.freeCount > 0) return this.free[--this.freeCount] as number;
    if (this.used === this.capacity) { this.live--; return -1; }
    return this.used++;
  }

  release(g: number): void {
    this.live--;
    this.free[this.freeCount++] = g;
  }

  /** Room for `n` groups; `unkeyed`: no group ever writes a key, so all share one (empty) store and rows. */
  grow(n: number, unkeyed: boolean): void {
    const log = unkeyed ? (this.logs[0] ?? new WriteLog(1)) : null;
    const rows = unkeyed ? (this.rows[0] ?? new LiveRows(1)) : null;
    for (let g = this.logs.length; g < n; g++) { this.logs.push(log ?? new WriteLog(8)); this.rows.push(rows ?? new LiveRows(8)); }
    this.nextCall = grown(this.nextCall, n);
    this.nextText = grown(this.nextText, n);
    this.acting = grown(this.acting, n);
    this.atServer = grown(this.atServer, n);
    this.twin = grown(this.twin, n);
    this.home = grown(this.home, n);
    this.deadlines = grown(this.deadlines, n);
    this.free = grown(this.free, n);
  }
}

/** What the coupled engine keeps per actor: its current attempt's serial and outcome, and the server's capacity counts (the guards keep their own: state.ts). */
export class ActorSlots {
  /** The serial of the actor's current attempt (one per attempt sent), whether the client has learned its outcome. */
  serial = new Int32Array(0);
  learned = new Uint8Array(0);
  /** Whether a reply will reach the client in time, and then its status, delay after the send, and who answered. */
  replied = new Uint8Array(0);
  status = new Int8Array(0);
  after = new Float64Array(0);
  by = new Int8Array(0);
  /** The key the current attempt carries (for the hooks). */
  key = new Int32Array(0);
  /** Per-action counts of the server's capacity counters. */
  shed = new Int32Array(0);
  expired = new Int32Array(0);

  grow(n: number): void {
    this.serial = grown(this.serial, n); this.learned = grown(this.learned, n); this.replied = grown(this.replied, n);
    this.status = grown(this.status, n); this.after = grown(this.after, n); this.by = grown(this.by, n);
    this.key = grown(this.key, n);
    this.shed = grown(this.shed, n); this.expired = grown(this.expired, n);
  }

  /** A new action: its counts start at 0. */
  reset(i: number): void {
    this.shed[i] = 0; this.expired[i] = 0;
  }
}
