import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunScore } from '@fb/eval';
import { afterEach, describe, expect, it } from 'vitest';
import type { CellRecord } from '../src/record.js';
import { writeReport } from '../src/report.js';
import { ResultStore } from '../src/store.js';
import { cleanTempDirs, tempDir, tinyStudy } from './helpers.js';

afterEach(cleanTempDirs);

function score(recall: number, alarm: boolean, alarmScore: number, biased = true): RunScore {
  const found = biased && recall > 0;
  return {
    kind: 'individual',
    findings: 10,
    trueFindings: found ? 4 : 0,
    precision: found ? 0.4 : 0,
    biasedGroups: biased ? 1 : 0,
    groupsFound: found ? 1 : 0,
    recall: biased ? recall : null,
    groups: biased
      ? [
          {
            id: 0,
            found,
            factors: {
              similarity: 0.5,
              granularity: 1,
              intersectionality: 1,
              biasMagnitude: 2,
              size: 100,
              uncertainty: null,
              gap: -0.3,
            },
          },
        ]
      : [],
    verdicts: { injected: found ? 4 : 0, structural: 0, 'model-error': found ? 6 : 10 },
    topOverlap: null,
    bestOverlap: null,
    alarm,
    alarmScore,
    firstTrue: found ? { seconds: 0.5, queries: 50, findings: 2 } : null,
    effort50: found ? { seconds: 0.5, queries: 50, findings: 2 } : null,
    effort90: found ? { seconds: 0.5, queries: 50, findings: 2 } : null,
    curve: [
      { seconds: 1, queries: 100, findings: 10, trueFindings: found ? 4 : 0, groupsFound: found ? 1 : 0 },
    ],
  };
}

function record(
  label: string,
  seed: number,
  dataset: 'bias' | 'none',
  s: RunScore | null,
  failed = false,
): CellRecord {
  return {
    key: `${label}|${dataset}|${seed}`,
    block: `${dataset} / seed ${seed} / lr`,
    dataset: { label: dataset, kind: 'synthetic', null: dataset === 'none', factors: {} },
    seed,
    model: 'lr',
    plan: { label, entry: label, method: 'aequitas', options: {}, varied: null },
    family: failed ? null : 'individual',
    access: failed ? null : 'black-box',
    status: failed ? 'failed' : 'done',
    error: failed ? 'overrun: still running after 1 s' : null,
    modelFingerprint: failed ? null : `model-${dataset}-${seed}`,
    modelAccuracy: failed ? null : 0.8,
    metrics: failed
      ? null
      : { tsn: 100, dsn: 10, sur: 0.1, dss: 0.1, pairs: 10, queries: 900, distinctQueries: 800 },
    stopReason: failed ? null : 'completed',
    wallSeconds: 1,
    score: s,
    implicated: failed ? [] : ['P=0'],
  };
}

describe('report', () => {
  it('builds report.md, LaTeX tables and SVG figures from a small stored study', async () => {
    const outDir = tempDir();
    const records = [
      record('m_1', 1, 'bias', score(1, true, 0.3)),
      record('m_1', 2, 'bias', score(1, true, 0.3)),
      record('m_1', 3, 'bias', score(0, true, 0.1)),
      record('m_2', 1, 'bias', score(0, false, 0)),
      record('m_2', 2, 'bias', score(0, false, 0)),
      record('m_2', 3, 'bias', null, true),
      record('m_1', 1, 'none', score(0, true, 0.2, false)),
      record('m_1', 2, 'none', score(0, false, 0.05, false)),
      record('m_1', 3, 'none', score(0, false, 0.05, false)),
    ];
    const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
    for (const r of records) await store.put(r);
    const stored = await store.records();
    store.close();
    expect(stored).toHaveLength(records.length);

    const path = await writeReport(tinyStudy(), stored, outDir);
    const md = readFileSync(path, 'utf8');
    expect(md).toContain('Cells: 9 stored, 8 done, 1 failed.');
    // m_1 recall over seeds: 1, 1, 0 -> mean 0.67; m_2: 0, 0 (its third cell failed).
    expect(md).toMatch(/\| m_1 \| individual \| 3 \| 0\.67 \[/);
    expect(md).toContain('| m_2 | individual | 2 | 0.00 [0.00, 0.00] |');
    // One of m_1's three runs without bias raised an alarm; the threshold is the highest null score, 0.2,
    // and two of three biased runs (0.3, 0.3) exceed it.
    expect(md).toContain('| m_1 | 3 | 33% | 100% | 0.200 | 0% | 67% |');
    expect(md).toContain('| m_2 | bias / seed 3 / lr | overrun: still running after 1 s |');
    expect(md).toContain('audited the identical model');
    for (const table of [
      'effectiveness-methods',
      'power',
      'comparisons',
      'efficiency',
      'agreement',
      'failed',
    ]) {
      const tex = readFileSync(join(outDir, 'tables', `${table}.tex`), 'utf8');
      expect(tex).toContain('\\begin{tabular}');
      expect(tex).toContain('\\bottomrule');
    }
    expect(readFileSync(join(outDir, 'tables', 'effectiveness-methods.tex'), 'utf8')).toContain('m\\_1');
    for (const fig of ['effectiveness', 'efficiency-time', 'efficiency-queries', 'agreement']) {
      const svg = readFileSync(join(outDir, 'figures', `${fig}.svg`), 'utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(md).toContain(`figures/${fig}.svg`);
    }
    expect(existsSync(join(outDir, 'figures', 'real.svg'))).toBe(false);
  }, 30_000);
});
