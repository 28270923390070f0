/**
 * The unit tier shares modules between the files a worker runs (isolate: false in
 * vitest.config.ts): src/ is loaded once per worker rather than once per file. Two kinds of file
 * need modules no other file has used, and get a fresh module graph before them and another
 * after them (so the next file meets none of their state):
 *  - a file that mocks a module (vi.mock): what it tests must load after its mocks;
 *  - a file that says so in a comment, `// fresh modules: why`: one whose checks depend on
 *    state a module keeps for the life of the process (such as the store secrets
 *    src/stores/redact.ts remembers).
 */
import { readFileSync } from 'node:fs';
import { afterAll, expect, vi } from 'vitest';

const NEEDS_FRESH_MODULES = /\bvi\.(do)?[mM]ock\(|\/\/ fresh modules: \S/;

const file = expect.getState().testPath;
if (file !== undefined && NEEDS_FRESH_MODULES.test(readFileSync(file, 'utf8'))) {
  vi.resetModules();
  afterAll(() => { vi.resetModules(); });
}
