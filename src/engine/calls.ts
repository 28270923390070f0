/**
 * An action's tool calls (docs/model.md): the action's start with its original call, each
 * call's start, and its end, after which the agent re-plans a failed call or its runtime
 * crashes and replays. A layer of the engine's one class (engine-state.ts says why).
 */
import { binKey } from './bins.js';
import { EngineState } from './engine-state.js';
import { SER } from '../model/series.js';
import { uniform } from '../random/uniform.js';
import { unit } from '../random/rng.js';

// Kept in the module that uses them (and re-exported by engine.ts): the optimiser folds a
// module's own constants, while an imported one is a load from its module cell at each use.
/** Kinds of tool call (index into the duplicate split). */
export const ORIGINAL = 0, REPLAN = 1, REPLAY = 2;

export class CallModel extends EngineState {
  /** Whether verify_before_replan reads when the re-plan is due rather than at the call's end (the coupled engine: executions still to come may commit before). */
  protected verifyWhenDue = false;

  /** Actor `i`'s action arrives at `at` and starts its original call, carrying the free text `text` (a new one unless a delivery's run keeps its predecessor's). */
  protected startAction(i: number, at: number, text = this.nextText++): void {
    this.arrival[i] = at;
    this.lastReturn[i] = at;
    this.replans[i] = 0;
    this.replays[i] = 0;
    this.execCount[i] = 0;
    this.execFirst[i] = Infinity;
    this.execFirstKind[i] = ORIGINAL;
    // Plain stores: TypedArray.fill is a builtin call, too slow to make per action.
    for (let k = i * 3; k < i * 3 + 3; k++) this.execByKind[k] = 0;
    this.gotStoredSuccess[i] = 0;
    this.resetTallies(i);
    this.text[i] = text;
    this.startCall(i, ORIGINAL, at);
  }

  /** Actor `i`'s per-action tallies (group.ts `countTallies` adds them up) at 0. */
  protected resetTallies(i: number): void {
    this.attemptsSent[i] = 0;
    this.mismatches422[i] = 0;
    this.conflicts409[i] = 0;
    this.dedupHits[i] = 0;
    this.unknownOutcomes[i] = 0;
    this.storeUnavailable[i] = 0;
  }

  /** Actor `i` starts a tool call of `kind` at `at`: its first attempt is sent then. */
  private startCall(i: number, kind: number, at: number): void {
    this.kind[i] = kind;
    this.callId[i] = this.nextCall++;
    if (kind !== ORIGINAL && this.p.drift > 0 && unit(this.rng.int32()) < this.p.drift) this.text[i] = this.nextText++;
    this.attempt[i] = 0;
    this.callStart[i] = at;
    this.sendAt[i] = at;
    this.hooks.onCall(i, kind, at);
  }

  /** Actor `i`'s tool call returns to the model at `attemptEnd[i]`, the end of its last attempt: a re-plan, a replay, or the action's end. */
  protected endCall(i: number, success: boolean, unknown: boolean): void {
    const p = this.p;
    const at = this.attemptEnd[i] as number;
    this.hooks.onCallEnd(i, at, success, unknown);
    const latency = at - (this.callStart[i] as number);
    const key = binKey(latency);
    this.totals.callLatency.countKey(key);
    this.lastCallLatency[i] = latency;
    this.lastCallKey[i] = key;
    this.lastReturn[i] = at;
    if (!success) {
      if (unknown) {
        this.unknownOutcomes[i]!++;
        if (this.series !== null) this.series.add(SER.unknown_outcomes, at);
      }
      if ((this.replans[i] as number) < p.maxReplans && p.replanP > 0 && unit(this.rng.int32()) < p.replanP) {
        this.replans[i]!++;
        const next = at + uniform(this.rng, p.replanMin, p.replanMax);
        // The read tool reads when the re-plan is due; here every execution committed by then is
        // known already (the coupled engine's are not: it reads when the re-plan is due, `verifyWhenDue`).
        if (!(p.verify && !this.verifyWhenDue && this.firstExecution(i) <= next)) return this.startCall(i, REPLAN, next);
        this.attemptEnd[i] = next; // the read tool found the action done: no re-plan, the step ends then
      }
    }
    this.stepEnded(i);
  }

  /** Actor `i`'s step ended at `attemptEnd[i]` (its call returned, or a re-plan was found not needed): a replay, or the action's end. */
  protected stepEnded(i: number): void {
    const p = this.p;
    const stepEnd = this.attemptEnd[i] as number;
    // A deploy's window (runtime.crash_probability) applies to the steps that end in it.
    if (this.regimes !== null) this.p = this.regimes.at(this.offset + stepEnd);
    const crashed = this.replayDrawn(this.replays[i] as number);
    if (p.trigger !== null) this.stepEndedForDelivery(i, stepEnd, crashed);
    if (crashed) {
      this.replays[i]!++;
      this.replans[i] = 0;
      return this.startCall(i, REPLAY, stepEnd + uniform(this.rng, p.resumeMin, p.resumeMax));
    }
    this.sendAt[i] = Infinity;
  }

  /** When actor `i`'s action was first executed (Infinity: not yet); delivery.ts looks across the action's runs. */
  protected firstExecution(i: number): number {
    return this.execFirst[i] as number;
  }

  /** With a trigger, actor `i`'s run's step ended at `at`, in a runtime crash or not: its acknowledgement (delivery.ts). */
  protected stepEndedForDelivery(_i: number, _at: number, _crashed: boolean): void { /* no trigger */ }
}
