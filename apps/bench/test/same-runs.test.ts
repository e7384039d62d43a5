/**
 * Two plans whose options resolve to the same under the phase rule are one run: the second cell's
 * record repeats the first's (`sameAs`), and a plan that resolves otherwise runs its own.
 */
import { describe, expect, it } from 'vitest';
import { expandCells } from '../src/plan/cells.js';
import { loadStudy, validateStudy } from '../src/plan/config.js';
import type { CellRecord } from '../src/run/record.js';
import { runCell } from '../src/run/run-cell.js';

const defaults = loadStudy('default');

describe('plans identical under the budget', () => {
  it('run once per block; the copy names the cell that ran, a different plan runs its own', async () => {
    // ExpGA explains min(1, share x 2,000 / (5,000 + variants)) = 1 seed at the rule's tenth: the plan
    // that asks for one seed explicitly resolves to the same options; two seeds do not.
    const study = validateStudy({
      name: 'same-runs',
      workers: 1,
      seeds: [1],
      synthetic: {
        ...defaults.synthetic!,
        factors: { bias: [(defaults.synthetic!.factors['bias'] as unknown[])[0]] },
      },
      questions: ['model'],
      models: [{ kind: 'logistic-regression' }],
      methods: [
        { label: 'ExpGA', method: 'expga' },
        { label: 'ExpGA one seed', method: 'expga', options: { globalSamples: 1 } },
        { label: 'ExpGA two seeds', method: 'expga', options: { globalSamples: 2 } },
      ],
      budget: { maxQueries: 2000, maxSeconds: 60 },
      phases: { globalShare: 0.1 },
    });
    const cells = (await expandCells(study)).filter((c) => c.dataset.kind === 'synthetic' && !c.dataset.null);
    const records: CellRecord[] = [];
    for (const c of cells) records.push(await runCell(c));
    const of = (label: string) => records.find((r) => r.plan.label === label)!;
    const [plain, one, two] = [of('ExpGA'), of('ExpGA one seed'), of('ExpGA two seeds')];
    expect(plain.status).toBe('done');
    expect(plain.sameAs).toBeUndefined();
    expect(one.sameAs).toBe(plain.key);
    expect(one.key).not.toBe(plain.key);
    expect(one.plan.label).toBe('ExpGA one seed');
    expect(one.score).toEqual(plain.score);
    expect(one.metrics).toEqual(plain.metrics);
    expect(two.sameAs).toBeUndefined();
    expect(two.runOptions).toMatchObject({ globalSamples: 2 });
  }, 300_000);
});
