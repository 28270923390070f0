/**
 * The presets table of docs/scenarios.md ("Presets from real systems") gives each trigger preset
 * the values scenario/presets.ts's TRIGGER_PRESETS sets, in its order, with a link to
 * docs/triggers.md (whose anchors test/docs-links.test.ts checks); so does docs/triggers.md's own
 * table ("Presets"), a value in each column.
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

describe('the presets table of docs/triggers.md', () => {
  const triggers = readFileSync(join(ROOT, 'docs', 'triggers.md'), 'utf8');
  const table = (triggers.split(/^## Presets$/m)[1]?.split(/^#+ /m)[0] ?? '').split('\n').filter((l) => l.startsWith('|'));
  const head = cells(table[0] ?? '');
  const rows = table.slice(2).map(cells);

  it('has a cell under every column in every row, and a row for every preset of presets.ts, in its order', () => {
    expect(head).toEqual(['preset', 'kind', 'ack_timeout', 'extend_up_to', 'redeliveries', 'schedule']);
    for (const row of rows) expect(row.length, row[0]).toBe(head.length);
    expect(rows.map((r) => r[0])).toEqual(Object.keys(TRIGGER_PRESETS).map((name) => `\`${name}\``));
  });

  it('gives each preset the values presets.ts sets (a count that stands for a retention says so)', () => {
    for (const [name, preset] of Object.entries(TRIGGER_PRESETS)) {
      const row = rows.find((r) => r[0] === `\`${name}\``) ?? [];
      const { trigger } = preset.values as { trigger: Readonly<Record<string, unknown>> };
      const schedule = trigger['schedule'] as string[] | undefined;
      expect(row.slice(1, 4), name).toEqual([trigger['kind'], trigger['ack_timeout'], trigger['extend_up_to'] ?? 'none']);
      expect(row[4]?.split(' ')[0], name).toBe(String(trigger['redeliveries']));
      if (preset.retention !== undefined) expect(row[4], name).toMatch(new RegExp(`\\(${/^(\d+)d$/.exec(preset.retention)?.[1]} days of retention\\)$`));
      expect(row[5], name).toBe(schedule ? `\`[${schedule.join(', ')}]\`` : '(not set)');
    }
  });
});
