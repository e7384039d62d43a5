import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAdult } from '@fb/datasets';
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

const here2 = path.dirname(fileURLToPath(import.meta.url));
const DATA_DIR = process.env['FB_DATA_DIR'] ?? path.resolve(here2, '../../../../shared/datasets');
const HAS_ADULT = existsSync(path.join(DATA_DIR, 'adult/adult.data.gz'));
if (!HAS_ADULT)
  console.warn(`report-browser.test: Adult skipped, no adult/adult.data.gz in ${DATA_DIR} (set FB_DATA_DIR)`);

/** 95% Wilson interval, written out here apart from the code under test. */
function wilson(k: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [centre - half, centre + half];
}

describe.skipIf(!existsSync(CHROMIUM) || !HAS_ADULT)('the Adult report in headless Chromium', () => {
  it('lists no two subgroups overlapping at Jaccard 0.8, shows only realistic pairs, and names the disadvantaged groups', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'fb-cli-adult-')), 'out');
    const io = { stdout: () => {}, stderr: () => {}, isTTY: false };
    const code = await audit(
      [
        '--dataset',
        'adult',
        '--data-dir',
        DATA_DIR,
        '--protected',
        'sex,race,age',
        '--train',
        'rf',
        '--time',
        '20',
        '--out',
        out,
      ],
      io,
      new AbortController().signal,
    );
    expect(code).toBe(0);
    const json = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
    const adult = await loadAdult({ dataDir: DATA_DIR, missing: 'keep' });
    const eduAt = adult.schema.attributes.findIndex((a) => a.name === 'education');
    const numAt = adult.schema.attributes.findIndex((a) => a.name === 'education-num');
    const combos = new Set<string>();
    for (let i = 0; i < adult.n; i++) {
      combos.add(
        `${adult.schema.attributes[eduAt]!.categories![adult.x[i * adult.d + eduAt]!]}|${adult.x[i * adult.d + numAt]}`,
      );
    }

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
      await page.goto(`file://${path.join(out, 'report.html')}`, { waitUntil: 'load' });

      // Subgroups: the page lists what report.json lists; their member sets, compared pairwise by brute force.
      const listed = await page.locator('table.subgroups tbody tr').count();
      expect(listed).toBe(json.topSubgroups.length);
      expect(listed).toBeGreaterThan(1);
      const sets = json.topSubgroups.map((s: { members: number[] }) => new Set(s.members));
      for (let p = 0; p < sets.length; p++) {
        for (let q = p + 1; q < sets.length; q++) {
          const inter = [...sets[p]].filter((i) => sets[q].has(i)).length;
          expect(inter / (sets[p].size + sets[q].size - inter)).toBeLessThan(0.8);
        }
      }

      // Example pairs: every value one an Adult row holds, education and education-num as the rows pair them.
      const rest = await page.locator('#pairs tbody tr td.small').allInnerTexts();
      expect(rest.length).toBeGreaterThan(0);
      for (const cell of rest) {
        const values = Object.fromEntries(cell.split(', ').map((kv) => kv.split(' = ') as [string, string]));
        expect(combos.has(`${values['education']}|${values['education-num']}`), cell).toBe(true);
        for (const a of adult.schema.attributes) {
          if (a.categories && values[a.name] !== undefined) expect(a.categories).toContain(values[a.name]);
        }
      }

      // The summary names every group whose favourable rate's interval lies below its reference's.
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees
      const lead = await page.locator('#summary li.lead').innerText();
      const rows = json.groupMetrics.byAttribute as {
        attribute: string;
        value: string;
        size: number;
        selectionRate: { k: number; n: number };
      }[];
      for (const ref of json.groupMetrics.references as { attribute: string; value: string }[]) {
        const base = rows.find((r) => r.attribute === ref.attribute && r.value === ref.value)!;
        const lo = wilson(base.selectionRate.k, base.selectionRate.n)[0];
        for (const r of rows) {
          if (r.attribute !== ref.attribute || r === base || r.size < 30) continue;
          const worse = wilson(r.selectionRate.k, r.selectionRate.n)[1] < lo;
          expect(lead.includes(`${r.attribute} = ${r.value} (`), `${r.attribute} = ${r.value}`).toBe(worse);
        }
      }
      expect(lead).toMatch(/sex = Female \(\d+ rows\): selection rate/);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'adult-report.png'), fullPage: false });
    } finally {
      await browser.close();
    }
  });
});
