import { createDataset, createRng, defineSchema } from '@fb/core';

/**
 * A table of `n` rows and `d` attributes (d >= 4) for budget cases: a protected `sex` and `group`, then
 * categorical attributes of 2 to 9 levels alternating with continuous ones in [0, 100]. Its model
 * (probabilities from a logistic score of sex, the first three attributes after the protected ones and
 * a weak term in every one) favours men; the labels are drawn from it.
 */
export function wideTable(n, d, seed = 5) {
  const rng = createRng(seed);
  const attributes = [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'group', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
  ];
  for (let j = 2; j < d; j++) {
    attributes.push(
      j % 2 === 0
        ? {
            name: `c${j}`,
            kind: 'categorical',
            protected: false,
            categories: Array.from({ length: 2 + (j % 8) }, (_, k) => `v${k}`),
          }
        : { name: `x${j}`, kind: 'continuous', protected: false, min: 0, max: 100 },
    );
  }
  const schema = defineSchema({ attributes, outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 } });
  // The logistic score's weight per attribute.
  const weight = Float64Array.from({ length: d }, (_, j) =>
    j === 0
      ? 1.5
      : j === 1
        ? 0
        : j === 2
          ? 0.3
          : j === 3
            ? -0.01
            : (j % 2 === 0 ? 0.05 : 0.002) * (j % 3 === 0 ? -1 : 1),
  );
  const score = (x, o) => {
    let z = -1;
    for (let j = 0; j < d; j++) z += weight[j] * x[o + j];
    return 1 / (1 + Math.exp(-z));
  };
  const model = {
    nFeatures: d,
    nClasses: 2,
    predictProba(x) {
      const m = x.length / d;
      const out = new Float64Array(2 * m);
      for (let i = 0; i < m; i++) {
        const p = score(x, i * d);
        out[2 * i] = 1 - p;
        out[2 * i + 1] = p;
      }
      return out;
    },
    // The favourable probability and its gradient, for white-box methods.
    scoreGradient(x) {
      const m = x.length / d;
      const scores = new Float64Array(m);
      const gradient = new Float64Array(x.length);
      for (let i = 0; i < m; i++) {
        const p = score(x, i * d);
        scores[i] = p;
        for (let j = 0; j < d; j++) gradient[i * d + j] = p * (1 - p) * weight[j];
      }
      return { score: scores, gradient };
    },
    predict(x) {
      const m = x.length / d;
      const out = new Int32Array(m);
      for (let i = 0; i < m; i++) out[i] = score(x, i * d) >= 0.5 ? 1 : 0;
      return out;
    },
  };
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * d;
    attributes.forEach((a, j) => {
      x[o + j] = a.categories
        ? rng.int(0, a.categories.length - 1)
        : Math.round(rng.uniform(0, 100) * 10) / 10;
    });
    y[i] = rng.bernoulli(score(x, o)) ? 1 : 0;
  }
  return { dataset: createDataset({ schema, x, y, name: `wide-${n}x${d}` }), model };
}
