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

  it('computes its facts from the generated tables, and builds Markdown and LaTeX from them', async () => {
    const results = tempDir();
    await writeReport(tinyStudy(), sampleRecords(), results);
    const { facts, tables } = articleFacts(results);
    expect(facts.get('study.cells')).toBe('9');
    expect(facts.get('study.failed')).toBe('1');
    // Every cited claim is in the claims table the article writes beside its own tables.
    expect(tables.map((t) => t.name)).toContain('claims');
    // The design in words follows the study file: no sentence about factor questions without them.
    expect(facts.get('design.factorQuestions')).toBe('');
    const studyPath = join(results, 'study.json');
    const file = JSON.parse(readFileSync(studyPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(
      studyPath,
      JSON.stringify({ ...file, factorQuestions: { noise: ['data', 'model'], rows: ['data'] } }),
    );
    expect(articleFacts(results).facts.get('design.factorQuestions')).toBe(
      ' On the levels of noise and rows the study asks only the data and model questions, and every question on the base scenario, its replication and the other factors.',
    );

    const docs = tempDir();
    writeFileSync(
      join(docs, 'template.md'),
      [
        '# A title',
        '',
        '## Abstract',
        '',
        'Cells: {{study.cells}}, failed {{study.failed}} [@aequitas].',
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
    expect(built.markdown).toContain('Cells: 9, failed 1 [1].');
    expect(built.markdown).toContain('1. Udeshi et al. ASE.');
    expect(built.markdown).toContain('![Coverage by method.](figures/model-individual.svg)');
    expect(built.markdown).toContain('_The study produced no figure "real"._');
    expect(built.latex).toContain('Cells: 9, failed 1 \\cite{aequitas}.');
    expect(built.latex).toContain('\\begin{abstract}');
    expect(built.latex).toContain('\\input{tables/model-individual.tex}');
    expect(built.latex).toContain('\\bibitem{aequitas} Udeshi et al. ASE.');
    expect(readFileSync(join(out, 'article.md'), 'utf8')).toBe(built.markdown);
    expect(readFileSync(join(out, 'tables', 'model-individual.csv'), 'utf8')).toContain('m_1');
    expect(readFileSync(join(out, 'tables', 'claims.csv'), 'utf8')).toMatch(/^id,/);

    writeFileSync(join(docs, 'template.md'), 'Cited [@nobody].');
    await expect(build()).rejects.toThrow(/unknown reference \[@nobody\]/);
  });
});
