/**
 * The lab over time in Debian's Chromium through playwright-core, offline: on the storm's service
 * (scenarios/capacity-storm.yaml's, for 4 minutes, with no incident) the incident switch adds a
 * 30-second pause, the time charts shade it and the storm outlives it to the load's end, with the
 * numbers of `idem-sim run --json` for the command the page shows; the guards of
 * capacity-guards.yaml bring the service back within a minute. The first chart, the share of each
 * bucket with every worker busy, stays at 100% from the pause past the load's end (the backlog
 * draining), and falls within a minute of it with the guards. The actions knob shows the count
 * load.duration brought, not an `actions` the run does not use.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';
import { openOffline } from './offline-page.js';
import { CHROMIUM } from './setup/browser.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-lab-time-'));

const STORM = `description: the storm's service for 4 minutes, no incident yet
load: {rate_per_s: 50, duration: 4m}
service:
  latency: {median: 300ms, sigma: 0.6}
  capacity: {workers: 26}
client: {timeout: 1s, retries: 3}
`;

/** Waits for the page's `n`th settled run (or load), and says how it ended. */
async function settled(page: Page, n: number): Promise<string> {
  await page.waitForSelector(`#status[data-runs="${n}"]`, { timeout: 120_000 });
  return (await page.locator('#status').getAttribute('data-state')) ?? '';
}

const runs = async (page: Page) => Number(await page.locator('#status').getAttribute('data-runs'));

/** Changes a knob as a person does (a box ticked or cleared, a text typed and Enter), and waits for the run. */
async function setKnob(page: Page, key: string, text: string): Promise<string> {
  const n = await runs(page);
  const knob = page.locator(`[data-key="${key}"]`);
  if ((await knob.getAttribute('type')) === 'checkbox') await knob.setChecked(text === 'true');
  else { await knob.fill(text); await knob.press('Enter'); }
  return settled(page, n + 1);
}

/** The saturation chart as drawn: its plot's top (100%), x at a run time (ms), and its line's steps `[x0, x1, y]`. */
async function saturationDrawn(page: Page): Promise<{ top: number; x: (ms: number) => number; steps: [number, number, number][]; width: number }> {
  const chart = page.locator('#time-charts svg[data-reading="saturated_share"]');
  const shade = chart.locator('g.incident[data-incident="pause"] rect');
  const num = async (l: ReturnType<Page['locator']>, a: string) => Number(await l.getAttribute(a));
  const [top, x80, width, xEnd] = [await num(shade, 'y'), await num(shade, 'x'), await num(shade, 'width'), await num(chart.locator('g.after-load rect'), 'x')];
  const x = (ms: number) => x80 + ((ms - 80_000) / (240_000 - 80_000)) * (xEnd - x80);
  const steps: [number, number, number][] = [];
  let at = 0, y = 0;
  for (const [, op, v] of ((await chart.locator('path.line').getAttribute('d')) ?? '').matchAll(/([MHV])([\d.]+(?: [\d.]+)?)/g)) {
    if (op === 'M') [at, y] = (v as string).split(' ').map(Number) as [number, number];
    else if (op === 'V') y = Number(v);
    else { steps.push([at, Number(v), y]); at = Number(v); }
  }
  return { top, x, steps, width };
}

/** Whether every step of the line over [from, to) ms is at 100%, or every one below it. */
function saturatedOver(d: Awaited<ReturnType<typeof saturationDrawn>>, from: number, to: number): boolean[] {
  const over = d.steps.filter(([x0, x1]) => x1 > d.x(from) + 0.5 && x0 < d.x(to) - 0.5).map(([, , y]) => y === d.top);
  expect(over.length).toBeGreaterThan(0);
  return over;
}

const commandArgs = async (page: Page) => (JSON.parse((await page.locator('#command').getAttribute('data-args')) ?? '[]') as string[]).slice(1);

interface Bucket { start_ms: number; timeouts: number; succeeded: number }

/** The run's series as the page writes it under its charts (its details opened). */
async function series(page: Page): Promise<{ step_ms: number; buckets: Bucket[] }> {
  const details = page.locator('#series-details');
  if (!(await details.evaluate((el) => (el as HTMLDetailsElement).open))) await details.locator('summary').click();
  // The page writes the JSON when the details' toggle event comes, a task after the click.
  await page.locator('#series-json').filter({ hasText: '"step_ms"' }).waitFor();
  return JSON.parse((await page.locator('#series-json').textContent()) ?? '{}') as { step_ms: number; buckets: Bucket[] };
}

/** A count per second over [from, to) ms. */
function rate(s: { step_ms: number; buckets: Bucket[] }, name: 'timeouts' | 'succeeded', from: number, to: number): number {
  return s.buckets.filter((b) => b.start_ms >= from && b.start_ms < to).reduce((sum, b) => sum + b[name], 0) / ((to - from) / 1000);
}

/** The page's metrics against `idem-sim run --json` for the command it shows (the quiet time's figures included). */
async function expectCliNumbers(page: Page): Promise<void> {
  const r = cli([...(await commandArgs(page)), '--json']);
  expect(r.status, r.stderr).toBe(0);
  const metrics = (JSON.parse(r.stdout) as { results: { metrics: unknown }[] }).results[0]?.metrics;
  expect(JSON.parse((await page.locator('#metrics-json').textContent()) ?? '{}')).toEqual(metrics);
}

describe(`the lab over time in headless Chromium (${CHROMIUM}), offline`, () => {
  let browser: Browser;
  let file: string;

  beforeAll(async () => {
    const scenario = join(dir, 'storm.yaml');
    writeFileSync(scenario, STORM);
    file = join(dir, 'lab.html');
    const r = cli(['lab', scenario, '--out', file]);
    expect(r.status, r.stderr).toBe(0);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => { await browser?.close(); });

  it('turns the incident on: a pause shaded on the charts, and a storm that outlives it until the load ends; the guards end it', async () => {
    const { tab, errors, blocked } = await openOffline(browser, file);
    expect(await settled(tab, 1)).toBe('done');
    // The actions knob: the count load.duration brought (read only), as the status line says.
    const primaries = JSON.parse((await tab.locator('[data-metric="primary_actions"]').getAttribute('data-value')) ?? 'null') as number;
    expect(primaries).toBeGreaterThan(11_000);
    expect(await tab.locator('[data-key="actions"]').inputValue()).toBe(String(primaries));
    expect(await tab.locator('[data-key="actions"]').evaluate((el) => (el as HTMLInputElement).readOnly)).toBe(true);
    expect(await tab.locator('[data-knob="actions"] output').textContent()).toBe('simulated: set by load.duration');
    expect(await tab.locator('#status').textContent()).toContain(`${primaries.toLocaleString('en-US')} actions simulated`);
    expect(await tab.locator('#time-charts svg g[data-incident]').count()).toBe(0);

    expect(await tab.locator('[data-key^="incidents[0]."]:visible').count()).toBe(0);
    expect(await setKnob(tab, 'incidents[0]', 'true')).toBe('done');
    expect(await tab.locator('[data-key^="incidents[0]."]:visible').evaluateAll((els) => els.map((el) => el.getAttribute('data-key'))))
      .toEqual(['incidents[0].from', 'incidents[0].to', 'incidents[0].service.capacity.workers', 'incidents[0].service.latency_multiplier']);
    expect((await commandArgs(tab)).slice(2)).toEqual([
      '--set', 'incidents[0].name=pause', '--set', 'incidents[0].from=80s', '--set', 'incidents[0].to=110s',
      '--set', 'incidents[0].service.capacity.workers=0', '--seed', '1',
    ]);
    const charts = await tab.locator('#time-charts svg[data-series]').evaluateAll((els) => els.map((el) => el.getAttribute('data-series')));
    expect(charts).toEqual(['arrivals', 'attempts', 'timeouts', 'succeeded', 'duplicates']);
    const shaded = tab.locator('#time-charts svg[data-series="timeouts"] g.incident[data-incident="pause"]');
    expect([await shaded.getAttribute('data-from-ms'), await shaded.getAttribute('data-to-ms')]).toEqual(['80000', '110000']);
    expect(await shaded.locator('rect').boundingBox()).toMatchObject({ width: expect.any(Number) });
    const storm = await series(tab);
    expect(storm.step_ms).toBe(2000);
    // Before the pause about 2 timeouts a second; from a minute after it to the load's end, every call fails.
    expect(rate(storm, 'timeouts', 0, 80_000)).toBeLessThan(5);
    expect(rate(storm, 'timeouts', 170_000, 240_000)).toBeGreaterThan(200);
    expect(rate(storm, 'succeeded', 170_000, 240_000)).toBe(0);
    expect(await tab.locator('#saturation p.saturation').textContent()).toContain('pause: did not recover before the load ended');
    // The saturation chart, first: every worker busy from the pause on, past the load's end (the backlog draining, in the grey).
    expect(await tab.locator('#time-charts svg.series-chart').first().getAttribute('data-reading')).toBe('saturated_share');
    const stormed = await saturationDrawn(tab);
    expect(stormed.width).toBeGreaterThanOrEqual(4);
    expect(saturatedOver(stormed, 0, 60_000).every((s) => !s)).toBe(true);
    expect(saturatedOver(stormed, 80_000, 244_000).every(Boolean)).toBe(true);
    expect(stormed.steps.at(-1)?.[1]).toBeGreaterThan(stormed.x(244_000));
    await expectCliNumbers(tab);

    // The guards of capacity-guards.yaml: the service is back within a minute of the pause.
    await setKnob(tab, 'service.capacity.queue', '26');
    await setKnob(tab, 'service.capacity.retry_after', '2s');
    expect(await setKnob(tab, 'client.retry_budget', 'true')).toBe('done');
    expect(await tab.locator('#time-charts svg[data-series="budget_denied"] g.incident[data-incident="pause"]').count()).toBe(1);
    const guarded = await series(tab);
    expect(rate(guarded, 'timeouts', 170_000, 240_000)).toBeLessThan(10);
    expect(rate(guarded, 'succeeded', 170_000, 240_000)).toBeGreaterThan(40);
    const cleared = /pause: backlog cleared ([\d.]+) (ms|s) after it ended$/.exec((await tab.locator('#saturation p.saturation').textContent()) ?? '');
    expect(cleared).not.toBeNull();
    expect(Number(cleared?.[1]) * (cleared?.[2] === 's' ? 1000 : 1)).toBeLessThan(60_000); // within a minute of the pause
    // Saturated through the pause, free again within a minute of its end to the load's end.
    const guardedDrawn = await saturationDrawn(tab);
    expect(saturatedOver(guardedDrawn, 80_000, 110_000).every(Boolean)).toBe(true);
    expect(saturatedOver(guardedDrawn, 170_000, 240_000).every((s) => !s)).toBe(true);
    expect(await tab.locator('tr[data-only="capacity"]:visible [data-metric="saturated_share"]').count()).toBe(1);

    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
    await tab.context().close();
  }, 300_000);

  it('switches load.duration off: the actions knob is a number again, and the page runs that many', async () => {
    const { tab, errors } = await openOffline(browser, file);
    await settled(tab, 1);
    const primaries = await tab.locator('[data-key="actions"]').inputValue();
    expect(await setKnob(tab, 'load.duration', 'none')).toBe('done');
    expect(await tab.locator('[data-key="actions"]').evaluate((el) => (el as HTMLInputElement).readOnly)).toBe(false);
    expect(await tab.locator('[data-knob="actions"] output').textContent()).toBe('');
    expect((await commandArgs(tab)).slice(2)).toEqual(['--set', 'load.duration=none', '--actions', primaries, '--seed', '1']);
    expect(await setKnob(tab, 'actions', '2000')).toBe('done');
    expect(await tab.locator('[data-metric="primary_actions"]').getAttribute('data-value')).toBe('2000');
    expect(errors).toEqual([]);
    await tab.context().close();
  }, 300_000);
});
