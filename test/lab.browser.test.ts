/**
 * The lab page (issue 16) in Debian's Chromium through playwright-core: it asks for nothing but
 * its own file and the engine's blob:, the knobs run the real engine in a worker, its numbers
 * are those of `idem-sim run --json` for the command it shows, missions earn stars kept across a
 * reload, the keyboard reaches every knob, and a refused value gets the CLI's message.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';
import { CHROMIUM } from './setup/browser.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-lab-'));

/** Writes a lab page with `idem-sim lab ARGS --out FILE`. */
function labPage(name: string, args: string[]): string {
  const file = join(dir, `${name}.html`);
  const r = cli(['lab', ...args, '--out', file]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return pathToFileURL(file).href;
}

/** `requests`: every URL the page asked for, and each worker's script. */
interface Tab { page: Page; requests: string[]; errors: string[] }

/** A page of the lab with every request and error recorded (requests not file: or blob: are refused). */
async function open(context: BrowserContext, url: string): Promise<Tab> {
  const page = await context.newPage();
  const tab: Tab = { page, requests: [], errors: [] };
  page.on('request', (r) => tab.requests.push(r.url()));
  page.on('worker', (w) => tab.requests.push(w.url()));
  page.on('console', (m) => { if (m.type() === 'error') tab.errors.push(m.text()); });
  page.on('pageerror', (e) => tab.errors.push(e.message));
  context.on('weberror', (e) => tab.errors.push(e.error().message));
  await page.route((u) => u.protocol !== 'file:' && u.protocol !== 'blob:', (route) => route.abort());
  await page.goto(url);
  await settled(page, 1);
  return tab;
}

/** Waits for the page's `n`th settled run (or load), and says how it ended. */
async function settled(page: Page, n: number): Promise<string> {
  await page.waitForSelector(`#status[data-runs="${n}"]`, { timeout: 60_000 });
  return (await page.locator('#status').getAttribute('data-state')) ?? '';
}

const runs = async (page: Page) => Number(await page.locator('#status').getAttribute('data-runs'));
const value = async (page: Page, metric: string) => JSON.parse((await page.locator(`[data-metric="${metric}"]`).getAttribute('data-value')) ?? 'null') as unknown;

/** Changes a knob as a person does (a choice picked, a text typed and Enter), and waits for the run. */
async function setKnob(page: Page, key: string, text: string): Promise<string> {
  const n = await runs(page);
  const knob = page.locator(`[data-key="${key}"]`);
  if ((await knob.evaluate((el) => el.tagName)) === 'SELECT') await knob.selectOption(text);
  else { await knob.fill(text); await knob.press('Enter'); }
  return settled(page, n + 1);
}

/** Clicks a button that loads a scenario (a mission) and waits for its run. */
async function clickAndSettle(page: Page, selector: string): Promise<string> {
  const n = await runs(page);
  await page.click(selector);
  return settled(page, n + 1);
}

/** The command the page shows, as arguments (without `idem-sim`). */
const commandArgs = async (page: Page) => (JSON.parse((await page.locator('#command').getAttribute('data-args')) ?? '[]') as string[]).slice(1);

describe(`the lab in headless Chromium (${CHROMIUM})`, () => {
  let browser: Browser;
  let defaults: string;

  beforeAll(async () => {
    defaults = labPage('lab', []);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => { await browser?.close(); });

  it('asks for nothing but its own file and the engine\'s blob:, and logs no error, through runs and a mission', async () => {
    const context = await browser.newContext();
    const { page, requests, errors } = await open(context, defaults);
    expect(await setKnob(page, 'idempotency.scope', 'call')).toBe('done');
    expect(await clickAndSettle(page, '[data-mission="mission-3-crash-replays"]')).toBe('done'); // the mission's load, then its run
    await page.locator('svg.timeline g.row').first().click();
    expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('blob:'))).toEqual([]);
    expect(requests.filter((u) => u.startsWith('file:'))).toEqual([defaults]);
    // The engine runs in a worker whose script is the page's own, from a blob: URL.
    expect(page.workers().map((w) => w.url().slice(0, 5))).toEqual(['blob:']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on the lab defaults, scope none to intent takes duplicates per 1000 from about 41 to 0', async () => {
    const context = await browser.newContext();
    const { page } = await open(context, defaults);
    expect(await page.locator('[data-key="idempotency.scope"]').inputValue()).toBe('none');
    // The guide's 41 per 1000 at 4,000 actions has a standard error of about 3.2 (sqrt(41.5 * 1.04 / 4000)
    // per action, x 1000); 4 of them either side is 28 to 54.
    const before = (await value(page, 'duplicates_per_1000')) as number;
    expect(before).toBeGreaterThan(28);
    expect(before).toBeLessThan(54);
    expect(await page.locator('svg.timeline circle.duplicate').count()).toBeGreaterThan(0); // the pink dots
    expect(await setKnob(page, 'idempotency.scope', 'intent')).toBe('done');
    expect(await value(page, 'duplicates_per_1000')).toBe(0);
    expect(await page.locator('svg.timeline circle.duplicate').count()).toBe(0);
    expect(await page.locator('#command').textContent()).toBe('idem-sim run --set idempotency.scope=intent --seed 1');
    await context.close();
  });

  /** The page's metrics, every displayed one and the whole JSON, against `idem-sim run --json` for the command the page shows. */
  async function expectCliNumbers(page: Page): Promise<void> {
    const args = await commandArgs(page);
    const r = cli([...args, '--json', '--threads', '2']);
    expect(r.status, r.stderr).toBe(0);
    const metrics = (JSON.parse(r.stdout) as { results: { metrics: Record<string, unknown> }[] }).results[0]?.metrics;
    expect(await page.locator('#metrics-json').textContent()).toBe(JSON.stringify(metrics, null, 2));
    for (const el of await page.locator('[data-metric]').all()) {
      const path = (await el.getAttribute('data-metric')) as string;
      let node: unknown = metrics;
      for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
      const expected = typeof node === 'object' && node !== null ? (node as { value: number }).value : node;
      // A reading the run does not report (capacity's, without its keys) reads null, its row hidden.
      expect(await el.getAttribute('data-value'), path).toBe(JSON.stringify(expected ?? null));
    }
  }

  it('gives the numbers of idem-sim run --json for the same scenario and seed, in three scenarios', async () => {
    const context = await browser.newContext();
    const { page } = await open(context, defaults);
    await setKnob(page, 'seed', 'lab-42');
    await setKnob(page, 'actions', '40000'); // three chunks, summed across the CLI's two threads
    expect(await commandArgs(page)).toEqual(['run', '--actions', '40000', '--seed', 'lab-42']);
    await expectCliNumbers(page);

    await clickAndSettle(page, '[data-mission="mission-2-slow-downstream"]');
    await setKnob(page, 'idempotency.scope', 'intent');
    await setKnob(page, 'client.timeout', '3s');
    expect((await commandArgs(page)).slice(0, 2)).toEqual(['run', 'scenarios/mission-2-slow-downstream.yaml']);
    await expectCliNumbers(page);
    await context.close();

    const belgavi = await browser.newContext();
    const tab = await open(belgavi, labPage('belgavi', ['scenarios/belgavi-refunds.yaml', '--seed', '9']));
    const n = await runs(tab.page);
    await tab.page.selectOption('#latency-form', 'percentiles');
    await settled(tab.page, n + 1);
    await setKnob(tab.page, 'service.latency.p99', '3s');
    expect(await commandArgs(tab.page)).toContain('service.latency={p50: 300ms, p99: 3s}');
    await expectCliNumbers(tab.page);
    await belgavi.close();
  });

  it('a mission earns its star when its expect: goals pass, and keeps it after a reload until cleared', async () => {
    const context = await browser.newContext();
    const { page } = await open(context, defaults);
    const star = page.locator('[data-star="mission-1-blind-retries"]');
    expect(await star.textContent()).toBe('☆');
    await clickAndSettle(page, '[data-mission="mission-1-blind-retries"]');
    expect(await page.locator('#mission-hint').textContent()).toContain('outside the retry loop');
    expect(await page.locator('#mission-goals li.fail').count()).toBe(1); // duplicates_per_1000 == 0
    expect(await star.textContent()).toBe('☆');
    await setKnob(page, 'idempotency.scope', 'intent');
    expect(await page.locator('#mission-goals li.pass').count()).toBe(2);
    expect(await page.locator('#mission-verdict').textContent()).toContain("mission 1's star is earned");
    expect(await star.textContent()).toBe('★');
    await page.reload();
    await settled(page, 1);
    expect(await page.locator('[data-star="mission-1-blind-retries"]').textContent()).toBe('★');
    expect(await page.locator('#stars-count').textContent()).toBe('1 of 5 stars.');
    await page.click('#clear-stars');
    expect(await page.locator('[data-star="mission-1-blind-retries"]').textContent()).toBe('☆');
    await context.close();
  });

  it('mission 5 (Slack redelivers): the trigger\'s knobs solve it, a run id from the message with intent keys', async () => {
    const context = await browser.newContext();
    const { page } = await open(context, defaults);
    await clickAndSettle(page, '[data-mission="mission-5-slack-redelivery"]');
    expect(await page.locator('#mission-goals li.fail').count()).toBe(2); // duplicates from redeliveries, and in all
    expect(await page.locator('[data-key="trigger.ack_timeout"]').inputValue()).toBe('3s'); // the slack preset's
    await setKnob(page, 'idempotency.scope', 'intent');
    expect(await page.locator('#mission-goals li.fail').count()).toBe(2); // a run id per delivery: still a key per run
    await setKnob(page, 'trigger.run_id', 'from_message');
    expect(await page.locator('#mission-goals li.pass').count()).toBe(3);
    expect(await page.locator('#mission-verdict').textContent()).toContain("mission 5's star is earned");
    await context.close();
  });

  it('the keyboard reaches every knob, and a knob changed from the keyboard runs the scenario', async () => {
    const context = await browser.newContext();
    const { page } = await open(context, defaults);
    const visible = await page.locator('[data-key]:visible').evaluateAll((els) => els.map((el) => el.getAttribute('data-key')));
    expect(visible.length).toBeGreaterThan(25);
    const reached = new Set<string>();
    await page.locator('h1').click();
    for (let k = 0; k < 200 && reached.size < visible.length; k++) {
      await page.keyboard.press('Tab');
      const key = await page.evaluate(() => document.activeElement?.getAttribute('data-key'));
      if (key) reached.add(key);
    }
    expect([...reached].sort()).toEqual([...visible].sort());
    const n = await runs(page);
    await page.locator('[data-key="idempotency.scope"]').focus();
    await page.keyboard.press('ArrowDown'); // none -> attempt
    expect(await settled(page, n + 1)).toBe('done');
    expect(await page.locator('#command').textContent()).toContain('idempotency.scope=attempt');
    await context.close();
  });

  it('a knob given an invalid value shows the error the CLI gives for that option, under the knob', async () => {
    const context = await browser.newContext();
    const { page } = await open(context, defaults);
    for (const [key, text] of [['client.timeout', '5'], ['network.reply_loss', '1.5'], ['client.retries', 'three'], ['seed', '=1']] as const) {
      expect(await setKnob(page, key, text)).toBe('error');
      const r = cli(await commandArgs(page));
      expect(r.status).toBe(2);
      const error = page.locator(`[data-knob="${key}"] .knob-error`);
      expect(await error.isVisible()).toBe(true);
      expect(`idem-sim: error: ${await error.textContent()}\n`).toBe(r.stderr);
      expect(await page.locator(`[data-key="${key}"]`).getAttribute('aria-invalid')).toBe('true');
      expect(await setKnob(page, key, key === 'seed' ? '1' : key === 'client.retries' ? '3' : key === 'client.timeout' ? '1s' : '0.02')).toBe('done');
      expect(await error.isVisible()).toBe(false);
    }
    await context.close();
  });

  /** Every knob's value as the page shows it (a checkbox's as true or false), the latency form, and which knobs are shown. */
  const knobsShown = (page: Page) => page.evaluate(() => ({
    values: [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[data-key]')].map((el) => `${el.dataset['key']}=${el instanceof HTMLInputElement && el.type === 'checkbox' ? el.checked : el.value}`),
    outputs: [...document.querySelectorAll('.knob output')].map((el) => el.textContent),
    form: (document.getElementById('latency-form') as HTMLSelectElement).value,
    visible: [...document.querySelectorAll<HTMLElement>('[data-key]')].filter((el) => el.offsetParent !== null).map((el) => el.dataset['key']),
  }));

  it('before its engine starts, the knobs show the scenario\'s values, the ones the engine then sets', async () => {
    const url = labPage('belgavi-5m', ['scenarios/belgavi-refunds.yaml', '--set', 'idempotency.retention=5m', '--seed', '9']);
    const context = await browser.newContext();
    const waiting = await context.newPage();
    // An engine that never starts: the page as it is until the worker answers.
    await waiting.addInitScript(() => { (window as unknown as { Worker: unknown }).Worker = class { postMessage(): void {} addEventListener(): void {} terminate(): void {} }; });
    await waiting.goto(url);
    expect(await waiting.locator('#status').getAttribute('data-runs')).toBeNull(); // nothing loaded or run
    const before = await knobsShown(waiting);
    expect(before.values).toEqual(expect.arrayContaining(['idempotency.scope=intent', 'idempotency.fingerprint=business', 'idempotency.retention=5m', 'client.timeout=1s', 'seed=9']));
    const { page } = await open(context, url);
    expect(await knobsShown(page)).toEqual(before);
    await context.close();
  });

  it('the story panel holding only its hint scrolls away with the page, hiding no row; once it tells a story it stays in view', async () => {
    const context = await browser.newContext({ viewport: { width: 1240, height: 900 } });
    const { page } = await open(context, defaults);
    await page.evaluate(() => window.scrollTo(0, (document.getElementById('timeline') as HTMLElement).getBoundingClientRect().top + window.scrollY + 200));
    expect(await page.locator('#story').evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThanOrEqual(0);
    const row = page.locator('svg.timeline g.row').filter({ has: page.locator('title') });
    const low = await row.evaluateAll((rows) => rows.findIndex((r) => r.getBoundingClientRect().top > 0.8 * window.innerHeight));
    await row.nth(low).hover();
    await expect.poll(() => page.locator('#story').evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBe(0);
    expect(await page.locator('#story').textContent()).toMatch(/^(Action|The twin of action) #\d+/);
    await context.close();
  });

  it('tells a clicked row\'s story, shows a progress indicator for a long run, and stops it', async () => {
    const context = await browser.newContext();
    const { page } = await open(context, defaults);
    expect(await page.locator('svg.timeline g.legend text').allTextContents()).toContain('duplicate execution');
    await page.locator('svg.timeline g.row', { has: page.locator('circle.duplicate') }).first().click();
    expect(await page.locator('#story').textContent()).toMatch(/^Action #\d+[\s\S]*DUPLICATE/);
    expect(await page.locator('#story').getAttribute('class')).toContain('pinned');
    const n = await runs(page);
    const knob = page.locator('[data-key="actions"]');
    await knob.fill('100000000');
    await knob.press('Enter');
    await page.locator('#progress').waitFor({ state: 'visible' }); // a run of 10^8 actions takes minutes
    await page.click('#stop');
    expect(await settled(page, n + 1)).toBe('stopped');
    expect(await page.locator('#progress').isVisible()).toBe(false);
    expect(await setKnob(page, 'actions', '4000')).toBe('done');
    await context.close();
  });
});
