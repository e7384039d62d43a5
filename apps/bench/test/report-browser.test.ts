import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { writeReport } from '../src/report/report.js';
import { cleanTempDirs, tempDir, tinyStudy } from './helpers.js';
import { sampleRecords } from './records.js';

afterEach(cleanTempDirs);

// Debian's chromium (apt-get install chromium); CHROMIUM_PATH points elsewhere.
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
/** A study report to render: FB_REPORT_DIR (e.g. results/default after `pnpm bench`), else a small one. */
const GIVEN = process.env['FB_REPORT_DIR'];

if (!existsSync(CHROMIUM)) {
  console.warn(`report-browser.test: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

const launch = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });

async function reportDir(): Promise<string> {
  if (GIVEN) return GIVEN;
  const dir = tempDir();
  await writeReport(tinyStudy(), sampleRecords(), dir);
  return dir;
}

describe.skipIf(!existsSync(CHROMIUM))('the study report in headless Chromium', () => {
  it('opens report.html from disk with no console error and no network request; links select cells', async () => {
    const dir = await reportDir();
    const browser = await launch();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 1400 } })).newPage();
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('request', (r) => requests.push(r.url()));
      const url = `file://${join(dir, 'report.html')}`;
      await page.goto(url, { waitUntil: 'load' });
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
      expect(await page.locator('figure svg').count()).toBeGreaterThan(0);
      expect(await page.locator('figure script.vega-lite').count()).toBe(
        await page.locator('figure').count(),
      );

      // Sorting a numeric column sorts by number.
      const cells = page.locator('#cells-table');
      const visible = () => cells.locator('tbody tr:not(.hidden)');
      const total = await visible().count();
      expect(total).toBe(GIVEN ? total : sampleRecords().length);
      // An aggregate row's link shows exactly the cells it was computed from.
      const link = page.locator('a.cells-link').first();
      const selector = JSON.parse((await link.getAttribute('data-select'))!) as Record<string, string>;
      await link.click();
      const shown = await visible().count();
      expect(shown).toBeGreaterThan(0);
      expect(shown).toBeLessThanOrEqual(total);
      for (const [field, value] of Object.entries(selector)) {
        const values = await visible().locator(`td[data-field="${field}"]`).allTextContents();
        expect(new Set(values)).toEqual(new Set([value]));
      }
      // The filter box narrows the rows; clearing the selection shows every cell again.
      await page.locator('#clear-selection').click();
      expect(await visible().count()).toBe(total);
      const first = page.locator('th', { hasText: 'seconds' }).first();
      await first.click();
      const seconds = (await visible().locator('td[data-field="seconds"]').allTextContents())
        .filter((s) => s !== '')
        .map(Number);
      expect(seconds).toEqual([...seconds].sort((a, b) => a - b));
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('renders every figure to PNG (test/artifacts/figures/)', async () => {
    const dir = await reportDir();
    const svgs = readdirSync(join(dir, 'figures')).filter((f) => f.endsWith('.svg'));
    expect(svgs.length).toBeGreaterThan(0);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      mkdirSync(join(ARTIFACTS, 'figures'), { recursive: true });
      for (const f of svgs) {
        const svg = readFileSync(join(dir, 'figures', f), 'utf8');
        await page.setContent(`<html><body style="margin:0;background:#fff">${svg}</body></html>`);
        const box = await page.locator('svg').first().boundingBox();
        expect(box?.width, f).toBeGreaterThan(50);
        expect(box?.height, f).toBeGreaterThan(50);
        // Something drawn besides axes: a chart with data has marks.
        expect(
          await page.locator('svg .role-mark path, svg .role-mark rect, svg .role-mark line').count(),
          f,
        ).toBeGreaterThan(0);
        await page
          .locator('svg')
          .first()
          .screenshot({ path: join(ARTIFACTS, 'figures', f.replace(/\.svg$/, '.png')) });
      }
    } finally {
      await browser.close();
    }
  }, 120_000);
});
