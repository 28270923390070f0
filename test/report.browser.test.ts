/**
 * The report in a real browser: Debian's Chromium (never a downloaded one), driven by
 * playwright-core, opens the generated file with every non-file: request blocked, and must
 * render the timeline's rows and legend without a console error. `.ci/run` installs Chromium.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planChunks } from '../src/engine/plan.js';
import { chunkRng } from '../src/random/rng.js';
import { gridStepFor } from '../src/engine/grid.js';
import { traceChunk } from '../src/engine/trace.js';
import { sampleRows } from '../src/report/timeline-rows.js';
import { loadScenario } from '../src/cli/shared/load.js';
import { cli, ROOT, withoutNotes } from './helpers.js';
import { CHROMIUM } from './setup/browser.js';
import { openOffline } from './offline-page.js';

const SCENARIO = join(ROOT, 'scenarios/mission-2-slow-downstream.yaml');

/** The rows the page should have, computed here from the model, not read from the page. */
function expectedRows(): number {
  const { scenario } = loadScenario(SCENARIO, []);
  const plan = planChunks('7', scenario.actions, scenario.load.rate_per_s, 0, 1)[0]!;
  const { actions } = traceChunk(scenario, gridStepFor(scenario), chunkRng('7', 0), plan);
  return sampleRows(actions, plan.offset, scenario.client.timeout).rows.length;
}

describe(`the HTML report in headless Chromium (${CHROMIUM})`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-report-'));
  const page = join(dir, 'report.html');
  let browser: Browser;

  beforeAll(async () => {
    const r = cli(['report', SCENARIO, '--seed', '7', '--threads', '1', '--out', page]);
    expect(withoutNotes(r.stderr)).toBe('');
    expect(r.status).toBe(0);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => { await browser?.close(); });

  it('is one small self-contained file', () => {
    const html = readFileSync(page, 'utf8');
    expect(statSync(page).size).toBeLessThan(2_000_000);
    // No external resource at all: the only URLs are SVG namespace names, which are never fetched.
    const urls = html.match(/(?:https?:)?\/\/[\w.-]+\.[a-z]{2,}[^\s"'<>)]*/g) ?? [];
    expect(urls.filter((u) => !u.startsWith('http://www.w3.org/'))).toEqual([]);
  });

  it('renders the timeline rows and legend offline, with no console error, and tells a row\'s story', async () => {
    const { tab, errors, blocked } = await openOffline(browser, page);
    const context = tab.context();
    await expect.poll(() => tab.locator('svg.timeline g.row').count()).toBe(expectedRows());
    expect(await tab.locator('svg.timeline g.legend').isVisible()).toBe(true);
    expect(await tab.locator('svg.timeline g.legend text').allTextContents()).toContain('duplicate execution');
    // The duplicate breakdown chart (Vega-Lite, rendered to SVG in Node) is on the page too.
    expect(await tab.locator('figure svg').count()).toBeGreaterThan(0);

    const duplicateRow = tab.locator('svg.timeline g.row', { has: tab.locator('circle.duplicate') }).first();
    await duplicateRow.hover();
    await expect.poll(() => tab.locator('#story').textContent()).toMatch(/^Action #\d+[\s\S]*DUPLICATE/);

    const shot = join(dir, 'report.png');
    await tab.screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  });

  /** The story panel's text and whether it shows all of it: what is scrolled past or cut off, and whether a line runs off its side. */
  const panelState = (tab: Page) => tab.locator('#story').evaluate((el) => ({
    text: el.textContent ?? '', pinned: el.classList.contains('pinned'),
    overflowY: el.scrollHeight - el.clientHeight, overflowX: el.scrollWidth - el.clientWidth,
    atEnd: el.scrollTop + el.clientHeight >= el.scrollHeight - 1,
  }));
  /** The index of the row with the longest story (in lines), and the longest story, read from the rows' titles. */
  const longestStory = async (tab: Page) => {
    const titles = await tab.locator('svg.timeline g.row > title').allTextContents();
    const lines = titles.map((t) => t.split('\n').length);
    const index = lines.indexOf(Math.max(...lines));
    return { index, story: titles[index] as string, lines: lines[index] as number };
  };

  it('shows the longest story whole, without scrolling, in a laptop-sized window', async () => {
    const context = await browser.newContext({ viewport: { width: 1240, height: 900 } });
    const tab = await context.newPage();
    await tab.goto(pathToFileURL(page).href);
    const longest = await longestStory(tab);
    expect(longest.lines).toBeGreaterThan(12); // longer than the 15em panel of old held (10 lines)
    await tab.locator('svg.timeline g.row').nth(longest.index).hover();
    await expect.poll(async () => (await panelState(tab)).text).toBe(longest.story);
    const state = await panelState(tab);
    expect(state.overflowY).toBeLessThanOrEqual(1); // nothing cut off, nothing to scroll to
    expect(state.overflowX).toBeLessThanOrEqual(1); // long lines wrap
    // The panel keeps its height for every story: the timeline under the pointer does not move.
    const height = await tab.locator('#story').evaluate((el) => el.getBoundingClientRect().height);
    await tab.locator('svg.timeline g.row').nth(longest.index === 0 ? 1 : 0).hover();
    expect(await tab.locator('#story').evaluate((el) => el.getBoundingClientRect().height)).toBe(height);
    await context.close();
  });

  it('the story panel holding only its hint scrolls away with the page, hiding no row; once it tells a story it stays in view', async () => {
    const context = await browser.newContext({ viewport: { width: 1240, height: 900 } });
    const tab = await context.newPage();
    await tab.goto(pathToFileURL(page).href);
    await tab.evaluate(() => window.scrollTo(0, (document.querySelector('svg.timeline') as Element).getBoundingClientRect().top + window.scrollY + 200));
    expect(await tab.locator('#story').evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThanOrEqual(0);
    const rows = tab.locator('svg.timeline g.row');
    const low = await rows.evaluateAll((all) => all.findIndex((r) => r.getBoundingClientRect().top > 0.8 * window.innerHeight));
    await rows.nth(low).hover();
    await expect.poll(() => tab.locator('#story').evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBe(0);
    expect(await tab.locator('#story').textContent()).toMatch(/^(Action|The twin of action) #\d+/);
    await context.close();
  });

  it('a click keeps a story in the panel while the pointer crosses other rows and the story is scrolled; Escape lets go', async () => {
    const context = await browser.newContext({ viewport: { width: 560, height: 560 } }); // narrow: the story wraps past the panel
    const tab = await context.newPage();
    await tab.goto(pathToFileURL(page).href);
    const longest = await longestStory(tab);
    const rows = tab.locator('svg.timeline g.row');
    await rows.nth(longest.index).scrollIntoViewIfNeeded();
    await rows.nth(longest.index).click();
    expect(await panelState(tab)).toMatchObject({ text: longest.story, pinned: true });
    // To the panel, over the other rows on the way.
    const other = longest.index === 0 ? 1 : 0;
    await rows.nth(other).hover();
    const box = await tab.locator('#story').boundingBox();
    await tab.mouse.move((box?.x ?? 0) + 20, (box?.y ?? 0) + 20, { steps: 10 });
    expect((await panelState(tab)).text).toBe(longest.story);
    // Scrolled to its end, the whole story has been shown: nothing is cut off.
    expect((await panelState(tab)).overflowY).toBeGreaterThan(0);
    await tab.mouse.wheel(0, 5000);
    await expect.poll(async () => (await panelState(tab)).atEnd).toBe(true);
    expect((await panelState(tab)).text).toBe(longest.story);
    await tab.keyboard.press('Escape');
    expect((await panelState(tab)).pinned).toBe(false);
    await rows.nth(other).hover();
    await expect.poll(async () => (await panelState(tab)).text).not.toBe(longest.story);
    await context.close();
  });
});
