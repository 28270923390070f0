/**
 * The browser tier's first step in each file (vitest.config.ts, setupFiles): Chromium is where the
 * tests launch it, or the file fails at once saying how to get it, instead of playwright's launch error.
 */
import { accessSync, constants } from 'node:fs';

/** The Chromium the browser tests drive: Debian's, or CHROMIUM_PATH. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

try {
  accessSync(CHROMIUM, constants.X_OK);
} catch {
  throw new Error(`No Chromium to run at ${CHROMIUM}. The browser tier (*.browser.test.ts) drives Debian's Chromium through playwright-core `
    + '(no browser is downloaded): install it with apt-get install chromium, as .ci/run does (README, "Set up"), set CHROMIUM_PATH to another '
    + 'Chromium, or run npm run test:unit (and npm run test:e2e) on a machine without it.');
}
