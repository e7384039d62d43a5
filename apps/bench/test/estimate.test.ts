import { describe, expect, it } from 'vitest';
import type { Cell } from '../src/plan/cells.js';
import { dataKind, dataSize, estimateStudy, formatEstimate, sampleBlocks } from '../src/plan/estimate.js';
import type { CellRecord } from '../src/run/record.js';

/** Just the fields the estimator reads. */
function cell(
  key: string,
  plan: string,
  kind: 'planted bias' | 'no bias' | 'real',
  block: string,
  options: Record<string, unknown> = {},
): Cell {
  const dataset =
    kind === 'real'
      ? { kind: 'real' as const, label: 'adult', name: 'adult' as const }
      : {
          kind: 'synthetic' as const,
          label: kind,
          generator: 'generate' as const,
          options,
          factors: {},
          null: kind === 'no bias',
          twinOf: [],
        };
  return { key, block, plan: { label: plan }, dataset } as unknown as Cell;
}

function record(c: Cell, wallSeconds: number, scoreSeconds = 0, prepareSeconds = 0): CellRecord {
  const d = c.dataset;
  return {
    key: c.key,
    block: c.block,
    plan: c.plan,
    dataset: { label: d.label, kind: d.kind, null: d.kind === 'synthetic' && d.null, factors: {} },
    wallSeconds,
    status: 'done',
    costs: { scoreSeconds, prepareSeconds },
  } as unknown as CellRecord;
}

describe('time estimate', () => {
  // Plan A: 6 cells with planted bias, 4 without, 2 real. Plan B: 3 cells with planted bias only.
  const cells: Cell[] = [
    ...Array.from({ length: 6 }, (_, i) => cell(`a-bias-${i}`, 'A', 'planted bias', `b${i % 3}`)),
    ...Array.from({ length: 4 }, (_, i) => cell(`a-null-${i}`, 'A', 'no bias', `n${i % 2}`)),
    ...Array.from({ length: 2 }, (_, i) => cell(`a-real-${i}`, 'A', 'real', `r${i}`)),
    ...Array.from({ length: 3 }, (_, i) => cell(`b-bias-${i}`, 'B', 'planted bias', `b${i}`)),
  ];

  it('samples whole blocks, k per kind of data, and one more for a plan and kind none of them holds', () => {
    const s = sampleBlocks(cells, 1);
    const blocks = new Set(s.map((c) => c.block));
    // Every cell of a sampled block is sampled.
    expect(s).toEqual(cells.filter((c) => blocks.has(c.block)));
    // One block per kind of data (planted bias: b0-b2, no bias: n0-n1, real: r0-r1), and B's cells are
    // in blocks b0-b2, one of which is the planted-bias pick: every plan and kind is covered.
    const kinds = (k: string) => [...blocks].filter((b) => b.startsWith(k)).length;
    expect([kinds('b'), kinds('n'), kinds('r')]).toEqual([1, 1, 1]);
    const covered = new Set(s.map((c) => `${c.plan.label} ${dataKind(c)}`));
    expect([...covered].sort()).toEqual(['A no bias', 'A planted bias', 'A real', 'B planted bias']);
    expect(sampleBlocks(cells, 1).map((c) => c.key)).toEqual(s.map((c) => c.key));
    // A plan only some blocks hold gets a block of its own.
    const extra = [...cells, cell('c-null-0', 'C', 'no bias', 'n9')];
    expect(sampleBlocks(extra, 1).some((c) => c.plan.label === 'C')).toBe(true);
    // k larger than a stratum takes all of it.
    expect(sampleBlocks(cells, 5)).toEqual(cells);
  });

  it('extrapolates each kind of data by its own mean (hand-computed)', () => {
    const byKey = new Map(cells.map((c) => [c.key, c]));
    const sampled = [
      record(byKey.get('a-bias-0')!, 10, 2, 1), // 12 s; built its block in 1 s
      record(byKey.get('a-bias-1')!, 20), // 20 s: mean 16 s with planted bias
      record(byKey.get('a-null-0')!, 1), // 1 s without bias
      record(byKey.get('a-null-1')!, 3, 0, 3), // 3 s: mean 2 s; built its block in 3 s
      // no real sample: the real cells take the plan's mean over its samples, 36 / 4 = 9 s
      record(byKey.get('b-bias-0')!, 5),
    ];
    const e = estimateStudy(cells, sampled);
    const a = e.plans.find((p) => p.plan === 'A')!;
    // 6 x 16 + 4 x 2 + 2 x 9 = 122 s; pooling the kinds would give 12 x 9 = 108 s.
    expect(a.totalSeconds).toBeCloseTo(122, 10);
    expect(a.cells).toBe(12);
    expect(a.sampled).toBe(4);
    expect(e.plans.find((p) => p.plan === 'B')!.totalSeconds).toBeCloseTo(15, 10);
    // 7 blocks (B shares A's b0-b2), each built once at the mean build of the sampled blocks: b0 took
    // 1 s, b1 and n0 nothing (already built), n1 3 s: (1 + 0 + 0 + 3) / 4 = 1 s.
    expect(e.blocks).toBe(7);
    expect(e.preparationSeconds).toBeCloseTo(7 * 1, 10);
    expect(e.totalSeconds).toBeCloseTo(122 + 15 + 7, 10);
  });

  it('counts each data-only fit once for the cells that share it, apart from the block builds', () => {
    const byKey = new Map(cells.map((c) => [c.key, c]));
    const withFit = (r: CellRecord, fitSeconds: number) => ({
      ...r,
      costs: { ...r.costs!, fitSeconds },
    });
    const sampled = [
      // Built its block in 1 s and made a fit of 9 s (10 s of preparation).
      withFit(record(byKey.get('a-bias-0')!, 10, 0, 10), 9),
      // Made a fit of 11 s in a block already built.
      withFit(record(byKey.get('a-null-0')!, 1, 0, 11), 11),
      record(byKey.get('a-null-1')!, 3, 0, 3), // built its block in 3 s
      record(byKey.get('b-bias-0')!, 5),
    ];
    // Plan A's cells need a fit per block letter (b, n, r: the rows they share): 3 fits.
    const e = estimateStudy(cells, sampled, (c) => (c.plan.label === 'A' ? c.block[0]! : null));
    expect(e.fits).toBe(3);
    expect(e.fitSeconds).toBeCloseTo(10, 10);
    // Builds: b0 1 s (b-bias-0 found it built), n0 0 s (its fit aside), n1 3 s.
    expect(e.prepareSeconds).toBeCloseTo(4 / 3, 10);
    // 7 blocks x 4/3 s + 3 fits x 10 s.
    expect(e.preparationSeconds).toBeCloseTo(28 / 3 + 30, 10);
    expect(formatEstimate(e, 2)).toContain(
      '7 blocks x 1.33 s per worker that builds one + 3 data-only fits x 10.00 s',
    );
  });
});

describe('time estimate by size of data', () => {
  // Plan A on planted-bias data of two sizes: 6 small cells (blocks s0-s5) and 2 large (l0-l1).
  const small = { minGroupSize: 100, maxGroupSize: 200 };
  const large = { minGroupSize: 6600, maxGroupSize: 6700 };
  const cells: Cell[] = [
    ...Array.from({ length: 6 }, (_, i) => cell(`s${i}`, 'A', 'planted bias', `s${i}`, small)),
    ...Array.from({ length: 2 }, (_, i) => cell(`l${i}`, 'A', 'planted bias', `l${i}`, large)),
  ];

  it('names a size by the real data set or the generated rows and group sizes', () => {
    expect(dataSize(cells[0]!)).toBe('[null,100,200]');
    expect(dataSize(cell('r', 'A', 'real', 'r'))).toBe('adult');
    expect(dataSize(cell('x', 'A', 'no bias', 'x', { rows: 6000, minGroupSize: 100 }))).toBe(
      '[6000,100,null]',
    );
  });

  it('samples k blocks of each size', () => {
    const blocks = new Set(sampleBlocks(cells, 1).map((c) => c.block));
    expect([...blocks].filter((b) => b.startsWith('s'))).toHaveLength(1);
    expect([...blocks].filter((b) => b.startsWith('l'))).toHaveLength(1);
  });

  it('extrapolates each size by its own mean (hand-computed)', () => {
    const byKey = new Map(cells.map((c) => [c.key, c]));
    const sampled = [record(byKey.get('s0')!, 2), record(byKey.get('s1')!, 4), record(byKey.get('l0')!, 100)];
    // 6 x 3 + 2 x 100 = 218 s; pooling the sizes would give 8 x 35.33 = 282.7 s.
    expect(estimateStudy(cells, sampled).plans[0]!.totalSeconds).toBeCloseTo(218, 10);
    // A size without a sample takes the mean of the same kind of data: 6 x 3 + 2 x 3 = 24 s.
    expect(estimateStudy(cells, sampled.slice(0, 2)).plans[0]!.totalSeconds).toBeCloseTo(24, 10);
  });
});

describe('first cells on a worker', () => {
  // Plan A and plan B of the same method on planted-bias data, blocks b0-b3; A has 8 cells.
  const cells: Cell[] = [
    ...Array.from({ length: 8 }, (_, i) => cell(`a${i}`, 'A', 'planted bias', `b${i % 4}`)),
    ...Array.from({ length: 4 }, (_, i) => cell(`b${i}`, 'B', 'planted bias', `b${i}`)),
  ];
  const byKey = new Map(cells.map((c) => [c.key, c]));
  const marked = (r: CellRecord, firstOfMethod: boolean, firstBlock = false) =>
    ({ ...r, costs: { ...r.costs!, firstOfMethod, firstBlock } }) as CellRecord;

  it('takes the mean over later cells and adds what the first ones took beyond it, once (hand-computed)', () => {
    const sampled = [
      // Two workers: each one's first cell of the method took 9 s and 7 s.
      marked(record(byKey.get('a0')!, 9), true),
      marked(record(byKey.get('a1')!, 7), true),
      marked(record(byKey.get('a2')!, 2), false),
      marked(record(byKey.get('a3')!, 4), false),
    ];
    const a = estimateStudy(cells, sampled).plans.find((p) => p.plan === 'A')!;
    // 8 cells x 3 s, plus (9 - 3) + (7 - 3) once: 34 s; without the marks 8 x 5.5 = 44 s.
    expect(a.totalSeconds).toBeCloseTo(34, 10);
    expect(
      estimateStudy(
        cells,
        sampled.map((r) => marked(r, false)),
      ).plans[0]!.totalSeconds,
    ).toBeCloseTo(44, 10);
    // A plan whose sampled cells were all first takes their mean, with nothing added.
    const onlyFirst = [marked(record(byKey.get('b0')!, 6), true), marked(record(byKey.get('b1')!, 2), true)];
    expect(estimateStudy(cells, onlyFirst).plans.find((p) => p.plan === 'B')!.totalSeconds).toBeCloseTo(
      16,
      10,
    );
  });

  it('builds blocks at the mean of the later blocks, and adds what the first ones took beyond it', () => {
    const sampled = [
      marked(record(byKey.get('a0')!, 1, 0, 5), false, true), // worker 1's first block b0: 5 s
      marked(record(byKey.get('a1')!, 1, 0, 4), false, true), // worker 2's first block b1: 4 s
      marked(record(byKey.get('a2')!, 1, 0, 1), false), // b2: 1 s
      marked(record(byKey.get('a6')!, 1, 0, 0), false), // b2 again, already built
      marked(record(byKey.get('a3')!, 1, 0, 2), false), // b3: 2 s
    ];
    const e = estimateStudy(cells, sampled);
    expect(e.prepareSeconds).toBeCloseTo(1.5, 10);
    // 4 blocks x 1.5 s, plus (5 - 1.5) + (4 - 1.5) once.
    expect(e.preparationSeconds).toBeCloseTo(6 + 6, 10);
  });
});

describe('capped cells in the estimate', () => {
  it('counts the sampled cells that ended on their time cap and says so', () => {
    const cells = [cell('a', 'A', 'planted bias', 'b1'), cell('b', 'A', 'planted bias', 'b2')];
    const capped = { ...record(cells[0]!, 600), stopReason: 'time-budget' } as CellRecord;
    const done = { ...record(cells[1]!, 2), stopReason: 'completed' } as CellRecord;
    const e = estimateStudy(cells, [capped, done]);
    expect(e.cappedSampled).toBe(1);
    // Counted with the seconds it was given.
    expect(e.plans[0]!.totalSeconds).toBeCloseTo(602, 10);
    expect(formatEstimate(e, 2)).toContain('1 sampled cells ended on their time cap');
    expect(estimateStudy(cells, [done]).cappedSampled).toBe(0);
    expect(formatEstimate(estimateStudy(cells, [done]), 2)).not.toContain('time cap');
  });
});

describe('the printed estimate', () => {
  it('keeps plans apart whose labels differ only at their end', () => {
    const long = 'AEQUITAS fully-directed (globalIterations=';
    const cells = [cell('a', `${long}100)`, 'no bias', 'b1'), cell('b', `${long}5000)`, 'no bias', 'b2')];
    const text = formatEstimate(estimateStudy(cells, [record(cells[0]!, 1), record(cells[1]!, 3)]), 2);
    const rows = text.split('\n').filter((l) => l.startsWith(long));
    // The slower plan first, each under its whole label.
    expect(rows.map((l) => l.split(' ')[2])).toEqual(['(globalIterations=5000)', '(globalIterations=100)']);
  });
});
