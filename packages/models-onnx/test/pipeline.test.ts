import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Attribute, defineSchema, type Schema } from '@fb/core';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOnnxAsyncClassifier, loadOnnxClassifier, type OnnxClassifier } from '../src/index.js';

// A scikit-learn pipeline (one-hot text columns + numbers -> random forest) in the graph skl2onnx
// writes: one named input per column, ai.onnx.ml encoders and tree ensemble, a ZipMap output. Built by
// tools/onnx-pipeline/adult_forest.py, which also stored scikit-learn's probabilities for 25 rows.
const here = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(here, 'fixtures', 'adult-forest.onnx');
const reference = JSON.parse(readFileSync(`${file}.expected.json`, 'utf8')) as {
  columns: string[];
  classes: string[];
  rows: string[][];
  probabilities: number[][];
};

/** A schema over the reference rows; categories in reverse-sorted order, so codes differ from the model's. */
function schemaFor(outcomeLabels: string[]): Schema {
  const attributes: Attribute[] = reference.columns.map((name, j) => {
    const cells = reference.rows.map((r) => r[j]!);
    if (cells.every((c) => Number.isFinite(Number(c)))) {
      const v = cells.map(Number);
      return { name, kind: 'continuous', protected: false, min: Math.min(...v), max: Math.max(...v) };
    }
    return {
      name,
      kind: 'categorical',
      protected: name === 'sex',
      categories: [...new Set(cells)].sort().reverse(),
    };
  });
  return defineSchema({ attributes, outcome: { name: 'income', labels: outcomeLabels, favorable: 1 } });
}

function encode(schema: Schema): Float64Array {
  const d = schema.attributes.length;
  const x = new Float64Array(reference.rows.length * d);
  reference.rows.forEach((r, i) => {
    schema.attributes.forEach((a, j) => {
      x[i * d + j] = a.categories ? a.categories.indexOf(r[j]!) : Number(r[j]);
    });
  });
  return x;
}

const open: OnnxClassifier[] = [];
afterAll(async () => {
  for (const c of open) await c.close();
});

describe('a scikit-learn pipeline export (named string and numeric inputs, ZipMap output)', () => {
  it("matches scikit-learn's probabilities, with the class labels matched to the outcome's", async () => {
    const schema = schemaFor(['<=50K', '>50K']);
    const model = await loadOnnxClassifier(file, { schema });
    open.push(model);
    expect(model.nFeatures).toBe(14);
    expect(model.nClasses).toBe(2);
    expect(model.classLabels).toEqual(['<=50K', '>50K']);
    const proba = model.predictProba(encode(schema));
    reference.probabilities.forEach((p, i) => {
      expect(proba[2 * i]).toBeCloseTo(p[0]!, 5);
      expect(proba[2 * i + 1]).toBeCloseTo(p[1]!, 5);
    });
  });

  it('puts each class at its outcome code when the outcome lists the labels in another order', async () => {
    const schema = schemaFor(['>50K', '<=50K']);
    const model = await loadOnnxAsyncClassifier(file, { schema });
    const proba = await model.predictProbaAsync(encode(schema));
    reference.probabilities.forEach((p, i) => {
      expect(proba[2 * i]).toBeCloseTo(p[1]!, 5);
      expect(proba[2 * i + 1]).toBeCloseTo(p[0]!, 5);
    });
    await model.release();
  });

  it('names what is wrong: several inputs without a schema, a class the outcome lacks', async () => {
    await expect(loadOnnxClassifier(file)).rejects.toThrow(
      expect.objectContaining({ code: 'MODEL_MISMATCH' }),
    );
    const wrong = defineSchema({
      ...schemaFor(['<=50K', '>50K']),
      outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
    });
    await expect(loadOnnxClassifier(file, { schema: wrong })).rejects.toThrow(/not a label of outcome "y"/);
  });
});
