import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Condition, createDataset, type DiscoveryResult, defineSchema, ModelError } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  audit,
  checkSchemaFile,
  claimOutput,
  csvCell,
  findingsCsv,
  finds,
  groupMetrics,
  loadAuditData,
  loadEndpointClassifier,
  OutputRefusedError,
  quantileEdges,
  RecordedDecisions,
  UsageError,
} from '../src/index.js';
import { syntheticCsv } from './synthetic.js';

const dir = mkdtempSync(path.join(tmpdir(), 'fb-cli-'));
const csv = path.join(dir, 'people.csv');
writeFileSync(csv, syntheticCsv(400));
const quietIo = { stdout: () => {}, stderr: () => {}, isTTY: false };

describe('loadAuditData', () => {
  it('infers kinds, leaves identifiers out and bins a numeric protected attribute into quantiles', () => {
    const data = loadAuditData({ file: csv, outcome: 'income', favorable: 'yes', protected: ['sex', 'age'] });
    const names = data.dataset.schema.attributes.map((a) => a.name);
    expect(names).toEqual(['sex', 'race', 'age', 'education', 'hours']);
    expect(data.notes.some((n) => n.includes('"person_id" is left out'))).toBe(true);
    const age = data.dataset.schema.attributes[2]!;
    expect(age.kind).toBe('ordinal');
    expect(age.categories!.length).toBe(4);
    expect(data.binned[0]!.name).toBe('age');
    // The model schema keeps raw ages; each bin's median lies inside its bin.
    expect(data.modelSchema.attributes[2]!.categories).toBeUndefined();
    const { edges, representatives } = data.binned[0]!;
    representatives.forEach((m, b) => {
      if (b > 0) expect(m).toBeGreaterThanOrEqual(edges[b - 1]!);
      if (b < edges.length) expect(m).toBeLessThan(edges[b]!);
    });
    expect(data.dataset.schema.outcome.labels[data.dataset.schema.outcome.favorable]).toBe('yes');
  });

  it('takes recorded decisions out of the attributes and codes them as outcome labels', () => {
    const file = path.join(dir, 'decided.csv');
    writeFileSync(file, 'sex,score,decision,y\nF,1,yes,yes\nM,2,no,yes\nF,3,no,no\nM,4,yes,no\n');
    const data = loadAuditData({
      file,
      outcome: 'y',
      favorable: 'yes',
      protected: ['sex'],
      recorded: { kind: 'predictions', column: 'decision' },
    });
    expect(data.dataset.schema.attributes.map((a) => a.name)).toEqual(['sex', 'score']);
    expect(Array.from(data.recorded!.values)).toEqual([1, 0, 0, 1]);
    const bad = path.join(dir, 'bad.csv');
    writeFileSync(bad, 'sex,decision,y\nF,maybe,yes\nM,no,no\n');
    expect(() =>
      loadAuditData({
        file: bad,
        outcome: 'y',
        favorable: 'yes',
        protected: ['sex'],
        recorded: { kind: 'predictions', column: 'decision' },
      }),
    ).toThrow(/"maybe" is not a label of outcome "y"/);
  });

  it('names a missing column', () => {
    expect(() =>
      loadAuditData({ file: csv, outcome: 'income', favorable: 'yes', protected: ['gender'] }),
    ).toThrow(UsageError);
  });

  it('quantile edges split into near-equal bins, distinct and increasing', () => {
    expect(
      quantileEdges(
        Float64Array.from({ length: 100 }, (_, i) => i),
        4,
      ),
    ).toEqual([25, 50, 75]);
    expect(quantileEdges(Float64Array.from([0, 0, 0, 0, 0, 0, 1, 2]), 4)).toEqual([1]);
  });
});

const schema = defineSchema({
  attributes: [
    { name: 'g', kind: 'categorical', protected: true, categories: ['a', 'b'] },
    { name: 'v', kind: 'ordinal', protected: false, min: 0, max: 9 },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

describe('RecordedDecisions', () => {
  it('answers for rows of the data (majority among identical rows) and refuses new inputs', () => {
    const ds = createDataset({ schema, x: [0, 1, 0, 1, 0, 1, 1, 5], y: [1, 0, 1, 1] });
    const m = new RecordedDecisions(ds, Int32Array.from([1, 1, 0, 0]), null, 'recorded');
    expect(Array.from(m.predict(Float64Array.from([1, 5, 0, 1])))).toEqual([0, 1]);
    expect(() => m.predict(Float64Array.from([1, 2]))).toThrow(ModelError);
  });
});

describe('groupMetrics', () => {
  it('computes rates per group with the named positive label and Wilson intervals', () => {
    // Group a: 4 rows, predictions 1,1,0,0, labels 1,0,1,0. Group b: 2 rows, predictions 0,0.
    const ds = createDataset({ schema, x: [0, 1, 0, 2, 0, 3, 0, 4, 1, 5, 1, 6], y: [1, 0, 1, 0, 1, 0] });
    const pred = Int32Array.from([1, 1, 0, 0, 0, 0]);
    const g = groupMetrics(ds, pred, 1);
    const a = g.byGroup.find((r) => r.group === 'g=a')!;
    expect(a.selectionRate.value).toBe(0.5);
    expect(a.tpr.value).toBe(0.5);
    expect(a.fpr.value).toBe(0.5);
    // Wilson 95% for 2 of 4: centre (0.5 + z²/8) / (1 + z²/4) = 0.5, half-width z·sqrt(1/16 + z²/64) / (1 + z²/4).
    const z = 1.959963984540054;
    const half = (z * Math.sqrt(1 / 16 + (z * z) / 64)) / (1 + (z * z) / 4);
    expect(a.selectionRate.lo).toBeCloseTo(0.5 - half, 9);
    expect(a.selectionRate.hi).toBeCloseTo(0.5 + half, 9);
    // With "no" as the positive label, group b's selection rate is 1 and a's FPR is 1 - a's TNR.
    const neg = groupMetrics(ds, pred, 0);
    expect(neg.positive).toBe('no');
    expect(neg.byGroup.find((r) => r.group === 'g=b')!.selectionRate.value).toBe(1);
    expect(neg.aequitas[0]!['fpr']).toBe(0.5);
  });
});

// Favourable ("yes") when v > 4 or g = b; odd requests are answered with probabilities, even ones with labels.
const ENDPOINT_SERVER = `
const bodies = [];
const server = require('node:http').createServer((req, res) => {
  let text = '';
  req.on('data', (c) => (text += c));
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/log') return res.end(JSON.stringify(bodies));
    const body = JSON.parse(text);
    bodies.push(body);
    const yes = body.rows.map((r) => r[1] > 4 || r[0] === 'b');
    res.end(JSON.stringify(bodies.length % 2 === 1
      ? { probabilities: yes.map((v) => (v ? [0.2, 0.8] : [0.9, 0.1])) }
      : { labels: yes.map((v) => (v ? 'yes' : 'no')) }));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port)));
`;

describe('loadEndpointClassifier', () => {
  it('POSTs labelled rows in batches and reads probabilities or labels back', async () => {
    // The server runs in its own process: the classifier blocks this thread while it waits.
    const server = spawn(process.execPath, ['-e', ENDPOINT_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve) =>
      server.stdout.once('data', (d) => resolve(Number(String(d)))),
    );
    const url = `http://127.0.0.1:${port}/predict`;
    const model = await loadEndpointClassifier(url, schema, { batchSize: 2 });
    try {
      const x = Float64Array.from([0, 1, 0, 7, 1, 2]);
      const proba = model.predictProba(x);
      expect(Array.from(proba)).toEqual([0.9, 0.1, 0.2, 0.8, 0, 1]);
      expect(Array.from(model.predict(x))).toEqual([0, 1, 1]);
      const bodies = (await (await fetch(`http://127.0.0.1:${port}/log`)).json()) as { rows: unknown[] }[];
      expect(bodies[0]).toEqual({
        columns: ['g', 'v'],
        rows: [
          ['a', 1],
          ['a', 7],
        ],
      });
      expect(bodies[1]!.rows).toEqual([['b', 2]]);
      expect(bodies.length).toBe(4);
    } finally {
      await model.close();
      server.kill();
    }
  });
});

describe('fairbench audit', () => {
  it('audits recorded scores with no model: individual testing is skipped and says why', async () => {
    const file = path.join(dir, 'scored.csv');
    const lines = ['sex,hours,score,y'];
    for (let i = 0; i < 300; i++) {
      const sex = i % 2 ? 'F' : 'M';
      const score = (i * 37) % 10;
      lines.push(`${sex},${(i * 13) % 50},${score},${score < 4 === (i % 3 !== 0) ? 'good' : 'bad'}`);
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
    const out = path.join(dir, 'scored-report');
    const code = await audit(
      [
        file,
        '--protected',
        'sex',
        '--outcome',
        'y=good',
        '--scores',
        'score',
        '--threshold',
        '4',
        '--higher-is',
        'unfavourable',
        '--time',
        '4',
        '--out',
        out,
      ],
      quietIo,
      new AbortController().signal,
    );
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
    const status = Object.fromEntries(
      report.methods.map((m: { id: string; status: string }) => [m.id, m.status]),
    );
    expect(status).toEqual({
      biasscan: 'done',
      divexplorer: 'done',
      sliceline: 'done',
      rowflips: 'skipped',
      aequitas: 'skipped',
    });
    expect(report.model.facts[0]).toBe('decisions: "good" when score < 4, else "bad"');
  });

  it('writes a partial report when interrupted', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = path.join(dir, 'partial');
    const code = await audit(
      [csv, '--protected', 'sex', '--outcome', 'income=yes', '--train', 'lr', '--out', out],
      quietIo,
      controller.signal,
    );
    expect(code).toBe(130);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.partial).toBe(true);
    expect(report.groupMetrics.byGroup.length).toBe(2);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('This audit was interrupted');
  });

  it('rejects a command line with no model or two', async () => {
    await expect(
      audit([csv, '--protected', 'sex', '--outcome', 'income=yes'], quietIo, new AbortController().signal),
    ).rejects.toThrow(/choose one model/);
    await expect(
      audit(
        [csv, '--protected', 'sex', '--outcome', 'income=yes', '--train', 'rf', '--scores', 'hours'],
        quietIo,
        new AbortController().signal,
      ),
    ).rejects.toThrow(/choose one model/);
  });
});

describe('calibrate: when a planted subgroup counts as found', () => {
  const ds = createDataset({
    schema,
    x: Array.from({ length: 20 }, (_, i) => [i % 2, i % 10]).flat(),
    y: Array.from({ length: 20 }, (_, i) => i % 2),
  });
  const planted = [{ attribute: 'g', values: [1] }];
  const result = (findings: DiscoveryResult['findings']) => ({ findings }) as DiscoveryResult;
  const sub = (conditions: Condition[], pValue: number | null) => ({
    rank: 1,
    conditions,
    size: 0,
    score: 1,
    effect: null,
    pValue,
    direction: null,
    details: {},
  });

  it('by a reported subgroup sharing enough rows, significant when it has a p-value', () => {
    // g = b AND v < 4: 4 of the 10 planted rows, Jaccard 0.4.
    const part = [
      { attribute: 'g', values: [1] },
      { attribute: 'v', min: 0, max: 4, maxInclusive: false },
    ];
    expect(finds(result({ kind: 'subgroup', subgroups: [sub(part, null)] }), ds, planted)).toBe(true);
    expect(finds(result({ kind: 'subgroup', subgroups: [sub(part, 0.2)] }), ds, planted)).toBe(false);
    // v = 1 alone: 2 rows, both planted, Jaccard 0.2.
    expect(
      finds(
        result({ kind: 'subgroup', subgroups: [sub([{ attribute: 'v', values: [1] }], 0.01)] }),
        ds,
        planted,
      ),
    ).toBe(false);
    // The empty conjunction (all rows) never counts.
    expect(finds(result({ kind: 'subgroup', subgroups: [sub([], 0.01)] }), ds, planted)).toBe(false);
  });

  it('by a discriminatory pair whose sample lies in the planted subgroup', () => {
    const pair = (g: number) => ({
      caseId: 0,
      sample: [g, 3],
      counterfactual: [1 - g, 3],
      sampleOutcome: 0,
      counterfactualOutcome: 1,
      changed: ['g'],
    });
    expect(finds(result({ kind: 'individual', pairs: [pair(0)], byAttributeValue: [] }), ds, planted)).toBe(
      false,
    );
    expect(
      finds(result({ kind: 'individual', pairs: [pair(0), pair(1)], byAttributeValue: [] }), ds, planted),
    ).toBe(true);
  });
});

describe('bad input', () => {
  it('names a short row and a "," header over ";" rows', () => {
    const file = path.join(dir, 'ragged.csv');
    writeFileSync(file, 'sex,v,y\nF;1;yes\nM;2;no\n');
    expect(() => loadAuditData({ file, outcome: 'y', favorable: 'yes', protected: ['sex'] })).toThrow(
      /line 2: 1 cell, the header has 3 .*split on "," but this line on ";"/,
    );
  });

  it('checks every field of a schema file', () => {
    expect(() => checkSchemaFile({ bins: { age: ['a', 30] } })).toThrow(
      /bins.age\[0\]: "a" is not a finite number/,
    );
    expect(() => checkSchemaFile({ bins: { age: [30, 30] } })).toThrow(/edges must increase/);
    expect(() => checkSchemaFile({ kinds: { age: 'numeric' } })).toThrow(/kinds.age/);
    expect(checkSchemaFile({ bins: { age: [30, 40] }, protected: ['sex'] })).toEqual({
      bins: { age: [30, 40] },
      protected: ['sex'],
    });
  });

  it('escapes formulas in CSV cells and keeps numbers', () => {
    expect(['=1+1', '@x', '+A1', '-1+2', '-0.5', '+3', 'a,b', 'x'].map(csvCell)).toEqual([
      `"'=1+1"`,
      `"'@x"`,
      `"'+A1"`,
      `"'-1+2"`,
      '-0.5',
      '+3',
      '"a,b"',
      'x',
    ]);
    expect(csvCell(-0.5)).toBe('-0.5');
  });

  it('writes attributes named like table columns as attr_<name>', () => {
    const clash = defineSchema({
      attributes: [
        { name: 'score', kind: 'categorical', protected: true, categories: ['a', 'b'] },
        { name: 'rank', kind: 'ordinal', protected: false, min: 0, max: 9 },
      ],
      outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
    });
    const result = {
      findings: {
        kind: 'subgroup',
        subgroups: [
          {
            rank: 1,
            conditions: [{ attribute: 'score', values: [1] }],
            size: 3,
            score: 2,
            effect: 0.1,
            pValue: null,
            direction: null,
            details: {},
          },
        ],
      },
      metrics: { tsn: 1, dsn: 1, sur: 1, dss: null },
    } as unknown as DiscoveryResult;
    const { csv, renamed } = findingsCsv(result, clash);
    expect(renamed).toEqual([
      ['score', 'attr_score'],
      ['rank', 'attr_rank'],
    ]);
    expect(csv.split('\n')[0]).toBe(
      'attr_score,attr_rank,subgroup,subgroup_key,size,score,effect,p_value,direction,rank,TSN,DSN,SUR,DSS',
    );
    expect(csv.split('\n')[1]).toBe('b,*,attr_score = b,b|*,3,2,0.1,,,1,1,1,1,');
  });

  it('refuses an --out that holds an input or files it did not write, and replaces its own', async () => {
    const shared = path.join(dir, 'shared');
    mkdirSync(shared);
    const data = path.join(shared, 'x.csv');
    writeFileSync(data, syntheticCsv(200));
    const args = [data, '--protected', 'sex', '--outcome', 'income=yes', '--train', 'lr', '--time', '1'];
    await expect(audit([...args, '--out', shared], quietIo, new AbortController().signal)).rejects.toThrow(
      OutputRefusedError,
    );
    expect(readFileSync(data, 'utf8')).toBe(syntheticCsv(200));
    const out = path.join(dir, 'own');
    expect(await audit([...args, '--out', out], quietIo, new AbortController().signal)).toBe(0);
    expect(readdirSync(out)).toContain('findings-aequitas.csv');
    await audit([...args, '--methods', 'sliceline', '--out', out], quietIo, new AbortController().signal);
    expect(readdirSync(out)).not.toContain('findings-aequitas.csv');
    writeFileSync(path.join(out, 'mine.txt'), 'notes');
    expect(() => claimOutput(out, [])).toThrow(/did not write \("mine.txt"\)/);
  });
});

// Request 1 is answered after 900 ms, later ones after 300 ms; row probabilities name the request.
const LATE_SERVER = `
let count = 0;
require('node:http').createServer((req, res) => {
  let text = '';
  req.on('data', (c) => (text += c));
  req.on('end', () => {
    const k = ++count;
    const body = JSON.parse(text);
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ probabilities: body.rows.map(() => (k === 3 ? [0.9, 0.9] : [k / 10, 1 - k / 10])) }));
    }, k === 1 ? 2300 : k === 2 ? 600 : 100);
  });
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port)); });
`;

describe('BlockingClassifier', () => {
  it('matches answers to requests after a timeout, and refuses rows that are not distributions', async () => {
    const server = spawn(process.execPath, ['-e', LATE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve) =>
      server.stdout.once('data', (d) => resolve(Number(String(d)))),
    );
    const model = await loadEndpointClassifier(`http://127.0.0.1:${port}/`, schema, {
      batchSize: 4,
      // Wide margins: request 2 answers 1.4 s before the timeout, request 1 after it, so that a loaded
      // machine does not change the order.
      timeoutMs: 2000,
    });
    try {
      expect(() => model.predictProba(Float64Array.from([0, 1]))).toThrow(/no answer within 2000 ms/);
      // Request 1's late answer arrives while request 2 is awaited: request 2 gets its own.
      expect(Array.from(model.predictProba(Float64Array.from([0, 1])))).toEqual([0.2, 0.8]);
      expect(() => model.predictProba(Float64Array.from([0, 1]))).toThrow(/sum to 1.8, not 1/);
    } finally {
      await model.close();
      server.kill();
    }
  });
});
