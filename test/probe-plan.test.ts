/** What the probe cannot do is refused before it connects to anything (probe/plan.ts): exit 2, naming the key and the fix. */
import { describe, expect, it } from 'vitest';
import { checkProbeable } from '../src/probe/plan.js';
import { parseRunnable } from './helpers.js';

describe('checkProbeable', () => {
  it('refuses a trigger: the probe replays each action\'s requests once', () => {
    const s = parseRunnable('idempotency: {scope: intent}\ntrigger: {preset: slack}\n');
    expect(() => checkProbeable(s, 's.yaml', 'redis')).toThrow(/s\.yaml, key trigger: is set .* does not deliver the trigger again\. Probe the scenario without its trigger \(add --set trigger=none\)/);
    expect(() => checkProbeable({ ...s, trigger: null }, 's.yaml', 'redis')).not.toThrow();
  });
});
