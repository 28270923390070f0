#!/usr/bin/env node
// Benchmark (not a test): the lab page's re-run time, `npm run bench:lab` (builds first).
//
// `idem-sim lab` writes the page; Debian's Chromium (playwright-core, as the browser tests) opens
// it from file://, and a knob (idempotency.scope) is switched back and forth RUNS times on the
// lab defaults' 4,000 actions. For each run the page records the time from the knob's change
// to its results on the page (the engine in its worker: parse, simulate, the traced chunk and
// the timeline; the messages; the drawing), and the engine's own time. Prints the median and
// the slowest of each, and the first (cold: the worker's JIT warm-up) apart.
//   node bench/lab.js [--json] [--screenshots]
// --screenshots also remakes docs/lab.md's pictures of the lab, docs/lab-wide.png and
// docs/lab-narrow.png: mission 1 loaded, a duplicate's story shown.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const RUNS = 21;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BIN = fileURLToPath(new URL('../bin/idem-sim.js', import.meta.url));
const json = process.argv.includes('--json');
const screenshots = process.argv.includes('--screenshots');

if (!existsSync(CHROMIUM)) {
  console.error(`bench/lab.js: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  process.exit(2);
}
const dir = mkdtempSync(join(os.tmpdir(), 'idem-sim-bench-lab-'));
const page = join(dir, 'lab.html');
execFileSync(process.execPath, [BIN, 'lab', '--out', page]);

/** docs/lab.md's pictures: mission 1 loaded in a window `width` wide, a duplicate's story in the panel. */
async function screenshot(browser, width, height, file) {
  const tab = await browser.newPage({ viewport: { width, height } });
  await tab.goto(pathToFileURL(page).href);
  await tab.waitForSelector('#status[data-runs="1"]');
  await tab.click('[data-mission="mission-1-blind-retries"]');
  await tab.waitForSelector('#status[data-runs="2"]');
  await tab.locator('svg.timeline g.row', { has: tab.locator('circle.duplicate') }).first().hover();
  await tab.evaluate(() => window.scrollTo(0, 0));
  await tab.screenshot({ path: fileURLToPath(new URL(`../docs/${file}`, import.meta.url)) });
  await tab.close();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
try {
  const tab = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  await tab.goto(pathToFileURL(page).href);
  const status = tab.locator('#status');
  const reading = async (n) => {
    await tab.waitForSelector(`#status[data-runs="${n}"][data-state="done"]`, { timeout: 60_000 });
    return { page: Number(await status.getAttribute('data-round-trip-ms')), engine: Number(await status.getAttribute('data-elapsed-ms')) };
  };
  const first = await reading(1);
  const runs = [];
  for (let k = 0; k < RUNS; k++) {
    await tab.selectOption('[data-key="idempotency.scope"]', k % 2 === 0 ? 'intent' : 'none');
    runs.push(await reading(k + 2));
  }
  const result = {
    actions: 4000, runs: RUNS,
    page_ms: { median: median(runs.map((r) => r.page)), max: Math.max(...runs.map((r) => r.page)) },
    engine_ms: { median: median(runs.map((r) => r.engine)), max: Math.max(...runs.map((r) => r.engine)) },
    first_run: first,
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Chromium ${browser.version()}`,
  };
  if (json) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(`lab page, 4,000 actions (lab defaults), ${RUNS} re-runs switching idempotency.scope; ${result.machine}`);
    console.log(`  knob change to results drawn: median ${result.page_ms.median} ms, slowest ${result.page_ms.max} ms`);
    console.log(`  of which the engine (worker):  median ${result.engine_ms.median} ms, slowest ${result.engine_ms.max} ms`);
    console.log(`  first run after the page opens (cold worker): ${first.page} ms (engine ${first.engine} ms)`);
  }
  if (screenshots) {
    await screenshot(browser, 1480, 2200, 'lab-wide.png');
    await screenshot(browser, 420, 1500, 'lab-narrow.png');
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
