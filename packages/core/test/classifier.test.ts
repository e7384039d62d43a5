import { describe, expect, it } from 'vitest';
import {
  type Classifier,
  CountingClassifier,
  createRng,
  isDifferentiable,
  ModelError,
} from '../src/index.js';
import { expectError, rowsOf, SpyModel } from './helpers.js';

const label = (r: ArrayLike<number>) => (r[0]! + r[1]! > 2 ? 1 : 0);
const A = [0, 1];
const B = [2, 3];
const C = [1, 0.5];
const D = [5, -1];
const E = [4, 4];

function spyWithProba() {
  const spy = new SpyModel(2, label);
  const probaBatches: number[][][] = [];
  const model: Classifier = {
    nFeatures: 2,
    nClasses: 2,
    predict: (x) => spy.predict(x),
    predictProba(x) {
      const rows: number[][] = [];
      const out = new Float64Array(x.length);
      for (let i = 0; i < x.length / 2; i++) {
        const p = 1 / (1 + Math.exp(-(x[2 * i]! + x[2 * i + 1]! - 2)));
        rows.push([x[2 * i]!, x[2 * i + 1]!]);
        out[2 * i] = 1 - p;
        out[2 * i + 1] = p;
      }
      probaBatches.push(rows);
      return out;
    },
  };
  return { spy, probaBatches, model };
}

describe('CountingClassifier', () => {
  it('sends each distinct row to the inner model once and counts queries, distinct rows and batches', () => {
    const spy = new SpyModel(2, label);
    const m = new CountingClassifier(spy);
    expect(m.queryStats).toEqual({ queries: 0, distinctQueries: 0, batches: 0 });

    expect(Array.from(m.predict(rowsOf([A, B, A])))).toEqual([0, 1, 0]);
    expect(spy.batches).toEqual([[A, B]]);
    expect(m.queryStats).toEqual({ queries: 3, distinctQueries: 2, batches: 1 });

    expect(Array.from(m.predict(rowsOf([B, C, C, D])))).toEqual([1, 0, 0, 1]);
    expect(spy.batches).toEqual([
      [A, B],
      [C, D],
    ]);
    expect(m.queryStats).toEqual({ queries: 7, distinctQueries: 4, batches: 2 });

    // All known (-0 is the same value as 0): no model call, no new batch.
    expect(Array.from(m.predict(rowsOf([D, A, [-0, 1]])))).toEqual([1, 0, 0]);
    expect(spy.batches.length).toBe(2);
    expect(m.queryStats).toEqual({ queries: 10, distinctQueries: 4, batches: 2 });

    // An empty batch counts nothing.
    expect(m.predict(new Float64Array(0)).length).toBe(0);
    expect(m.queryStats).toEqual({ queries: 10, distinctQueries: 4, batches: 2 });

    // Every row the inner model saw is distinct.
    const seen = spy.rowsSeen.map((r) => r.join());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('answers the same as the inner model on a random stream with many repeats', () => {
    const spy = new SpyModel(2, label);
    const m = new CountingClassifier(spy);
    const pool = [A, B, C, D, E, [3, 3], [0, 0], [1, 1.5]];
    let queries = 0;
    for (let t = 0; t < 40; t++) {
      const batch = Array.from({ length: 1 + (t % 7) }, (_, i) => pool[(t * 5 + i * 3) % pool.length]!);
      queries += batch.length;
      expect(Array.from(m.predict(rowsOf(batch)))).toEqual(batch.map(label));
    }
    expect(m.queryStats.queries).toBe(queries);
    expect(m.queryStats.distinctQueries).toBe(pool.length);
    expect(spy.rowsSeen.length).toBe(pool.length);
  });

  it('caches probabilities per distinct row; distinct rows are counted across predict and predictProba', () => {
    const { spy, probaBatches, model } = spyWithProba();
    const m = new CountingClassifier(model);
    expect(m.hasProba).toBe(true);
    m.predict(rowsOf([A, B]));
    const p = m.predictProba(rowsOf([A, E, A]));
    expect(probaBatches).toEqual([[A, E]]);
    expect(p.length).toBe(6);
    expect(Array.from(p.subarray(0, 2))).toEqual(Array.from(p.subarray(4, 6)));
    expect(p[3]).toBeCloseTo(1 / (1 + Math.exp(-6)), 12);
    expect(p[2]! + p[3]!).toBeCloseTo(1, 12);
    expect(m.queryStats).toEqual({ queries: 5, distinctQueries: 3, batches: 2 });
    m.predictProba(rowsOf([E]));
    expect(probaBatches.length).toBe(1);
    expect(spy.batches.length).toBe(1);
  });

  // Counts against a brute force over row strings (String(-0) is "0", every NaN is "NaN"), with the
  // inner model asked for each row at most once per kind and every answer equal to the model's own.
  it.each<[string, (rng: ReturnType<typeof createRng>) => number]>([
    ['random reals', (rng) => rng.uniform(-1, 1)],
    ['few distinct values (many repeats)', (rng) => rng.int(0, 2)],
    ['-0, 0, NaN and two other values', (rng) => [0, -0, Number.NaN, 0 / 0, 1, 0.1][rng.int(0, 5)]!],
  ])('counts like a Set of row strings on %s', (_, draw) => {
    const d = 3;
    const rng = createRng(7);
    const seen = { label: [] as string[], proba: [] as string[] };
    const key = (x: Float64Array, i: number) => Array.from(x.subarray(i * d, (i + 1) * d), String).join();
    const score = (x: Float64Array, i: number) => {
      let s = 0;
      for (let j = 0; j < d; j++) s += Number.isNaN(x[i * d + j]) ? 0.5 : x[i * d + j]!;
      return 1 / (1 + Math.exp(-s));
    };
    const inner: Classifier = {
      nFeatures: d,
      nClasses: 2,
      predict(x) {
        const out = new Int32Array(x.length / d);
        for (let i = 0; i < out.length; i++) {
          seen.label.push(key(x, i));
          out[i] = score(x, i) > 0.5 ? 1 : 0;
        }
        return out;
      },
      predictProba(x) {
        const out = new Float64Array((2 * x.length) / d);
        for (let i = 0; i < x.length / d; i++) {
          seen.proba.push(key(x, i));
          out[2 * i + 1] = score(x, i);
          out[2 * i] = 1 - out[2 * i + 1]!;
        }
        return out;
      },
    };
    const m = new CountingClassifier(inner);
    const all = new Set<string>();
    let queries = 0;
    let batches = 0;
    for (let t = 0; t < 300; t++) {
      const n = rng.int(1, 40);
      const x = new Float64Array(n * d);
      for (let k = 0; k < x.length; k++) x[k] = draw(rng);
      const proba = t % 3 === 2;
      const asked = new Set(proba ? seen.proba : seen.label);
      const fresh = new Set<string>();
      for (let i = 0; i < n; i++) {
        all.add(key(x, i));
        if (!asked.has(key(x, i))) fresh.add(key(x, i));
      }
      if (fresh.size > 0) batches++;
      queries += n;
      if (proba) {
        const p = m.predictProba(x);
        for (let i = 0; i < n; i++) expect(p[2 * i + 1]).toBe(score(x, i));
      } else {
        const y = m.predict(x);
        for (let i = 0; i < n; i++) expect(y[i]).toBe(score(x, i) > 0.5 ? 1 : 0);
      }
    }
    expect(new Set(seen.label).size).toBe(seen.label.length);
    expect(new Set(seen.proba).size).toBe(seen.proba.length);
    expect(m.queryStats).toEqual({ queries, distinctQueries: all.size, batches });
  });

  it('asks again for the rows of a batch the model failed on', () => {
    let fail = true;
    const spy = new SpyModel(2, label);
    const m = new CountingClassifier({
      nFeatures: 2,
      nClasses: 2,
      predict: (x) => {
        if (fail) throw new Error('model down');
        return spy.predict(x);
      },
    });
    expect(() => m.predict(rowsOf([A, B]))).toThrow('model down');
    fail = false;
    expect(Array.from(m.predict(rowsOf([B, A, B])))).toEqual([B, A, B].map(label));
    expect(spy.rowsSeen).toEqual([B, A]);
  });

  it('keeps the inner model description and dimensions', () => {
    const m = new CountingClassifier(new SpyModel(2, label));
    expect(m.nFeatures).toBe(2);
    expect(m.nClasses).toBe(2);
    expect(m.description).toBe('spy');
    expect(isDifferentiable(m)).toBe(false);
  });

  const bad = (predict: Classifier['predict'], extra: Partial<Classifier> = {}): CountingClassifier =>
    new CountingClassifier({ nFeatures: 2, nClasses: 2, predict, ...extra });

  it.each<[string, Classifier['predict']]>([
    ['too few labels', () => Int32Array.of(0)],
    ['too many labels', (x) => new Int32Array(x.length)],
    ['a label past the classes', (x) => new Int32Array(x.length / 2).fill(2)],
    ['a negative label', (x) => new Int32Array(x.length / 2).fill(-1)],
    ['a fractional label', (x) => new Float64Array(x.length / 2).fill(0.5) as unknown as Int32Array],
    ['nothing', () => undefined as unknown as Int32Array],
  ])('rejects a predict output with %s (MODEL_OUTPUT)', (_, predict) => {
    expectError(() => bad(predict).predict(rowsOf([A, B])), ModelError, 'MODEL_OUTPUT');
  });

  it.each<[string, (x: Float64Array) => Float64Array]>([
    ['wrong length', () => Float64Array.of(0.5, 0.5)],
    ['a value above 1', (x) => new Float64Array(x.length).fill(1.2)],
    ['a negative value', (x) => new Float64Array(x.length).fill(-0.1)],
    ['NaN', (x) => new Float64Array(x.length).fill(Number.NaN)],
  ])('rejects a predictProba output with %s (MODEL_OUTPUT)', (_, predictProba) => {
    const m = bad((x) => new Int32Array(x.length / 2), { predictProba });
    expectError(() => m.predictProba(rowsOf([A, B])), ModelError, 'MODEL_OUTPUT');
  });

  it('asks for predictProba on a model without it → MODEL_MISMATCH', () => {
    const m = new CountingClassifier(new SpyModel(2, label));
    expect(m.hasProba).toBe(false);
    expectError(() => m.predictProba(rowsOf([A])), ModelError, 'MODEL_MISMATCH');
  });

  it('rejects a batch that is not whole rows, and unusable models', () => {
    const m = new CountingClassifier(new SpyModel(2, label));
    expectError(() => m.predict(Float64Array.of(1, 2, 3)), ModelError, 'MODEL_MISMATCH');
    expectError(
      () => new CountingClassifier(undefined as unknown as Classifier),
      ModelError,
      'MODEL_MISSING',
    );
    expectError(() => new CountingClassifier({} as Classifier), ModelError, 'MODEL_MISSING');
    expectError(() => bad(() => Int32Array.of(), { nFeatures: 0 }), ModelError, 'MODEL_MISMATCH');
    expectError(() => bad(() => Int32Array.of(), { nFeatures: 1.5 }), ModelError, 'MODEL_MISMATCH');
    expectError(() => bad(() => Int32Array.of(), { nClasses: 1 }), ModelError, 'MODEL_MISMATCH');
  });
});
