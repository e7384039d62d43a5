// Audit a scikit-learn model exported to ONNX: a random forest trained on Adult, in the graph skl2onnx
// writes for a pipeline (one named input per column, string and numeric; one-hot encoders and the tree
// ensemble inside the graph; a ZipMap output).
//
//   FB_DATA_DIR=/path/to/datasets node examples/audit-onnx-model.mjs [model.onnx]
//
// Without an argument it audits the small forest that @fb/models-onnx's tests use
// (tools/onnx-pipeline/adult_forest.py builds a bigger one with Debian's python3-onnx and python3-sklearn).
import { fileURLToPath } from 'node:url';
import { describePair, describeSubgroup, labelRow } from '@fb/core';
import { loadAdult } from '@fb/datasets';
import { aequitas } from '@fb/individual-aequitas';
import { loadOnnxClassifier } from '@fb/models-onnx';
import { sliceline } from '@fb/subgroup-sliceline';

const file =
  process.argv[2] ??
  fileURLToPath(new URL('../packages/models-onnx/test/fixtures/adult-forest.onnx', import.meta.url));
const adult = await loadAdult();

// With the schema, each model input named after an attribute gets that column in the data's own labels
// (strings for the one-hot encoded inputs), and the ZipMap's class labels are matched to the outcome's.
const model = await loadOnnxClassifier(file, { schema: adult.schema });
try {
  console.log(`model: ${model.nFeatures} inputs, classes [${model.classLabels?.join(', ')}]`);

  // The model's probabilities for the first rows, as scikit-learn would give them.
  const first = adult.x.subarray(0, 3 * adult.d);
  const proba = model.predictProba(first);
  for (let i = 0; i < 3; i++) {
    const row = labelRow(adult.schema, first.subarray(i * adult.d, (i + 1) * adult.d));
    console.log(
      `row ${i}: age ${row.age}, ${row.education}, ${row.sex} -> P(>50K) = ${proba[2 * i + 1].toFixed(6)}`,
    );
  }

  // Accuracy on every row: one batched call.
  const predicted = model.predict(adult.x);
  const correct = predicted.reduce((s, p, i) => s + (p === adult.y[i] ? 1 : 0), 0);
  console.log(`accuracy on ${adult.n} rows: ${(correct / adult.n).toFixed(4)}`);

  // Subgroups where the forest errs most (SliceLine, false positives and false negatives).
  const slices = await sliceline.run(
    { dataset: adult, model },
    { errors: ['false-positive', 'false-negative'], k: 2 },
    { seed: 1, budget: { maxSeconds: 60 } },
  );
  for (const s of slices.findings.subgroups)
    console.log(
      `slice: ${describeSubgroup(adult.schema, s.conditions)} | rows ${s.size} | ${s.details.errorType} rate ${Number(s.details.averageError).toFixed(3)} (all rows ${Number(s.details.overallAverageError).toFixed(3)})`,
    );

  // Individual discrimination (AEQUITAS): inputs that differ only in the schema's protected attributes
  // and get different decisions; a budget of tested samples keeps the run short.
  const pairs = await aequitas.run(
    { dataset: adult, model },
    { variantMode: 'one-at-a-time' }, // change one protected attribute at a time
    { seed: 1, budget: { maxTested: 300 } },
  );
  const m = pairs.metrics;
  console.log(`aequitas: ${m.dsn} of ${m.tsn} tested samples discriminatory, ${m.pairs} pairs`);
  for (const p of pairs.findings.pairs.slice(0, 3)) console.log(`pair: ${describePair(adult.schema, p)}`);
} finally {
  await model.close(); // ends the worker thread that runs ONNX Runtime
}
