/**
 * A page of the browser tier opened offline: every request that is not a file: one is refused and
 * noted, and every console error and uncaught exception collected, for the test to find empty.
 */
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

export interface OfflinePage { tab: Page; errors: string[]; blocked: string[] }

export async function openOffline(browser: Browser, file: string, viewport = { width: 1240, height: 1400 }): Promise<OfflinePage> {
  const context = await browser.newContext({ viewport });
  const tab = await context.newPage();
  const errors: string[] = [];
  const blocked: string[] = [];
  tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  tab.on('pageerror', (e) => errors.push(e.message));
  await tab.route((url) => url.protocol !== 'file:', (route) => { blocked.push(route.request().url()); return route.abort(); });
  await tab.goto(pathToFileURL(file).href);
  return { tab, errors, blocked };
}
