#!/usr/bin/env node
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildArticle } from './article/build.js';
import { appPath, userPath } from './paths.js';

const usage = `usage: pnpm article [--results <dir>] [--out <dir>] [--check] [--no-pdf]

  --results  a study's result directory (default: the app's results/article; with --check, --out's)
  --out      where the article is written (default: the repository's docs/article)
  Paths are read from the folder the command was typed in.
  --check    build into a temporary folder and fail if article.md or article.tex differ from --out's:
             a number in the text that no longer matches the stored results fails
  --no-pdf   skip the PNG figures and the PDF (no Chromium or pdflatex needed)`;

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Render SVG files to PNG (twice their size) in headless Chromium; call close() when done. */
async function pngRenderer() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await (await browser.newContext({ deviceScaleFactor: 2 })).newPage();
  return {
    render: async (svg: string, png: string) => {
      await page.setContent(
        `<html><body style="margin:0;background:#fff">${readFileSync(svg, 'utf8')}</body></html>`,
      );
      await page.locator('svg').first().screenshot({ path: png });
    },
    close: () => browser.close(),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      results: { type: 'string' },
      out: { type: 'string' },
      check: { type: 'boolean', default: false },
      'no-pdf': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const docs = appPath('../../docs/article');
  // Checking the committed article reads its own folder's results unless told otherwise.
  const results = values.results
    ? userPath(values.results)
    : values.check
      ? docs
      : appPath('results/article');
  if (!existsSync(join(results, 'summary.json'))) {
    throw new Error(`${results}: no study report there (run the study first: pnpm bench --study article)`);
  }
  const out = values.out ? userPath(values.out) : docs;
  if (out === results && !values.check) {
    throw new Error(`--results and --out are the same folder (${out}); build into another, or add --check`);
  }
  const target = values.check ? mkdtempSync(join(tmpdir(), 'fb-article-')) : out;
  const pdf = !values['no-pdf'] && !values.check;
  const png = pdf ? await pngRenderer() : null;
  try {
    const built = await buildArticle({
      results,
      template: join(docs, 'template.md'),
      references: join(docs, 'references.json'),
      out: target,
      renderPng: png ? png.render : null,
      pdf,
    });
    if (values.check) {
      for (const [file, text] of [
        ['article.md', built.markdown],
        ['article.tex', built.latex],
      ] as const) {
        const committed = existsSync(join(out, file)) ? readFileSync(join(out, file), 'utf8') : '';
        if (committed !== text) {
          const a = committed.split('\n');
          const b = text.split('\n');
          const i = b.findIndex((line, k) => line !== a[k]);
          throw new Error(
            `${join(out, file)} no longer matches the study's results (rebuild with pnpm article); first difference at line ${i + 1}:\n  stored:  ${a[i] ?? ''}\n  results: ${b[i] ?? ''}`,
          );
        }
      }
      console.log(`${out}: article.md and article.tex match the results in ${results}`);
    } else console.log(`article written to ${out}`);
  } finally {
    await png?.close();
    if (values.check) rmSync(target, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
