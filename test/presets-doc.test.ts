/**
 * The presets table of docs/scenarios.md ("Presets from real systems") gives each trigger preset
 * the values scenario/presets.ts's TRIGGER_PRESETS sets, in its order, with a link to
 * docs/triggers.md (whose anchors test/docs-links.test.ts checks).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRIGGER_PRESETS } from '../src/scenario/presets.js';
import { ROOT } from './helpers.js';

const scenarios = readFileSync(join(ROOT, 'docs', 'scenarios.md'), 'utf8');
const section = scenarios.split(/^## Presets from real systems$/m)[1]?.split(/^## /m)[0] ?? '';

/** A table row's cells, `| a | b | c |` as [a, b, c]. */
const cells = (row: string): string[] => row.split('|').slice(1, -1).map((c) => c.trim());

/** A preset's values as the table's "sets" column writes them: `key value`, a list in brackets. */
const sets = (values: Readonly<Record<string, unknown>>): string => Object.entries(values)
  .map(([k, v]) => `${k} ${Array.isArray(v) ? `[${v.join(', ')}]` : String(v)}`).join(', ');

describe('the trigger presets in docs/scenarios.md', () => {
  const rows = section.split('\n').filter((l) => l.startsWith('| `trigger.preset: ')).map(cells);

  it('are every preset of presets.ts, in its order', () => {
    expect(rows.map((r) => r[0])).toEqual(Object.keys(TRIGGER_PRESETS).map((name) => `\`trigger.preset: ${name}\``));
  });

  it('set what presets.ts sets, and link to the provider\'s section of docs/triggers.md', () => {
    for (const [name, preset] of Object.entries(TRIGGER_PRESETS)) {
      const row = rows.find((r) => r[0] === `\`trigger.preset: ${name}\``);
      const { trigger } = preset.values as { trigger: Readonly<Record<string, unknown>> };
      expect(row?.[1], name).toBe(sets(trigger));
      expect(row?.[2], name).toMatch(/\(\[triggers\.md\]\(triggers\.md#[a-z-]+\)\)$/);
    }
  });
});
