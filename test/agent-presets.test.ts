/**
 * Presets from the clients agents use (scenario/presets.ts: the OpenAI and Anthropic SDKs), and
 * the two behaviours docs/scenarios.md maps to settings rather than presets: a key from the
 * model's per-turn tool-call id (`idempotency.scope: call`) and a framework that re-runs a whole
 * step after a crash (the runtime's replays).
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_PRESETS } from '../src/scenario/presets.js';
import { parseScenario } from '../src/scenario/parse.js';
import { sim } from './helpers.js';

const resolve = (yaml: string) => parseScenario(yaml, 'x.yaml').scenario;

describe('client presets of agent SDKs', () => {
  it.each(['openai-sdk', 'anthropic-sdk'])('%s: 2 retries, 0.5 s doubling to at most 8 s, a 10-minute timeout', (name) => {
    expect(resolve(`client: {preset: ${name}}`).client).toMatchObject({
      timeout: 600_000, retries: 2, backoff: { base: 500, multiplier: 2, max: 8000, jitter: 'equal' },
    });
  });

  it('keys written in the scenario win over the preset', () => {
    expect(resolve('client: {preset: openai-sdk, retries: 5, backoff: {max: 20s}}').client).toMatchObject({ timeout: 600_000, retries: 5, backoff: { base: 500, max: 20_000 } });
  });

  it('each names its source files and constants, and labels the jitter a choice', () => {
    for (const name of ['openai-sdk', 'anthropic-sdk']) {
      const source = CLIENT_PRESETS[name]?.source ?? '';
      expect(source).toMatch(/_constants\.py: DEFAULT_MAX_RETRIES = 2, DEFAULT_TIMEOUT = .*, INITIAL_RETRY_DELAY = 0\.5, MAX_RETRY_DELAY = 8\.0/);
      expect(source).toMatch(/equal .*is a choice|Equal jitter is a choice/);
    }
  });
});

describe('a per-turn tool-call id is idempotency.scope: call', () => {
  // The lab's settings (re-plans with probability 0.6 after a failed call, 2% of replies lost),
  // 4,000 actions, seed 1. Transport duplicates under a per-call key are 0 by construction
  // (attempts of one call share its key, kept 1 h); the re-plans' duplicates are about 4 per
  // 1000 (docs/scenarios.md), 16 expected here, so none at all would be a 1-in-10^7 draw.
  it('holds the client\'s retries of one call; a re-plan, with its new id, executes again; an intent key holds it', () => {
    const call = sim('idempotency: {scope: call}', 4000);
    expect(call.duplicates_per_1000.transport.value).toBe(0);
    expect(call.duplicates_per_1000.replan.value).toBeGreaterThan(0);
    expect(sim('idempotency: {scope: intent}', 4000).duplicates_per_1000.value).toBe(0);
  });
});

describe('a framework that re-runs a whole step after a crash makes the runtime\'s replays', () => {
  // 5% of steps end in a crash and are re-run 2-20 min later: about 200 replays in 4,000
  // actions, each with a new tool-call id, each a duplicate under a per-call key when the first
  // run executed (nearly always here): about 50 per 1000, whose standard error (a count of 200,
  // sqrt(200) / 4) is 3.5, so the bound of 25 lies seven below. An intent key kept 1 h holds every one.
  const crashes = 'runtime: {crash_probability: 0.05}\nagent: {replan_probability: 0}\n';
  it('a per-call key lets them execute again; an intent key kept longer than the resume holds them', () => {
    const call = sim(`${crashes}idempotency: {scope: call}`, 4000);
    expect(call.duplicates_per_1000.replay.value).toBeGreaterThan(25);
    expect(sim(`${crashes}idempotency: {scope: intent, retention: 1h}`, 4000).duplicates_per_1000.value).toBe(0);
  });
});
