import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDataset, defineSchema } from '@fb/core';
import { wilsonInterval } from '@fb/eval';
import { describe, expect, it } from 'vitest';
import { audit, groupMetrics, LEAD_METRICS, UsageError } from '../src/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'fb-metric-'));
const quiet = { stdout: () => {}, stderr: () => {}, isTTY: false };

// Ten rows with recorded decisions. With "yes" positive:
//   F: (y, decision) yes/yes TP, yes/no FN, no/yes FP, no/no TN, no/no TN
//      accuracy (TP + TN) / 5 = 3/5; precision TP / (TP + FP) = 1/2
//   M: yes/yes TP, yes/yes TP, yes/yes TP, no/no TN, no/yes FP
//      accuracy 4/5; precision 3/4
// With "no" positive (the same decisions, the other label counted):
//   F: no/no twice are TP, yes/no is FP, no/yes is FN: precision 2/3, accuracy 3/5
//   M: no/no is TP, no decision "no" is wrong: precision 1/1, accuracy 4/5
const ROWS = [
  ['F', 1, 'yes', 'yes'],
  ['F', 2, 'no', 'yes'],
  ['F', 3, 'yes', 'no'],
  ['F', 4, 'no', 'no'],
  ['F', 5, 'no', 'no'],
  ['M', 6, 'yes', 'yes'],
  ['M', 7, 'yes', 'yes'],
  ['M', 8, 'yes', 'yes'],
  ['M', 9, 'no', 'no'],
  ['M', 10, 'yes', 'no'],
] as const;
const csv = path.join(dir, 'ten.csv');
writeFileSync(csv, `sex,x,decision,y\n${ROWS.map((r) => r.join(',')).join('\n')}\n`);

type JsonRate = { value: number; lo: number; hi: number; k: number; n: number };
type JsonRow = { group: string; accuracy: JsonRate; precision: JsonRate };

async function auditTen(extra: string[], name: string) {
  const out = path.join(dir, name);
  const code = await audit(
    [
      csv,
      '--protected',
      'sex',
      '--outcome',
      'y=yes',
      '--predictions',
      'decision',
      '--methods',
      'sliceline',
      '--time',
      '2',
      '--out',
      out,
      ...extra,
    ],
    quiet,
    new AbortController().signal,
  );
  expect(code).toBe(0);
  const json = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
  const rows = json.groupMetrics.byGroup as JsonRow[];
  const group = (g: string) => rows.find((r) => r.group === `sex=${g}`)!;
  return {
    json,
    F: group('F'),
    M: group('M'),
    html: readFileSync(path.join(out, 'report.html'), 'utf8'),
    csv: readFileSync(path.join(out, 'group-metrics.csv'), 'utf8'),
  };
}

/** The rate k / n with its Wilson 95% interval, as the report writes it. */
const expectRate = (r: JsonRate, k: number, n: number) => {
  expect([r.k, r.n]).toEqual([k, n]);
  const w = wilsonInterval(k, n);
  expect(r.value).toBeCloseTo(k / n, 12);
  expect(r.lo).toBeCloseTo(w.lo, 12);
  expect(r.hi).toBeCloseTo(w.hi, 12);
};

describe('per-group accuracy and precision', () => {
  it('counts them on ten rows as by hand, with the favourable label positive', async () => {
    const { json, F, M, html, csv: table } = await auditTen([], 'yes');
    expect(json.groupMetrics.positive).toBe('yes');
    expectRate(F.accuracy, 3, 5);
    expectRate(F.precision, 1, 2);
    expectRate(M.accuracy, 4, 5);
    expectRate(M.precision, 3, 4);
    // All rows: 7 of 10 right; 4 of the 6 "yes" decisions right.
    expectRate(json.groupMetrics.overall.accuracy, 7, 10);
    expectRate(json.groupMetrics.overall.precision, 4, 6);
    expect(html).toContain('<th>accuracy</th><th>precision</th>');
    expect(html).toContain('<td>0.6 <span class="ci">');
    expect(table.split('\n')[0]).toContain(
      'accuracy,accuracy_lo,accuracy_hi,precision,precision_lo,precision_hi',
    );
  });

  it('follows --positive: precision of the other label, the same accuracy', async () => {
    const { json, F, M } = await auditTen(['--positive', 'no'], 'no');
    expect(json.groupMetrics.positive).toBe('no');
    expectRate(F.accuracy, 3, 5);
    expectRate(F.precision, 2, 3);
    expectRate(M.accuracy, 4, 5);
    expectRate(M.precision, 1, 1);
  });

  it('names the metric of the lead in the JSON and the page', async () => {
    const { json, html } = await auditTen(['--metric', 'accuracy'], 'lead');
    expect(json.groupMetrics.lead).toEqual({ given: 'accuracy', metrics: ['accuracy'] });
    expect(html).toContain('on accuracy (<code>--metric accuracy</code>)');
    const plain = await auditTen([], 'plain');
    expect(plain.json.groupMetrics.lead).toEqual({ given: null, metrics: ['selection rate', 'FNR'] });
  });

  it('refuses an unknown --metric with a typed error naming the allowed values', async () => {
    const run = audit(
      [csv, '--protected', 'sex', '--outcome', 'y=yes', '--predictions', 'decision', '--metric', 'recall'],
      quiet,
      new AbortController().signal,
    );
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
      message: '--metric: unknown metric "recall" (allowed: selection-rate, fpr, fnr, accuracy, precision)',
      details: { option: '--metric', value: 'recall', allowed: [...LEAD_METRICS] },
    });
  });
});

describe('--metric: the rate the summary compares', () => {
  // Group a, 60 rows: every decision right. Group b, 40 rows: every decision wrong. Both groups have
  // half their rows with y = 1 and half given 1, so their selection rates are equal (0.5).
  const schema = defineSchema({
    attributes: [{ name: 'g', kind: 'categorical', protected: true, categories: ['a', 'b'] }],
    outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
  });
  const x: number[] = [];
  const y: number[] = [];
  const pred: number[] = [];
  for (let i = 0; i < 100; i++) {
    const b = i >= 60 ? 1 : 0;
    x.push(b);
    y.push(i % 2);
    pred.push(b ? 1 - (i % 2) : i % 2);
  }
  const ds = createDataset({ schema, x, y });
  const decisions = Int32Array.from(pred);
  const worse = (lead?: (typeof LEAD_METRICS)[number], positive = 1) =>
    groupMetrics(ds, decisions, positive, {}, lead).disadvantaged.map((d) => [d.group, d.metric, d.worse]);

  it('compares the selection rate and the error against a person by default', () => {
    expect(worse()).toEqual([['b', 'FNR', 'higher']]);
    // With "no" positive, the error against a person is the FPR (actual "yes" given "no").
    expect(worse(undefined, 0)).toEqual([['b', 'FPR', 'higher']]);
  });

  it('compares only the named metric, on the side that is worse for the people in the group', () => {
    expect(worse('accuracy')).toEqual([['b', 'accuracy', 'lower']]);
    expect(worse('selection-rate')).toEqual([]);
    expect(worse('fnr')).toEqual([['b', 'FNR', 'higher']]);
    // With "yes" (favourable) positive, a higher FPR means more favourable decisions in error: not worse.
    expect(worse('fpr')).toEqual([]);
    expect(worse('precision')).toEqual([]);
    // With "no" positive, a lower precision means more people given "no" who were "yes".
    expect(worse('precision', 0)).toEqual([['b', 'precision', 'lower']]);
    expect(worse('accuracy', 0)).toEqual([['b', 'accuracy', 'lower']]);
  });
});
