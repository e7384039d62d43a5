import type { AuditScore } from '@fb/eval';
import type { CellRecord } from '../src/run/record.js';

/** Hand-made cell records for report tests: one individual method's scores and their no-bias twins. */
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
export function score(coverage: number, alarmScore: number): AuditScore {
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
    localisation: coverage > 0 ? 0.4 : 0,
    truePairs: coverage > 0 ? 4 : 0,
    trueIndividuals: coverage > 0 ? 4 : 0,
    anytime: null,
    reach: coverage > 0 ? 1 : 0,
    queriesCharged: 100,
    truePerKQueries: coverage > 0 ? 40 : 0,
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
        reached: coverage > 0,
      },
    ],
    alarmScore,
    model: { discriminated: 0.2, spurious: 0.1, learned: 0.5 },
    firstTrue: coverage > 0 ? { seconds: 0.5, queries: 50, findings: 2 } : null,
  };
}

/** A score of a run on data without bias (no planted subgroup of its own). */
export function nullScore(alarmScore: number): AuditScore {
  return { ...score(0, alarmScore), groups: [], recall: null };
}

export function record(
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
    plan: { label, entry: label, method: 'aequitas', options: {}, varied: null, unranked: null },
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

/** A small stored study: two methods, three seeds, the no-bias twin, one failed cell. */
export function sampleRecords(): CellRecord[] {
  return [
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
}
