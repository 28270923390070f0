/**
 * An agent's report page in Debian's Chromium (playwright-core), every non-file: request blocked:
 * the agent's table renders with one column per tool and the agent's, each tool's section shows
 * its headline and its duplicates-by-source chart, and nothing goes to the console.
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';
import { CHROMIUM } from './setup/browser.js';
import { openOffline } from './offline-page.js';

const AGENT = 'test/fixtures/agent-report/small-agent.yaml';

describe(`an agent's report in headless Chromium (${CHROMIUM})`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-agent-report-'));
  const page = join(dir, 'agent.html');
  let browser: Browser;

  beforeAll(async () => {
    const r = cli(['report', AGENT, '--out', page]);
    expect(r.status, r.stderr).toBe(0);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => { await browser?.close(); });

  it('renders the agent table, the tools and their charts offline, with no console error', async () => {
    const { tab, errors, blocked } = await openOffline(browser, page);
    const context = tab.context();

    const table = tab.locator('#agent-readings');
    expect(await table.isVisible()).toBe(true);
    expect(await table.locator('thead th').allTextContents()).toEqual(['', 'charge_card', 'post_note', 'agent small-agent']);
    // share, retried, calls, duplicates, lost, calls duplicated, two costs (EUR, notes), then the agent's three.
    expect(await table.locator('tbody tr').count()).toBe(11);
    const chance = table.locator('tbody tr', { hasText: 'chance a conversation (3 calls) meets a duplicate' });
    expect(await chance.locator('td').last().textContent()).toMatch(/^0\.\d+ ± 0\.\d+$/);
    expect(await tab.locator('#agent-warnings li').count()).toBe(1); // the lying hint (defaults' retries drive post_note, which the client retries: no warning)
    expect(await tab.locator('#agent-tools tbody tr').count()).toBe(2);
    expect(await tab.locator('section.tool').count()).toBe(2);
    expect(await tab.locator('section.tool figure svg').count()).toBe(2);
    // The last column (the agent's) is inside the page's width at a laptop's size.
    const box = await table.locator('thead th').last().boundingBox();
    expect((box?.x ?? Infinity) + (box?.width ?? 0)).toBeLessThanOrEqual(1240);

    const shot = join(dir, 'agent.png');
    await tab.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  });
});
