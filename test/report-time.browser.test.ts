/**
 * The report's section "Over time" in a real browser (Debian's Chromium through playwright-core,
 * every non-file: request blocked, as test/report.browser.test.ts): a scenario with an incident
 * and an alert shows a chart per count that is not zero throughout, the incident's shading where
 * its window is, the alert's firings where the model put them, and words for each.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateAlerts, type AlertResult } from '../src/results/alerts.js';
import { simulate } from '../src/exec/simulate.js';
import { loadScenario } from '../src/cli/shared/load.js';
import { nonEmptyCounts } from '../src/report/series-chart.js';
import { cli, SLOWDOWN_YAML, withoutNotes } from './helpers.js';
import { CHROMIUM } from './setup/browser.js';

const MIN = 60_000;

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-report-time-browser-'));
const SCENARIO = join(dir, 'slowdown.yaml');
writeFileSync(SCENARIO, SLOWDOWN_YAML);

/** What the page should show, computed here from the model (seed 3, 1-minute buckets), not read from the page. */
function expected(): { charts: string[]; alerts: AlertResult[] } {
  const { scenario } = loadScenario(SCENARIO, []);
  const series = simulate(scenario, '3', MIN).series;
  if (!series) throw new Error('a run with a step counts a series');
  return { charts: nonEmptyCounts(series), alerts: evaluateAlerts(series, scenario.alerts, scenario.incidents) };
}

/** A box's left and right edges (px of the page). */
const edges = async (tab: Page, selector: string) => tab.locator(selector).first().evaluate((el) => {
  const r = el.getBoundingClientRect();
  return { left: r.left, right: r.right };
});

describe(`the report over time in headless Chromium (${CHROMIUM})`, () => {
  const page = join(dir, 'report.html');
  let browser: Browser;

  beforeAll(async () => {
    const r = cli(['report', SCENARIO, '--seed', '3', '--threads', '1', '--at', '5m', '--out', page]);
    expect(withoutNotes(r.stderr)).toBe('');
    expect(r.status).toBe(0);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the charts, the shading and the firings, offline and without a console error', async () => {
    const want = expected();
    expect(want.charts).toContain('conflicts_409');
    expect(want.alerts[0]?.firings.length).toBeGreaterThan(0);
    const context = await browser.newContext({ viewport: { width: 1240, height: 1400 } });
    const tab = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    tab.on('pageerror', (e) => errors.push(e.message));
    tab.on('request', (q) => { if (!q.url().startsWith('file:')) requests.push(q.url()); });
    await tab.route((url) => url.protocol !== 'file:', (route) => route.abort());
    await tab.goto(pathToFileURL(page).href);

    expect(await tab.locator('h2', { hasText: 'Over time' }).isVisible()).toBe(true);
    const charts = tab.locator('svg.series-chart');
    expect(await charts.evaluateAll((all) => all.map((s) => s.getAttribute('data-series')))).toEqual(want.charts);
    for (const name of want.charts) {
      const chart = tab.locator(`svg[data-series="${name}"]`);
      expect(await chart.isVisible()).toBe(true);
      // Named for assistive technology by its <title> and <desc>.
      const label = await chart.evaluate((svg) => (svg.getAttribute('aria-labelledby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? ''));
      expect(label[0]).toMatch(/per second over the run$/);
      expect(label[1]).toContain('Shaded and labelled: incident slowdown from 4 min to 6 min.');
      // The shading is drawn, labelled by name, on every chart.
      const shade = chart.locator('[data-incident="slowdown"]');
      expect(await shade.locator('text').textContent()).toBe('slowdown');
      expect(await shade.getAttribute('data-from-ms')).toBe(String(4 * MIN));
    }

    // The firings are the model's, and the first starts inside the incident's shading.
    const conflicts = 'svg[data-series="conflicts_409"]';
    const shade = await edges(tab, `${conflicts} [data-incident="slowdown"] rect`);
    const firings = tab.locator(`${conflicts} [data-alert="conflicts"]`);
    const drawn = await firings.evaluateAll((all) => all.map((g) => [Number(g.getAttribute('data-start-ms')), Number(g.getAttribute('data-end-ms'))]));
    expect(drawn).toEqual(want.alerts[0]?.firings);
    const band = await edges(tab, `${conflicts} [data-alert="conflicts"] rect`);
    expect(band.left).toBeGreaterThan(shade.left);
    expect(band.left).toBeLessThan(shade.right);
    expect(await tab.locator(`${conflicts} [data-threshold="conflicts"]`).count()).toBe(1);
    expect(await tab.locator('svg.series-chart:not([data-series="conflicts_409"]) [data-alert]').count()).toBe(0);

    // In words: what is shaded, and the alert's table row.
    expect(await tab.locator('p.note', { hasText: 'are the incident windows' }).textContent()).toContain('slowdown from 4 min to 6 min (latency ×4)');
    const delay = want.alerts[0]?.detection_delay_ms['slowdown'];
    expect(await tab.locator('tr[data-alert-row="conflicts"] td').nth(3).textContent()).toBe(`slowdown: ${delay === null || delay === undefined ? 'not detected' : `${delay / MIN} min`}`);
    expect(await tab.locator('[data-at-ms="300000"]').count()).toBe(want.charts.length);

    await tab.locator(conflicts).screenshot({ path: join(dir, 'conflicts.png') });
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await context.close();
  });
});
