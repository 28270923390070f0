/**
 * The limits table of docs/security-and-limits.md states the trigger's bounds as model/limits.ts
 * has them (fit-mle.test.ts holds the row of MAX_FIT_BINS the same way).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_REDELIVERIES, MAX_SCHEDULE_ENTRIES } from '../src/model/limits.js';
import { ROOT } from './helpers.js';

const limits = readFileSync(join(ROOT, 'docs', 'security-and-limits.md'), 'utf8');
const shown = (n: number): string => n.toLocaleString('en-US');

describe('the limits table', () => {
  it('gives trigger.redeliveries and trigger.schedule their bounds, each with its constant', () => {
    expect(limits).toMatch(new RegExp(`^\\| \`trigger\\.redeliveries\` \\| 0 to ${shown(MAX_REDELIVERIES)} \\(\`MAX_REDELIVERIES\`\\)`, 'm'));
    expect(limits).toMatch(new RegExp(`^\\| \`trigger\\.schedule\` \\| 1 to ${shown(MAX_SCHEDULE_ENTRIES)} entries \\(\`MAX_SCHEDULE_ENTRIES\``, 'm'));
  });
});

describe('the limits table on run --effects-out', () => {
  it('states its bounds with their constants', async () => {
    const { MAX_EFFECT_ROWS } = await import('../src/io/effects-file.js');
    const { MAX_COUPLED_EFFECT_ACTIONS } = await import('../src/exec/effects.js');
    expect(limits).toMatch(new RegExp(`^\\| \`run --effects-out\` \\| ${shown(MAX_EFFECT_ROWS)} executions \\(\`MAX_EFFECT_ROWS\`.*at most ${shown(MAX_COUPLED_EFFECT_ACTIONS)} actions \\(\`MAX_COUPLED_EFFECT_ACTIONS\``, 'm'));
  });
});

describe('the limits table on counting simple groups', () => {
  it('states the law\'s segments, the laws and cuts kept and a story\'s draws with their constants', async () => {
    const { MAX_SEGMENTS } = await import('../src/engine/simple-law.js');
    const { MAX_TRIES } = await import('../src/engine/story-path.js');
    const { MAX_KEPT: MAX_LAWS, MAX_KEPT: MAX_CUTS } = await import('../src/engine/kept.js');
    expect(MAX_LAWS).toBe(MAX_CUTS);
    expect(limits).toMatch(new RegExp(`^\\| counting a keyed run's simple groups .*at most ${shown(MAX_SEGMENTS)} segments .*\\(\`MAX_SEGMENTS\`.*the last ${MAX_LAWS} laws and the last ${MAX_CUTS} latency cuts.*at most ${shown(MAX_TRIES)} times \\(\`MAX_TRIES\`\\)`, 'm'));
  });
});
