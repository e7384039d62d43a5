import { DataError, InteropError, OptionsError, Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { FeatureEncoder } from '../src/encoder.js';
import { mixedData, mixedSchema } from './fixtures.js';

const ds = mixedData(500, 'encoder');

function column(z: Float64Array, width: number, c: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < z.length / width; i++) out.push(z[i * width + c]!);
  return out;
}

function moments(v: number[], w?: Float64Array): { mean: number; sd: number } {
  const ws = v.map((_, i) => (w ? w[i]! : 1));
  const total = ws.reduce((a, b) => a + b, 0);
  const mean = v.reduce((a, b, i) => a + ws[i]! * b, 0) / total;
  const variance = v.reduce((a, b, i) => a + ws[i]! * (b - mean) ** 2, 0) / total;
  return { mean, sd: Math.sqrt(variance) };
}

describe('FeatureEncoder', () => {
  it('one-hot encodes categorical attributes and standardises the others', () => {
    const enc = FeatureEncoder.fit(mixedSchema, ds.x, ds.n);
    expect(enc.encodedWidth).toBe(1 + 3 + 1 + 1);
    expect(enc.columnNames).toEqual(['income', 'group=a', 'group=b', 'group=c', 'level', 'score']);
    const z = enc.encode(ds.x, ds.n);
    expect(z.length).toBe(ds.n * 6);
    for (let i = 0; i < ds.n; i++) {
      const code = ds.x[i * 4 + 1]!;
      for (let c = 0; c < 3; c++) expect(z[i * 6 + 1 + c]).toBe(c === code ? 1 : 0);
    }
    for (const c of [0, 4, 5]) {
      const { mean, sd } = moments(column(z, 6, c));
      expect(Math.abs(mean)).toBeLessThan(1e-12);
      expect(sd).toBeCloseTo(1, 12);
    }
  });

  it('standardises with weighted moments when given weights', () => {
    const w = Float64Array.from({ length: ds.n }, (_, i) => 1 + (i % 4));
    const enc = FeatureEncoder.fit(mixedSchema, ds.x, ds.n, { weights: w });
    const z = enc.encode(ds.x, ds.n);
    const { mean, sd } = moments(column(z, 6, 0), w);
    expect(Math.abs(mean)).toBeLessThan(1e-12);
    expect(sd).toBeCloseTo(1, 12);
    const unweighted = moments(column(z, 6, 0));
    expect(Math.abs(unweighted.mean)).toBeGreaterThan(1e-6);
  });

  it('gives a constant column sd 1 and no NaN', () => {
    const x = ds.x.slice();
    for (let i = 0; i < ds.n; i++) x[i * 4 + 2] = 3;
    const enc = FeatureEncoder.fit(mixedSchema, x, ds.n);
    const level = enc.attributes[2]!;
    expect(level).toMatchObject({ encoding: 'standard', mean: 3, sd: 1 });
    const z = enc.encode(x, ds.n);
    expect(z.every((v) => Number.isFinite(v))).toBe(true);
    expect(column(z, 6, 4).every((v) => v === 0)).toBe(true);
  });

  it('ordinal mode standardises the categorical code as one column', () => {
    const enc = FeatureEncoder.fit(mixedSchema, ds.x, ds.n, { categorical: 'ordinal' });
    expect(enc.encodedWidth).toBe(4);
    const z = enc.encode(ds.x, ds.n);
    const codes = column(ds.x, 4, 1);
    const { mean, sd } = moments(codes);
    for (let i = 0; i < ds.n; i++) expect(z[i * 4 + 1]).toBeCloseTo((codes[i]! - mean) / sd, 12);
  });

  it('sparse rows hold the same values as the dense encoding', () => {
    const enc = FeatureEncoder.fit(mixedSchema, ds.x, ds.n);
    const dense = enc.encode(ds.x, ds.n);
    const { index, value } = enc.encodeSparse(ds.x, ds.n);
    const rebuilt = new Float64Array(dense.length);
    for (let i = 0; i < ds.n; i++)
      for (let j = 0; j < 4; j++) rebuilt[i * 6 + index[i * 4 + j]!] += value[i * 4 + j]!;
    expect(rebuilt).toEqual(dense);
  });

  it('linear scores equal W·z + b over the dense encoding, and name a bad row', () => {
    const enc = FeatureEncoder.fit(mixedSchema, ds.x, ds.n);
    const dense = enc.encode(ds.x, ds.n);
    const rng = Rng.create('linear-scores');
    const weights = Float64Array.from({ length: 2 * 6 }, () => rng.uniform(-0.5, 0.5));
    const bias = Float64Array.of(0.25, -1.5);
    const scores = enc.linearScores(ds.x, ds.n, weights, bias);
    expect(scores.length).toBe(ds.n * 2);
    for (let i = 0; i < ds.n; i++) {
      for (let r = 0; r < 2; r++) {
        let s = bias[r]!;
        for (let c = 0; c < 6; c++) s += weights[r * 6 + c]! * dense[i * 6 + c]!;
        expect(scores[i * 2 + r]).toBeCloseTo(s, 12);
      }
    }
    const bad = ds.x.slice(0, 3 * 4);
    bad[2 * 4 + 1] = 9;
    expect(() => enc.linearScores(bad, 3, weights, bias)).toThrow(/row 2, attribute "group"/);
    expect(() => enc.linearScores(ds.x, ds.n, weights.subarray(1), bias)).toThrow(DataError);
  });

  it('reuses an output buffer', () => {
    const enc = FeatureEncoder.fit(mixedSchema, ds.x, ds.n);
    const out = new Float64Array(ds.n * 6).fill(7);
    expect(enc.encode(ds.x, ds.n, out)).toBe(out);
    expect(out).toEqual(enc.encode(ds.x, ds.n));
  });

  it('backpropagates the encoded gradient like finite differences of the encoding', () => {
    const enc = FeatureEncoder.fit(mixedSchema, ds.x, ds.n);
    const n = 5;
    const x = ds.x.slice(0, n * 4);
    // A linear function of the encoding: g·z, whose raw gradient is what backpropagate computes.
    const g = Float64Array.from({ length: n * 6 }, (_, k) => Math.sin(k + 1));
    const raw = enc.backpropagate(g, n);
    const h = 1e-5;
    for (let i = 0; i < n; i++) {
      for (const j of [0, 2, 3]) {
        const up = x.slice();
        const down = x.slice();
        up[i * 4 + j]! += h;
        down[i * 4 + j]! -= h;
        const zu = enc.encode(up, n);
        const zd = enc.encode(down, n);
        let fd = 0;
        for (let c = 0; c < 6; c++) fd += (g[i * 6 + c]! * (zu[i * 6 + c]! - zd[i * 6 + c]!)) / (2 * h);
        expect(raw[i * 4 + j]).toBeCloseTo(fd, 6);
      }
      expect(raw[i * 4 + 1]).toBe(0);
    }
  });

  it('round-trips through JSON with identical encodings', () => {
    const enc = FeatureEncoder.fit(mixedSchema, ds.x, ds.n);
    const back = FeatureEncoder.fromJSON(JSON.parse(JSON.stringify(enc)));
    expect(back.columnNames).toEqual(enc.columnNames);
    expect(back.encode(ds.x, ds.n)).toEqual(enc.encode(ds.x, ds.n));
  });

  it('rejects bad options, bad rows and bad stored encoders with typed errors', () => {
    expect(() => FeatureEncoder.fit(mixedSchema, ds.x, ds.n, { categorical: 'binary' as never })).toThrow(
      OptionsError,
    );
    expect(() => FeatureEncoder.fit(mixedSchema, ds.x.slice(1), ds.n)).toThrow(DataError);
    const enc = FeatureEncoder.fit(mixedSchema, ds.x, ds.n);
    const codeOut = Float64Array.of(0, 3, 1, 0);
    expect(() => enc.encode(codeOut, 1)).toThrow(expect.objectContaining({ code: 'DATA_OUT_OF_DOMAIN' }));
    const nan = Float64Array.of(Number.NaN, 0, 1, 0);
    expect(() => enc.encode(nan, 1)).toThrow(expect.objectContaining({ code: 'DATA_NOT_FINITE' }));
    expect(() => enc.encode(Float64Array.of(0, 0, 1), 1)).toThrow(
      expect.objectContaining({ code: 'DATA_SHAPE' }),
    );
    const weights = new Float64Array(ds.n).fill(1);
    weights[3] = -1;
    expect(() => FeatureEncoder.fit(mixedSchema, ds.x, ds.n, { weights })).toThrow(DataError);
    expect(() =>
      FeatureEncoder.fromJSON({
        categorical: 'one-hot',
        attributes: [{ name: 'a', encoding: 'standard', mean: 0, sd: 0 }],
      }),
    ).toThrow(InteropError);
  });
});
