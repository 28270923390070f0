/**
 * docs/agent-keys.md is rendered from src/agent/shape.ts and src/agent/readings.ts by
 * `npm run generate`: the page and the code cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentKeysDoc } from '../src/agent/key-docs.js';
import { AGENT_READINGS } from '../src/agent/readings.js';
import { AGENT_SHAPE } from '../src/agent/shape.js';
import { ROOT } from './helpers.js';

const DOC = readFileSync(join(ROOT, 'docs/agent-keys.md'), 'utf8');

describe('docs/agent-keys.md', () => {
  it('is what src/agent/key-docs.ts renders (run `npm run generate` after changing the agent file\'s keys)', () => {
    const rendered = agentKeysDoc();
    const a = DOC.split('\n'), b = rendered.split('\n');
    const at = b.findIndex((line, j) => a[j] !== line);
    expect(at === -1 && a.length === b.length ? null : `line ${at + 1}: file ${JSON.stringify(a[at])}, rendered ${JSON.stringify(b[at])}`).toBeNull();
  });

  it('names every key of the agent and every reading', () => {
    for (const k of Object.keys(AGENT_SHAPE.params.agent.params)) expect(DOC).toContain(`\`agent.${k}\``);
    for (const k of Object.keys(AGENT_SHAPE.params.tools.of.params)) expect(DOC).toContain(`\`tools[].${k}\``);
    for (const d of AGENT_READINGS) expect(DOC).toContain(`\`agent.${d.path}\``);
  });
});
