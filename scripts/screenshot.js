#!/usr/bin/env node
// Renders an HTML file (such as `idem-sim report --out report.html`) to a PNG with Debian's
// Chromium: `node scripts/screenshot.js report.html docs/report.png [width] [height]`.
// Used for the README's picture; requests other than file: are blocked, as in the browser test.
import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [input, output, width = '1240', height = '1600'] = process.argv.slice(2);
if (!input || !output) {
  process.stderr.write('usage: node scripts/screenshot.js page.html out.png [width] [height]\n');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
  await page.route((url) => url.protocol !== 'file:', (route) => route.abort());
  await page.goto(pathToFileURL(resolve(input)).href);
  // Show a story: of an action with a duplicate if there is one.
  const rows = page.locator('svg.timeline g.row');
  const duplicate = rows.filter({ has: page.locator('circle.duplicate') }).first();
  const row = (await duplicate.count()) ? duplicate : page.locator('svg.timeline g.row.eventful').first();
  if (await row.count()) await row.hover();
  await page.screenshot({ path: output, fullPage: false });
} finally {
  await browser.close();
}
