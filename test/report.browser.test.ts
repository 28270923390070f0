/**
 * The report in a real browser: Debian's Chromium (never a downloaded one), driven by
 * playwright-core, opens the generated file with every non-file: request blocked, and must
 * render the timeline's rows and legend without a console error. `.ci/run` installs Chromium.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planChunks } from '../src/model/plan.js';
import { chunkRng } from '../src/random/rng.js';
import { gridStepFor } from '../src/model/simulate.js';
import { traceChunk } from '../src/model/trace.js';
import { sampleRows } from '../src/cli/report/timeline-rows.js';
import { loadScenario } from '../src/cli/shared/load.js';
import { cli, ROOT } from './helpers.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SCENARIO = join(ROOT, 'scenarios/mission-2-slow-downstream.yaml');

/** The rows the page should have, computed here from the model, not read from the page. */
function expectedRows(): number {
  const { scenario } = loadScenario(SCENARIO, []);
  const plan = planChunks('7', scenario.actions, scenario.load.rate_per_s, 0, 1)[0]!;
  const { actions } = traceChunk(scenario, gridStepFor(scenario), chunkRng('7', 0), plan);
  return sampleRows(actions, plan.offset, scenario.client.timeout).rows.length;
}

describe.skipIf(!existsSync(CHROMIUM))(`the HTML report in headless Chromium (${CHROMIUM})`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-report-'));
  const page = join(dir, 'report.html');
  let browser: Browser;

  beforeAll(async () => {
    const r = cli(['report', SCENARIO, '--seed', '7', '--threads', '1', '--out', page]);
    expect(r.stderr).toBe('');
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
    const context = await browser.newContext({ viewport: { width: 1240, height: 1400 } });
    const tab = await context.newPage();
    const errors: string[] = [];
    const blocked: string[] = [];
    tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.route((url) => url.protocol !== 'file:', (route) => { blocked.push(route.request().url()); return route.abort(); });

    await tab.goto(pathToFileURL(page).href);
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
});
