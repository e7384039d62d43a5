import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Classifier, type Condition, createDataset, DataError, DataSupport, memberMask } from '@fb/core';
import { describe, expect, it } from 'vitest';
import type { MethodRun } from '../src/audit.js';
import { inPositiveTerms, shownSubgroups, simplifyConditions } from '../src/findings.js';
import { rowFlips } from '../src/flips.js';
import { groupMetrics, loadAuditData } from '../src/index.js';
import { DEFAULT_METHODS } from '../src/methods.js';
import { RawValueClassifier } from '../src/models.js';

const dir = mkdtempSync(path.join(tmpdir(), 'fb-cli-findings-'));

describe('missing values are counted only in the columns the audit uses', () => {
  // "note" misses a value on 9 rows of 10; "x" on one row.
  const file = path.join(dir, 'gaps.csv');
  const lines = ['sex,x,note,y'];
  for (let i = 0; i < 40; i++) {
    lines.push(
      `${i % 2 ? 'F' : 'M'},${i === 3 ? '' : i % 5},${i % 10 === 0 ? (i % 20 ? 'seen' : 'heard') : ''},${i % 3 ? 'yes' : 'no'}`,
    );
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  const base = { file, outcome: 'y', favorable: 'yes', protected: ['sex'] };

  it('leaves a mostly empty column out by default, naming it, and drops only rows missing a used value', () => {
    const data = loadAuditData(base);
    expect(data.dataset.schema.attributes.map((a) => a.name)).toEqual(['sex', 'x']);
    expect(data.notes.some((n) => n.includes('"note" is left out: 36 of 40 rows'))).toBe(true);
    // Only row 3 (x missing) goes: 39 rows, where dropping on "note" would leave 4.
    expect(data.dataset.n).toBe(39);
    expect(data.notes.some((n) => n.startsWith('1 rows dropped') && n.includes('"x" 1'))).toBe(true);
  });

  it('names the columns and the options when no row is left', () => {
    const all = path.join(dir, 'empty-note.csv');
    writeFileSync(all, 'sex,note,y\nF,,yes\nM,,no\nF,,no\n');
    let error: unknown;
    try {
      loadAuditData({ ...base, file: all, columns: ['sex', 'note'] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).code).toBe('DATA_EMPTY');
    expect((error as Error).message).toMatch(/"note" on 3 of 3 rows/);
    expect((error as Error).message).toMatch(/--exclude note/);
    expect((error as Error).message).toMatch(/--missing mode/);
  });
});

describe("the model's own decisions", () => {
  // Ages 18..77, one row each; the model favours exactly age >= 30 on the raw value.
  const file = path.join(dir, 'ages.csv');
  const rows = ['age,hours,y'];
  for (let a = 18; a < 78; a++) rows.push(`${a},${a % 7},${a % 4 ? 'yes' : 'no'}`);
  writeFileSync(file, `${rows.join('\n')}\n`);
  const byAge: Classifier = {
    nFeatures: 2,
    nClasses: 2,
    description: 'age >= 30',
    predict: (x) => Int32Array.from({ length: x.length / 2 }, (_, i) => (x[i * 2]! >= 30 ? 1 : 0)),
    predictProba: (x) =>
      Float64Array.from({ length: x.length }, (_, k) => {
        const fav = x[Math.floor(k / 2) * 2]! >= 30 ? 1 : 0;
        return k % 2 === 1 ? fav : 1 - fav;
      }),
  };

  it('gives group metrics and subgroup scans the decisions on the real values, not on bin medians', () => {
    const data = loadAuditData({ file, outcome: 'y', favorable: 'yes', protected: ['age'] });
    expect(data.binned[0]!.name).toBe('age');
    const model = new RawValueClassifier(byAge, data.binned, { x: data.dataset.x, raw: data.rawX });
    const own = model.predict(data.dataset.x);
    // Independently: 48 of the 60 ages are 30 or more.
    const expected = Int32Array.from({ length: 60 }, (_, i) => (18 + i >= 30 ? 1 : 0));
    expect(Array.from(own)).toEqual(Array.from(expected));
    const g = groupMetrics(data.dataset, own, 1);
    expect(g.overall.selectionRate.k).toBe(48);
    // A run of rows (a view on the data) is answered from the real rows too.
    expect(Array.from(model.predict(data.dataset.x.subarray(2 * 10, 2 * 15)))).toEqual(
      Array.from(expected.subarray(10, 15)),
    );
    // A copy is a new input: its age is each bin's median, so the whole first bin (18..31) reads one way.
    const copy = data.dataset.x.slice();
    const viaMedians = model.predict(copy);
    const firstBin = data.binned[0]!.representatives[0]!;
    expect(viaMedians[0]).toBe(firstBin >= 30 ? 1 : 0);
    expect(viaMedians[12]).toBe(viaMedians[0]);
    expect(own[12]).toBe(1);
    expect(own[0]).toBe(0);
  });

  it('changes a protected value only to values the data holds and states the real values compared', async () => {
    const data = loadAuditData({ file, outcome: 'y', favorable: 'yes', protected: ['age'] });
    const model = new RawValueClassifier(byAge, data.binned, { x: data.dataset.x, raw: data.rawX });
    const result = await rowFlips.run({ dataset: data.dataset, model }, {}, { seed: 3 });
    const reps = Array.from(data.binned[0]!.representatives);
    const compared = result.extras['compared'] as { caseId: number; from: number; to: number }[];
    expect(result.metrics.tsn).toBe(60);
    // Brute force: a row of age a and another bin's median m flip when (a >= 30) != (m >= 30).
    let pairs = 0;
    for (let a = 18; a < 78; a++) {
      const bin = data.binned[0]!.edges.filter((e) => a >= e).length;
      reps.forEach((m, b) => {
        if (b !== bin && a >= 30 !== m >= 30) pairs++;
      });
    }
    expect(result.metrics.pairs).toBe(pairs);
    expect(compared.length).toBe(result.findings.pairs.length);
    for (const c of compared) {
      expect(data.rawX.includes(c.from)).toBe(true);
      expect(reps).toContain(c.to);
      expect(c.from >= 30).not.toBe(c.to >= 30);
    }
  });
});

describe('findings a person believes', () => {
  // 200 rows: a in {0,1}, b in {0,1,2,3}; c = 1 on one row only; e determines f (f = e + 10).
  const schema = {
    attributes: [
      { name: 'a', kind: 'categorical' as const, protected: true, categories: ['p', 'q'] },
      { name: 'b', kind: 'categorical' as const, protected: false, categories: ['w', 'x', 'y', 'z'] },
      { name: 'c', kind: 'categorical' as const, protected: false, categories: ['no', 'yes'] },
      { name: 'e', kind: 'ordinal' as const, protected: false, min: 0, max: 2 },
      { name: 'f', kind: 'ordinal' as const, protected: false, min: 10, max: 12 },
    ],
    outcome: { name: 'o', labels: ['bad', 'good'], favorable: 1 },
  };
  const n = 200;
  const x = new Float64Array(n * 5);
  for (let i = 0; i < n; i++)
    x.set([i % 2, Math.floor(i / 2) % 4, i === 7 ? 1 : 0, i % 3, (i % 3) + 10], i * 5);
  const ds = createDataset({ schema, x, y: Int32Array.from({ length: n }, (_, i) => (i % 5 ? 1 : 0)) });

  it('drops a clause that changes the members by less than 1%, keeps one that changes more', () => {
    const conditions: Condition[] = [
      { attribute: 'a', values: [0] },
      { attribute: 'c', values: [0] },
    ];
    // a = p: 100 rows; c = no removes none of them (row 7 has a = q): the clause goes.
    const { conditions: kept, dropped } = simplifyConditions(ds, conditions);
    expect(kept).toEqual([{ attribute: 'a', values: [0] }]);
    expect(dropped).toEqual([{ attribute: 'c', values: [0] }]);
    const both = simplifyConditions(ds, [
      { attribute: 'a', values: [0] },
      { attribute: 'b', values: [0] },
    ]);
    expect(both.conditions.length).toBe(2);
  });

  it('lists no two subgroups whose members overlap at Jaccard 0.8 or more (checked by brute force)', () => {
    const finding = (conditions: Condition[], rank: number) => ({
      rank,
      conditions,
      size: 0,
      score: 1,
      effect: 0.1,
      pValue: null,
      direction: null,
      details: {},
    });
    const run = (id: string, subgroups: ReturnType<typeof finding>[]): MethodRun => ({
      method: DEFAULT_METHODS.find((m) => m.id === id)!,
      status: 'done',
      reason: null,
      result: { findings: { kind: 'subgroup', subgroups } } as never,
    });
    const runs = [
      run('sliceline', [
        finding([{ attribute: 'a', values: [0] }], 1),
        finding([{ attribute: 'b', values: [0, 1] }], 2),
      ]),
      run('divexplorer', [
        // The same rows as a = p, described another way.
        finding(
          [
            { attribute: 'a', values: [0] },
            { attribute: 'c', values: [0] },
          ],
          1,
        ),
        finding([{ attribute: 'b', values: [0, 1, 2] }], 2),
        finding([{ attribute: 'e', values: [0] }], 3),
      ]),
    ];
    const shown = shownSubgroups(ds, runs);
    for (let p = 0; p < shown.length; p++) {
      for (let q = p + 1; q < shown.length; q++) {
        const A = new Set(shown[p]!.members);
        const B = new Set(shown[q]!.members);
        const inter = [...A].filter((i) => B.has(i)).length;
        expect(inter / (A.size + B.size - inter)).toBeLessThan(0.8);
      }
    }
    expect(shown[0]!.alsoFound.map((a) => a.method)).toEqual(['divexplorer']);
    // b in {w, x} (100 rows) and b in {w, x, y} (150 rows) overlap at 0.67: both listed.
    expect(shown.map((s) => s.label)).toEqual(['a = p', 'b in {w, x}', 'b != z', 'e = 0']);
    expect(
      shown.every(
        (s) => s.members.length === memberMask(ds, s.finding.conditions).reduce((t, v) => t + v, 0),
      ),
    ).toBe(true);
  });

  it('calls an input unrealistic when it breaks a functional dependency of the rows or holds an unseen value', () => {
    const support = new DataSupport(ds);
    const names = ds.schema.attributes.map((a) => a.name);
    const deps = support.dependencies.map((d) => `${names[d.from]}->${names[d.to]}`);
    expect(deps).toContain('e->f');
    expect(deps).toContain('f->e');
    expect(support.contains([0, 0, 0, 1, 11])).toBe(true);
    expect(support.contains([0, 0, 0, 1, 12])).toBe(false);
    expect(support.contains([0, 0, 0, 1.5, 11])).toBe(false);
  });

  it('names the errors with the positive label of the tables', () => {
    const run: MethodRun = {
      method: DEFAULT_METHODS.find((m) => m.id === 'sliceline')!,
      status: 'done',
      reason: null,
      result: {
        findings: {
          kind: 'subgroup',
          subgroups: [
            {
              rank: 1,
              conditions: [],
              size: 1,
              score: 1,
              effect: 0,
              pValue: null,
              direction: null,
              details: { errorType: 'false-positive' },
            },
          ],
        },
      } as never,
    };
    const [swapped] = inPositiveTerms([run], 'bad', true);
    const s = (swapped!.result!.findings as { subgroups: { details: Record<string, unknown> }[] })
      .subgroups[0]!;
    expect(s.details).toEqual({ errorType: 'false-negative', positiveLabel: 'bad' });
    const [same] = inPositiveTerms([run], 'good', false);
    expect(
      (same!.result!.findings as { subgroups: { details: Record<string, unknown> }[] }).subgroups[0]!.details[
        'errorType'
      ],
    ).toBe('false-positive');
  });

  it('names the groups that fare worse, with intervals, ignoring groups below the minimum size', () => {
    // Group p: 100 rows, all favourable decisions; q: 100 rows, 20 favourable.
    const decisions = Int32Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : i % 10 === 1 ? 1 : 0));
    const g = groupMetrics(ds, decisions, 1);
    const worse = g.disadvantaged.filter((d) => d.metric === 'selection rate');
    expect(worse.map((d) => [d.attribute, d.group, d.reference])).toEqual([['a', 'q', 'p']]);
    expect(worse[0]!.rate.k).toBe(20);
    expect(worse[0]!.rate.hi!).toBeLessThan(worse[0]!.referenceRate.lo!);
  });
});
