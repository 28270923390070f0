/**
 * The model's types in one place for its users. The scenario's shape is declared once, in
 * `shape.ts`, and the latency forms in `latency.ts`; the types here are derived from them.
 */
export type { Claim, Confidence, Fingerprint, Jitter, OnError, Scope } from './enums.js';
export type { Distribution, LatencySpec, MixtureComponent, WrittenLatency } from './latency.js';
export type { DelayRange } from './params.js';
export type { Scenario, ScenarioOf, WrittenScenario } from './shape.js';
export { DEFAULT_SCENARIO } from './shape.js';
export { MAX_ACTIONS } from './limits.js';
