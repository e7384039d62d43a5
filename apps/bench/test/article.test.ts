import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ArticleError, buildArticle, fillFacts, typedNumbers } from '../src/article/build.js';
import { articleFacts } from '../src/article/facts.js';
import { writeReport } from '../src/report/report.js';
import { cleanTempDirs, tempDir, tinyStudy } from './helpers.js';
import { sampleRecords } from './records.js';

afterEach(cleanTempDirs);

describe('article', () => {
  it('refuses numbers typed into the prose, allowing facts, citations, code and identifiers', () => {
    expect(typedNumbers('We ran {{study.cells}} cells [@aequitas] with `maxTested: 1000` for RQ1.')).toEqual(
      [],
    );
    expect(typedNumbers('Recall was 0.42.\n{{table:data-subgroup}}\nok')).toEqual([
      'line 1: Recall was 0.42.',
    ]);
  });

  it('fills facts and names every fact the study lacks', () => {
    const facts = new Map([['a.b', '7']]);
    expect(fillFacts('x {{a.b}} y', facts)).toBe('x 7 y');
    expect(() => fillFacts('{{a.b}} {{c}} {{d.e}}', facts)).toThrow(ArticleError);
    expect(() => fillFacts('{{c}} {{d.e}}', facts)).toThrow(/c, d\.e/);
  });

  it('ranks methods apart from the baselines and says when a baseline beat them', async () => {
    const results = tempDir();
    await writeReport(tinyStudy(), sampleRecords(), results);
    // Mark m_1 (coverage 0.40, chance 0.10) a baseline: m_2 (coverage 0) is then the best method.
    const path = join(results, 'summary.json');
    const summary = JSON.parse(readFileSync(path, 'utf8')) as {
      plans: { label: string; method: string; family: string; baseline: boolean }[];
    };
    const plan = (label: string, baseline: boolean) => ({
      label,
      method: 'aequitas',
      family: 'individual',
      baseline,
    });
    summary.plans = [plan('m_1', true), plan('m_2', false)];
    writeFileSync(path, JSON.stringify(summary));
    const facts = articleFacts(results);
    expect(facts.get('model.individual.best')).toBe('m_2');
    expect(facts.get('model.individual.methods')).toBe('one');
    expect(facts.get('model.individual.baseline')).toBe(
      ' Of the baselines, m_1 reached 0.40 (chance 0.10), more than any method.',
    );
    expect(facts.get('model.individual.versusBaseline')).toBe(
      ' It did not beat the m_1 baseline (0.00 against 0.40): try that simpler audit first.',
    );
    // Without baselines nothing is said about them.
    for (const p of summary.plans) p.baseline = false;
    writeFileSync(path, JSON.stringify(summary));
    expect(articleFacts(results).get('model.individual.baseline')).toBe('');
  });

  it('computes its facts from the generated tables, and builds Markdown and LaTeX from them', async () => {
    const results = tempDir();
    await writeReport(tinyStudy(), sampleRecords(), results);
    const facts = articleFacts(results);
    // m_1 covers 0.6, 0.6 and 0 of its planted subgroup (mean 0.40; chance 0.10); m_2 covers nothing.
    expect(facts.get('model.individual.best')).toBe('m_1');
    expect(facts.get('model.individual.bestValue')).toBe('0.40');
    expect(facts.get('model.individual.bestChance')).toBe('0.10');
    expect(facts.get('study.cells')).toBe('9');
    expect(facts.get('study.failed')).toBe('1');

    const docs = tempDir();
    writeFileSync(
      join(docs, 'template.md'),
      [
        '# A title',
        '',
        '## Abstract',
        '',
        'Best: {{model.individual.best}} at {{model.individual.bestValue}} [@aequitas].',
        '',
        '## Results',
        '',
        '{{table:model-individual}}',
        '',
        '{{figure:model-individual|Coverage by method.}}',
        '',
        '{{figure:real|Not in this study.}}',
      ].join('\n'),
    );
    writeFileSync(join(docs, 'references.json'), JSON.stringify({ aequitas: 'Udeshi et al. ASE.' }));
    const out = tempDir();
    const build = () =>
      buildArticle({
        results,
        template: join(docs, 'template.md'),
        references: join(docs, 'references.json'),
        out,
        renderPng: null,
        pdf: false,
      });
    const built = await build();
    expect(built.markdown).toContain('Best: m_1 at 0.40 [1].');
    expect(built.markdown).toContain('1. Udeshi et al. ASE.');
    expect(built.markdown).toContain('![Coverage by method.](figures/model-individual.svg)');
    expect(built.markdown).toContain('_The study produced no figure "real"._');
    expect(built.latex).toContain('Best: m\\_1 at 0.40 \\cite{aequitas}.');
    expect(built.latex).toContain('\\begin{abstract}');
    expect(built.latex).toContain('\\input{tables/model-individual.tex}');
    expect(built.latex).toContain('\\bibitem{aequitas} Udeshi et al. ASE.');
    expect(readFileSync(join(out, 'article.md'), 'utf8')).toBe(built.markdown);
    expect(readFileSync(join(out, 'tables', 'model-individual.csv'), 'utf8')).toContain('m_1');

    writeFileSync(join(docs, 'template.md'), 'Cited [@nobody].');
    await expect(build()).rejects.toThrow(/unknown reference \[@nobody\]/);
  });
});
