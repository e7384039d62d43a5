import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from '../src/index.js';
import { syntheticCsv } from './synthetic.js';

// Debian's chromium (apt-get install chromium); CHROMIUM_PATH points elsewhere.
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.join(here, 'artifacts');

if (!existsSync(CHROMIUM)) {
  console.warn(`report-browser.test: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

describe.skipIf(!existsSync(CHROMIUM))('report.html in headless Chromium', () => {
  it('renders from disk with no console error and no network request, showing the decoded top subgroup and a pair', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fb-cli-report-'));
    const csv = path.join(dir, 'people.csv');
    writeFileSync(csv, syntheticCsv(1500));
    const out = path.join(dir, 'out');
    const io = { stdout: () => {}, stderr: () => {}, isTTY: false };
    const code = await audit(
      [
        csv,
        '--protected',
        'sex,race,age',
        '--outcome',
        'income=yes',
        '--train',
        'rf',
        '--time',
        '8',
        '--out',
        out,
      ],
      io,
      new AbortController().signal,
    );
    expect(code).toBe(0);
    const json = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
    const top: string = json.topSubgroups[0].subgroup;
    expect(top).toMatch(/ = | in \{| != /);
    const pairs = json.results.find((r: { findings: { kind: string } }) => r.findings.kind === 'individual')
      .findings.pairs;
    expect(pairs.length).toBeGreaterThan(0);

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1200, height: 1600 } });
      const page = await context.newPage();
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('request', (r) => requests.push(r.url()));
      const url = `file://${path.join(out, 'report.html')}`;
      await page.goto(url, { waitUntil: 'load' });
      expect(errors).toEqual([]);
      // The document itself is the only request: no script, style, font or image is fetched.
      expect(requests).toEqual([url]);
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees
      const text = await page.locator('body').innerText();
      expect(text).toContain(top);
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees
      const firstPairCell = await page.locator('#pairs td.pair').first().innerText();
      expect(firstPairCell).toMatch(/(sex|race|age): .+ → .+/);
      // Both decisions of the pair, in the outcome's labels.
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees
      const firstRow = await page.locator('#pairs tbody tr').first().innerText();
      expect(firstRow).toMatch(/\b(yes|no)\b[\s\S]*\b(yes|no)\b/);
      // The charts are inline SVG rendered from the embedded vega-lite specs.
      expect(await page.locator('figure svg').count()).toBeGreaterThan(0);
      expect(await page.locator('script[type="application/json"]').count()).toBe(
        await page.locator('figure').count(),
      );
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'report.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
