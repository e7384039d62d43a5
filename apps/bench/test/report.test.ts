import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditScore } from '@fb/eval';
import { afterEach, describe, expect, it } from 'vitest';
import type { CellRecord } from '../src/record.js';
import { writeReport } from '../src/report.js';
import { ResultStore } from '../src/store.js';
import { cleanTempDirs, tempDir, tinyStudy } from './helpers.js';

afterEach(cleanTempDirs);

const factors = {
  similarity: 0.5,
  granularity: 1,
  intersectionality: 1,
  biasMagnitude: 2,
  size: 100,
  uncertainty: null,
  gap: -0.3,
};

/** An individual method's score: coverage of one planted subgroup, and its alarm score. */
function score(coverage: number, alarmScore: number): AuditScore {
  return {
    kind: 'individual',
    findings: 10,
    verdicts: {
      planted: coverage > 0 ? 4 : 0,
      reversed: 0,
      unplanted: coverage > 0 ? 6 : 10,
      unconfirmed: 0,
    },
    precision: coverage > 0 ? 0.4 : 0,
    recall: coverage,
    localisation: null,
    top: null,
    hitCurve: null,
    groups: [
      {
        pair: 0,
        side: 0,
        bias: -2,
        size: 100,
        factors,
        learned: 0.5,
        covered: coverage * 100,
        coverage,
        overlap: null,
        found: coverage > 0,
      },
    ],
    alarmScore,
    model: { discriminated: 0.2, spurious: 0.1, learned: 0.5 },
    firstTrue: coverage > 0 ? { seconds: 0.5, queries: 50, findings: 2 } : null,
  };
}

/** A score of a run on data without bias (no planted subgroup of its own). */
function nullScore(alarmScore: number): AuditScore {
  return { ...score(0, alarmScore), groups: [], recall: null };
}

function record(
  label: string,
  seed: number,
  dataset: 'bias' | 'no bias',
  s: AuditScore | null,
  opts: { failed?: boolean; chance?: AuditScore } = {},
): CellRecord {
  const failed = opts.failed ?? false;
  return {
    key: `${label}|${dataset}|${seed}`,
    block: `${dataset}|${seed}`,
    blockLabel: `${dataset} / seed ${seed} / model / lr`,
    question: 'model',
    dataset: { label: dataset, kind: 'synthetic', null: dataset === 'no bias', factors: {} },
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
    chance: opts.chance ? [{ scenario: 'bias', score: opts.chance }] : [],
    implicated: failed ? [] : ['P=0'],
  };
}

describe('report', () => {
  it('builds report.md, LaTeX tables and SVG figures from a small stored study', async () => {
    const outDir = tempDir();
    const records = [
      record('m_1', 1, 'bias', score(0.6, 0.3)),
      record('m_1', 2, 'bias', score(0.6, 0.3)),
      record('m_1', 3, 'bias', score(0, 0.1)),
      record('m_2', 1, 'bias', score(0, 0)),
      record('m_2', 2, 'bias', score(0, 0)),
      record('m_2', 3, 'bias', null, { failed: true }),
      record('m_1', 1, 'no bias', nullScore(0.2), { chance: score(0.3, 0.2) }),
      record('m_1', 2, 'no bias', nullScore(0.05), { chance: score(0, 0.05) }),
      record('m_1', 3, 'no bias', nullScore(0.05), { chance: score(0, 0.05) }),
    ];
    const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
    for (const r of records) await store.put(r);
    const stored = await store.records();
    store.close();
    expect(stored).toHaveLength(records.length);

    const path = await writeReport(tinyStudy(), stored, outDir);
    const md = readFileSync(path, 'utf8');
    expect(md).toContain('Cells: 9 stored, 8 done, 1 failed.');
    // m_1 coverage over seeds: 0.6, 0.6, 0 -> mean 0.40; its chance level: 0.3, 0, 0 -> 0.10.
    // Alarm scores 0.3, 0.3, 0.1 against nulls 0.2, 0.05, 0.05: AUC = (1 + 1 + 2/3) / 3 = 0.89;
    // the threshold is the highest null score, 0.2, and two of three planted runs exceed it.
    expect(md).toMatch(/\| bias \| lr \| m_1 \| 3 \| 0\.40 \[[^\]]+\] \(0\.10\) \|/);
    expect(md).toMatch(/\| m_1 \| 3 \|[^\n]*\| 0\.89 \[[^\]]+\] \| 0\.67 \[[^\]]+\] at 0\.00 \| 3 \|/);
    // m_2 has no run without bias: no chance level, no detection.
    expect(md).toMatch(/\| bias \| lr \| m_2 \| 2 \| 0\.00 \[0\.00, 0\.00\] \(–\) \|/);
    expect(md).toContain('| m_2 | bias / seed 3 / model / lr | overrun: still running after 1 s |');
    expect(md).toContain('audited the identical model');
    for (const table of ['model-individual', 'efficiency', 'agreement', 'failed']) {
      const tex = readFileSync(join(outDir, 'tables', `${table}.tex`), 'utf8');
      expect(tex).toContain('\\begin{tabular}');
      expect(tex).toContain('\\bottomrule');
    }
    expect(readFileSync(join(outDir, 'tables', 'model-individual.tex'), 'utf8')).toContain('m\\_1');
    for (const fig of ['model-individual', 'agreement']) {
      const svg = readFileSync(join(outDir, 'figures', `${fig}.svg`), 'utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(md).toContain(`figures/${fig}.svg`);
    }
    // Three blocks cannot reach p < 0.05 in an exact paired test: no comparison is tested.
    expect(md).toContain('no comparison is tested');
    expect(existsSync(join(outDir, 'figures', 'real.svg'))).toBe(false);
  }, 30_000);
});
