/**
 * The lab's capacity knobs in Debian's Chromium through playwright-core: switching on
 * service.capacity shows its knobs and the run's capacity readings, with the numbers of
 * `idem-sim run --json` for the command the page shows; a bounded queue sheds and a retry
 * budget denies, drawn on the timeline; switching off hides them again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';
import { CHROMIUM } from './setup/browser.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-lab-capacity-'));

/** Waits for the page's `n`th settled run (or load), and says how it ended. */
async function settled(page: Page, n: number): Promise<string> {
  await page.waitForSelector(`#status[data-runs="${n}"]`, { timeout: 60_000 });
  return (await page.locator('#status').getAttribute('data-state')) ?? '';
}

const runs = async (page: Page) => Number(await page.locator('#status').getAttribute('data-runs'));

/** Changes a knob as a person does (a box ticked or cleared, a choice picked, a text typed and Enter), and waits for the run. */
async function setKnob(page: Page, key: string, text: string): Promise<string> {
  const n = await runs(page);
  const knob = page.locator(`[data-key="${key}"]`);
  const kind = await knob.evaluate((el) => (el instanceof HTMLInputElement ? el.type : el.tagName));
  if (kind === 'checkbox') await knob.setChecked(text === 'true');
  else if (kind === 'SELECT') await knob.selectOption(text);
  else { await knob.fill(text); await knob.press('Enter'); }
  return settled(page, n + 1);
}

const commandArgs = async (page: Page) => (JSON.parse((await page.locator('#command').getAttribute('data-args')) ?? '[]') as string[]).slice(1);
const shownKeys = (page: Page, prefix: string) => page.locator(`[data-key^="${prefix}."]:visible`).evaluateAll((els) => els.map((el) => el.getAttribute('data-key')));
const shownRows = (page: Page) => page.locator('tr[data-only="capacity"]:visible [data-metric]').evaluateAll((els) => els.map((el) => el.getAttribute('data-metric')));

/** Every metric the page holds (data-value) against `idem-sim run --json` for the command it shows. */
async function expectCliNumbers(page: Page): Promise<Record<string, unknown>> {
  const r = cli([...(await commandArgs(page)), '--json', '--threads', '2']);
  expect(r.status, r.stderr).toBe(0);
  const metrics = (JSON.parse(r.stdout) as { results: { metrics: Record<string, unknown> }[] }).results[0]?.metrics as Record<string, unknown>;
  for (const el of await page.locator('[data-metric]').all()) {
    const path = (await el.getAttribute('data-metric')) as string;
    let node: unknown = metrics;
    for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
    const expected = typeof node === 'object' && node !== null ? (node as { value: number }).value : node;
    expect(await el.getAttribute('data-value'), path).toBe(JSON.stringify(expected ?? null));
  }
  return metrics;
}

describe(`the lab's capacity knobs in headless Chromium (${CHROMIUM})`, () => {
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    const file = join(dir, 'lab.html');
    const r = cli(['lab', '--out', file]);
    expect(r.status, r.stderr).toBe(0);
    url = pathToFileURL(file).href;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => { await browser?.close(); });

  it('switches capacity on and off: its knobs, the readings\' rows and the timeline\'s waits come and go, with the CLI\'s numbers', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await settled(page, 1);
    expect(await shownKeys(page, 'service.capacity')).toEqual([]);
    expect(await shownRows(page)).toEqual([]);

    expect(await setKnob(page, 'service.capacity', 'true')).toBe('done');
    expect(await shownKeys(page, 'service.capacity')).toEqual(['service.capacity.workers', 'service.capacity.queue', 'service.capacity.order', 'service.capacity.drop_expired', 'service.capacity.retry_after']);
    expect(await commandArgs(page)).toEqual(['run', '--set', 'service.capacity.workers=23', '--seed', '1']);
    expect(await shownRows(page)).toContain('queue_wait_ms.p95');
    expect(await page.locator('svg.timeline g.legend text').allTextContents()).toContain('waited for a worker (the lighter start)');
    await expectCliNumbers(page);

    // Fewer workers than the load keeps busy (18) and a queue of 10: requests are shed; a retry budget runs dry.
    await setKnob(page, 'service.capacity.workers', '16');
    await setKnob(page, 'service.capacity.queue', '10');
    await setKnob(page, 'client.retry_budget', 'true');
    expect(await setKnob(page, 'client.retry_budget.tokens', '50')).toBe('done');
    expect(await commandArgs(page)).toEqual([
      'run', '--set', 'client.retry_budget.tokens=50', '--set', 'service.capacity.workers=16', '--set', 'service.capacity.queue=10', '--seed', '1',
    ]);
    const metrics = await expectCliNumbers(page);
    expect((metrics['shed_per_1000'] as { value: number }).value).toBeGreaterThan(0);
    expect((metrics['budget_denied_per_1000'] as { value: number }).value).toBeGreaterThan(0);
    expect(await page.locator('svg.timeline rect.attempt.shed').count()).toBeGreaterThan(0);
    expect(await page.locator('svg.timeline rect.wait').count()).toBeGreaterThan(0);

    await setKnob(page, 'client.retry_budget', 'false');
    expect(await setKnob(page, 'service.capacity', 'false')).toBe('done');
    expect(await commandArgs(page)).toEqual(['run', '--seed', '1']);
    expect(await shownKeys(page, 'service.capacity')).toEqual([]);
    expect(await shownRows(page)).toEqual([]);
    expect(await page.locator('svg.timeline rect.wait').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a breaker switched on shows its four settings and opens on a failing service', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await settled(page, 1);
    await setKnob(page, 'service.error_rate', '0.4');
    expect(await setKnob(page, 'client.breaker', 'true')).toBe('done');
    expect(await shownKeys(page, 'client.breaker')).toEqual(['client.breaker.failure_rate', 'client.breaker.window', 'client.breaker.min_calls', 'client.breaker.open_for']);
    expect(await setKnob(page, 'client.breaker.failure_rate', '0.3')).toBe('done');
    expect(await commandArgs(page)).toEqual(['run', '--set', 'client.breaker.failure_rate=0.3', '--set', 'service.error_rate=0.4', '--seed', '1']);
    const metrics = await expectCliNumbers(page);
    expect((metrics['breaker_rejected_per_1000'] as { value: number }).value).toBeGreaterThan(0);
    expect(await page.locator('svg.timeline path.stopped.breaker').count()).toBeGreaterThan(0);
    await context.close();
  });
});
