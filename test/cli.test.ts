/** What the README shows must stay true; the checks that need the built binary are in cli.e2e.test.ts. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

describe('README', () => {
  it('every YAML block in it parses (workflow and job snippets are copied as they are)', async () => {
    const { parseAllDocuments } = await import('yaml');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/^( *)```yaml\n([\s\S]*?)^\1```/gm)].map((m) => (m[2] as string).replace(new RegExp(`^${m[1]}`, 'gm'), ''));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const block of blocks) {
      for (const doc of parseAllDocuments(block)) expect(doc.errors.map((e) => e.message), block).toEqual([]);
    }
  });
});
