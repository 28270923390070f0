/**
 * The coupled engine's service (docs/model.md, "Capacity"): requests arrive, start at once while
 * fewer than the workers in force are running, else wait in the queue, else are shed; a worker
 * that comes free takes the next waiting request (fifo or lifo), dropping it if it expired. What
 * the server does with a request it runs is the shared rule (`serve`, attempt.ts), at the
 * handler's start. A layer of the coupled engine's class (state.ts < server.ts < coupled.ts).
 */
import { FROM_STORE, NO_REPLY, SHED_503 } from '../attempt.js';
import { binKey, LatencyBins, ZERO_KEY } from '../bins.js';
import type { EngineHooks } from '../hooks.js';
import { SER } from '../../model/series.js';
import type { Scenario } from '../../model/types.js';
import { EventHeap, TimedQueue } from './heap.js';
import { inFlightOverflow } from './in-flight.js';
import { Requests, WaitQueue } from './requests.js';
import { SaturationTracker } from './saturation.js';
import { CoupledState } from './state.js';
import { WorkerSchedule } from './workers.js';

/**
 * Event kinds, and their classes: SERVER events run before CLIENT ones at one instant (heap.ts),
 * and a trigger's deadlines (LATE) after every other event of their instant (docs/model.md,
 * "Inbound delivery").
 */
export const EV_SEND = 0, EV_REPLY = 1, EV_TIMEOUT = 2, EV_FREE = 3, EV_EDGE = 4, EV_DEADLINE = 5;
export const SERVER = 0, CLIENT = 1, LATE = 2;

/** A handler's time from `t` to `end` inside the load `[0, loadEnd)`, in whole µs (sums exact in any order). */
const busyUs = (t: number, end: number, loadEnd: number): number => Math.round(Math.max(0, Math.min(end, loadEnd) - t) * 1000);

export class CoupledServer extends CoupledState {
  protected readonly heap = new EventHeap();
  /** Client timeouts, in time order as they are scheduled (heap.ts, `TimedQueue`; those of attempts already answered dropped when it fills). */
  protected readonly timeouts = new TimedQueue((i, serial) => this.timeoutHeard(i, serial));
  private readonly requests = new Requests();
  private readonly queue: WaitQueue;
  protected readonly workers: WorkerSchedule;
  private readonly queueCap: number;
  private readonly dropExpired: boolean;
  protected running = 0;
  /** The workers in force now (set at each window edge), and the service's saturation (saturation.ts). */
  private cap: number;
  protected readonly saturation: SaturationTracker;
  /** This block's measures (coupled.ts emits and resets them). */
  protected readonly queueWait = new LatencyBins();
  protected busy = 0;
  protected started = 0;

  constructor(scenario: Scenario, hooks: EngineHooks | undefined, seriesStep: number | null, private readonly loadEnd: number) {
    super(scenario, hooks, seriesStep);
    const capacity = scenario.service.capacity;
    this.queue = new WaitQueue(capacity?.order === 'lifo');
    this.queueCap = capacity === null ? Infinity : (capacity.queue ?? Infinity);
    this.dropExpired = capacity?.drop_expired === true;
    this.workers = new WorkerSchedule(scenario);
    this.cap = this.workers.base;
    this.saturation = new SaturationTracker(scenario, loadEnd);
    for (const edge of this.workers.edges) this.heap.push(edge, SERVER, EV_EDGE, 0, 0);
  }

  /**
   * Actor `i` (of the entered group `g`) sent an attempt at `x` with `key` that reached the
   * server (parameters of `x` in `p`): it starts, waits or is shed.
   */
  protected arriveAtServer(i: number, g: number, key: number, x: number): void {
    if (this.requests.live === this.limits.requests) throw inFlightOverflow(this.limits.requests, 'requests at the server', x);
    const r = this.requests.take();
    const q = this.requests;
    q.actor[r] = i; q.serial[r] = this.side.serial[i] as number; q.send[r] = x; q.key[r] = key;
    q.fp[r] = this.p.fpText ? (this.text[i] as number) : 0; q.kind[r] = this.kind[i] as number;
    this.groups.atServer[g]!++;
    if (this.running < this.workers.at(x)) {
      this.startHandler(r, x, false);
    } else if (this.queue.size < this.queueCap) {
      this.queue.push(r);
      this.timeoutAt(x + this.p.timeout, i, this.side.serial[i] as number);
    } else {
      this.shed(r, i, g, x);
    }
  }

  /** The queue is full: a 503 at once, no worker used, nothing executed (its reply lost as any). */
  private shed(r: number, i: number, g: number, x: number): void {
    const p = this.p;
    this.requests.release(r);
    this.groups.atServer[g]!--;
    this.side.shed[i]!++;
    if (this.series !== null) this.series.add(SER.shed, x);
    const serial = this.side.serial[i] as number;
    if (p.fastReply <= p.timeout && !this.replyLost()) {
      this.side.replied[i] = 1; this.side.status[i] = SHED_503; this.side.after[i] = p.fastReply; this.side.by[i] = FROM_STORE;
      this.heap.push(x + p.fastReply, CLIENT, EV_REPLY, i, serial);
    } else {
      this.timeoutAt(x + p.timeout, i, serial);
    }
  }

  /**
   * A worker takes request `r` at `t` (`queued`: it waited, and its client's timeout is already
   * scheduled): dropped if expired, else the server's rules run (`serve`) with the parameters of
   * its send time and the key store as it is at `t`, and the worker is busy until the reply leaves.
   */
  private startHandler(r: number, t: number, queued: boolean): void {
    const q = this.requests;
    const i = q.actor[r] as number;
    const g = this.groups.home[i >> 1] as number;
    const s = q.send[r] as number;
    this.enter(g);
    if (this.regimes !== null) this.p = this.regimes.at(s);
    const p = this.p;
    if (this.dropExpired && t >= s + p.timeout) {
      this.hooks.onServe(i, s, t, true);
      this.side.expired[i]!++;
      if (this.series !== null) this.series.add(SER.expired, t);
      this.requestDone(r, g);
      return this.leave(g);
    }
    this.hooks.onServe(i, s, t, false);
    const sentAt = this.sendAt[i] as number;
    this.sendAt[i] = s; // serve measures the reply from the request's own send
    this.serveStart[i] = t;
    const status = this.serve(i, q.key[r] as number, q.fp[r] as number, q.kind[r] as number, this.regimes !== null && this.regimes.at(t).storeDown);
    this.sendAt[i] = sentAt;
    const after = this.replyAfter[i] as number;
    const end = s + after;
    this.occupy(r, s, t, end);
    const serial = q.serial[r] as number;
    q.replies[r] = 0;
    if (serial === this.side.serial[i] && this.side.learned[i] === 0) {
      // The client still waits for this attempt. Its reply leaves when the worker comes free
      // (`free` hands it on): one event for both, its place among ties kept by its number.
      if (status !== NO_REPLY && after <= p.timeout && !this.replyLost()) {
        this.side.replied[i] = 1; this.side.status[i] = status; this.side.after[i] = after; this.side.by[i] = this.answeredBy;
        q.replies[r] = 1;
        q.replySeq[r] = this.heap.nextSeq();
      } else if (!queued) {
        this.timeoutAt(s + p.timeout, i, serial);
      }
    }
    this.leave(g);
  }

  /**
   * A worker runs request `r` (sent at `s`) from `t` until `end`, when it comes free: counted as
   * started, with its wait and its busy time (r < 0: a simple group's, coupled.ts, never waiting).
   */
  protected occupy(r: number, s: number, t: number, end: number): void {
    this.running++;
    if (this.running >= this.cap && !this.saturation.saturated) this.saturation.begin(this.now);
    this.started++;
    if (this.series !== null) this.series.add(SER.started, t);
    this.queueWait.countKey(t === s ? ZERO_KEY : binKey(t - s));
    this.busy += busyUs(t, end, this.loadEnd);
    this.heap.push(end, SERVER, EV_FREE, r, 0);
  }

  /** Actor `i`'s attempt `serial` times out at `at` unless its reply comes first. */
  protected timeoutAt(at: number, i: number, serial: number): void {
    this.timeouts.push(at, this.heap.nextSeq(), i, serial);
  }

  /** Whether actor `i`'s client will still hear the timeout of its attempt `serial` (as coupled.ts `learn` tests it): no later attempt, no reply on its way, not learned; once not, never again. */
  private timeoutHeard(i: number, serial: number): boolean {
    const side = this.side;
    return side.serial[i] === serial && side.learned[i] === 0 && side.replied[i] === 0;
  }

  /**
   * A worker comes free now: its request is done and waiting ones start; then the request's
   * reply reaches its client, at once when no other event is due at this instant (the same
   * order as its own event), else as an event in its place among them.
   */
  protected free(r: number): void {
    if (r < 0) { // a simple group's worker (coupled.ts): nothing else to hand on
      this.running--;
      this.fillWorkers();
      return this.maybeFree();
    }
    const q = this.requests;
    const i = q.actor[r] as number;
    const reply = q.replies[r] === 1;
    const serial = q.serial[r] as number;
    const seq = q.replySeq[r] as number;
    this.running--;
    this.requestDone(r, this.groups.home[i >> 1] as number);
    this.fillWorkers();
    this.maybeFree();
    if (!reply) return;
    if (this.nothingElseNow()) this.replyReached(i, serial);
    else this.heap.pushAs(this.now, CLIENT, EV_REPLY, i, serial, seq);
  }

  /** After a worker came free and the waiting took theirs: the service is free if a worker still is. */
  private maybeFree(): void {
    if (this.saturation.saturated && this.running < this.cap) this.saturation.end(this.now);
  }

  /** A window edge: the workers in force change now, waiting requests start while workers are free. */
  protected edge(): void {
    this.cap = this.workers.at(this.now);
    this.fillWorkers();
    const saturated = this.running >= this.cap;
    if (saturated !== this.saturation.saturated) {
      if (saturated) this.saturation.begin(this.now); else this.saturation.end(this.now);
    }
  }

  /** Whether no other event is due at the current instant (coupled.ts knows the arrivals). */
  protected nothingElseNow(): boolean {
    return false;
  }

  /** The client of actor `i` has the reply of its attempt `serial` (coupled.ts). */
  protected replyReached(_i: number, _serial: number): void { /* the client's side */ }

  /** Waiting requests start while workers are free (after a worker frees, and at a window edge). */
  protected fillWorkers(): void {
    const t = this.now;
    const cap = this.workers.at(t);
    while (this.running < cap && this.queue.size > 0) this.startHandler(this.queue.take(), t, true);
  }

  private requestDone(r: number, g: number): void {
    this.requests.release(r);
    this.groups.atServer[g]!--;
    this.maybeEnd(g);
  }

  /** Group `g` ends once its actors are done, none of its requests is left at the server and no deadline of a trigger is to come. */
  protected maybeEnd(g: number): void {
    if (this.groups.acting[g] !== 0 || this.groups.atServer[g] !== 0 || this.groups.deadlines[g] !== 0) return;
    this.enter(g);
    this.endGroup(g);
    this.groupEnded();
  }

  /** A group ended (coupled.ts counts its block). */
  protected groupEnded(): void { /* counted by the subclass */ }
}
