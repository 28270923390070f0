/**
 * What the test tiers need, said where it is missing: the services and browser tiers check for
 * their service or browser first (test/setup/) and fail at once with what to start; `.ci/run`
 * installs what the tests use, waiting for a held package lock rather than failing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import config from '../vitest.config.js';
import { ROOT } from './helpers.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('a tier without its service or browser', () => {
  it('services and browser check first (setupFiles); unit gives fresh modules to a file that needs them; e2e needs nothing', () => {
    const projects = (config.test?.projects ?? []) as { test: { name: string; setupFiles?: string[] } }[];
    const setup = Object.fromEntries(projects.map((p) => [p.test.name, p.test.setupFiles ?? []]));
    expect(setup).toEqual({ unit: ['test/setup/unit.ts'], e2e: [], services: ['test/setup/services.ts'], browser: ['test/setup/browser.ts'] });
  });

  it('services: Redis not answering fails with where, why and what to do, and no password', async () => {
    // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
    vi.stubEnv('IDEM_SIM_TEST_REDIS', 'redis://:Hunter2Secret@127.0.0.1:1');
    const text = await import('./setup/services.js').then(() => 'loaded', (e: unknown) => String(e));
    expect(text).toMatch(/^Error: Redis does not answer at 127\.0\.0\.1:1 \(connect ECONNREFUSED 127\.0\.0\.1:1\)\. The services tier/);
    expect(text).toContain('start them as .ci/run does (README, "Set up")');
    expect(text).toContain('or run npm run test:unit');
    expect(text).not.toContain('Hunter2Secret');
  });

  it('browser: no Chromium at CHROMIUM_PATH fails with how to get one', async () => {
    vi.stubEnv('CHROMIUM_PATH', join(ROOT, 'no-such-chromium'));
    const text = await import('./setup/browser.js').then(() => 'loaded', (e: unknown) => String(e));
    expect(text).toBe(`Error: No Chromium to run at ${join(ROOT, 'no-such-chromium')}. The browser tier (*.browser.test.ts) drives Debian's Chromium through `
      + 'playwright-core (no browser is downloaded): install it with apt-get install chromium, as .ci/run does (README, "Set up"), set CHROMIUM_PATH '
      + 'to another Chromium, or run npm run test:unit (and npm run test:e2e) on a machine without it.');
  });
});

describe('.ci/run', () => {
  const script = readFileSync(join(ROOT, '.ci/run'), 'utf8');

  it('installs Chromium, zsh, fish and prometheus (promtool), and runs under CI=true so that no test skips for want of one', () => {
    expect(script).toMatch(/^export CI=true$/m);
    for (const pkg of ['chromium', 'zsh', 'fish', 'prometheus']) expect(script).toMatch(new RegExp(`missing\\+=\\(${pkg}\\)`));
  });

  it('every apt-get waits for a held package lock instead of failing with exit 100', () => {
    const calls = script.split('\n').filter((line) => /\bapt-get\b/.test(line) && !line.trimStart().startsWith('#'));
    expect(calls.length).toBeGreaterThan(0);
    for (const line of calls) expect(line).toMatch(/apt-get -o DPkg::Lock::Timeout=\d+ /);
  });
});
