/**
 * The probe's request stream: a small run of the scenario's actions with everything random
 * about them drawn in advance, so that the real store and the model see the very same
 * stream. Arrivals and twins come from one stream; each call and each attempt of each action
 * has its own stream derived from the seed and its position, so a draw never depends on what
 * the store answered before (a 409 where the model executed does not shift later draws).
 */
import { exponential } from '../random/exponential.js';
import { streamRng } from '../random/rng.js';
import { uniform } from '../random/uniform.js';
import { compileLatency, type LatencySampler } from '../model/latency.js';
import type { Scenario } from '../model/types.js';

export interface StreamAction {
  /** Primaries are 0 .. n-1 in order of arrival; twins follow. */
  id: number;
  /** Business identity, shared with a twin: the primary's id. */
  group: number;
  twin: boolean;
  /** Arrival time, ms from the start of the stream. */
  arrival: number;
}

/** What happens to one attempt, wherever it meets a handler. */
export interface AttemptDraws {
  /** Handler time L in ms (service.latency), used when the attempt executes. */
  latency: number;
  /** U(0,1): below error_rate a 5xx, below error_rate + crash_probability a crash. */
  outcome: number;
  /** A crash comes after the side effect (probability crash_after_effect). */
  crashAfterEffect: boolean;
  requestLost: boolean;
  replyLost: boolean;
  /** U(0,1) for the backoff jitter before the next attempt. */
  jitter: number;
}

/** What happens after one call ends without success. */
export interface CallDraws {
  /** U(0,1) against agent.replan_probability, and the re-plan's delay in ms. */
  replan: number;
  replanDelay: number;
  /** U(0,1) against agent.arg_drift_probability (for this call, if it is a re-plan or replay). */
  drift: number;
  /** U(0,1) against runtime.crash_probability when the step ends, and the resume delay in ms. */
  crash: number;
  resumeDelay: number;
}

export class ProbeStream {
  readonly actions: StreamAction[] = [];
  private readonly latency: LatencySampler;

  /** `primaries` primary actions of `scenario` from `seed` (twins come on top). */
  constructor(readonly scenario: Scenario, readonly seed: string, primaries: number) {
    this.latency = compileLatency(scenario.service.latency);
    const rng = streamRng(seed, 'probe/arrivals');
    const { twin_probability: twinP, twin_delay: twinDelay } = scenario.workload;
    const twins: StreamAction[] = [];
    let t = 0;
    for (let id = 0; id < primaries; id++) {
      t += exponential(rng, 1000 / scenario.load.rate_per_s);
      const twinU = rng.next();
      const delay = uniform(rng, twinDelay.min, twinDelay.max);
      this.actions.push({ id, group: id, twin: false, arrival: t });
      if (twinU < twinP) twins.push({ id: primaries + twins.length, group: id, twin: true, arrival: t + delay });
    }
    this.actions.push(...twins);
  }

  attempt(action: number, call: number, attempt: number): AttemptDraws {
    const rng = streamRng(this.seed, `probe/${action}/${call}/${attempt}`);
    const { network, service } = this.scenario;
    return {
      outcome: rng.next(),
      crashAfterEffect: rng.next() < service.crash_after_effect,
      requestLost: rng.next() < network.request_loss,
      replyLost: rng.next() < network.reply_loss,
      jitter: rng.next(),
      latency: this.latency.sample(rng), // last: it may take any number of draws
    };
  }

  call(action: number, call: number): CallDraws {
    const rng = streamRng(this.seed, `probe/${action}/${call}`);
    const { agent, runtime } = this.scenario;
    return {
      replan: rng.next(),
      replanDelay: uniform(rng, agent.replan_delay.min, agent.replan_delay.max),
      drift: rng.next(),
      crash: rng.next(),
      resumeDelay: uniform(rng, runtime.resume_delay.min, runtime.resume_delay.max),
    };
  }
}
