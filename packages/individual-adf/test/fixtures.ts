import {
  type Classifier,
  createDataset,
  createRng,
  type Dataset,
  type DifferentiableClassifier,
} from '@fb/core';
import { PlantedBiasModel, regionSchema } from '@fb/testkit';

export const SEX = 0;
export const A = 1;
export const B = 2;
export const C = 3;

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * A differentiable model of logit z(x) with a hand-written gradient. `zAndGrad` writes dz/dx into
 * `g` and returns z.
 */
class LogitModel implements DifferentiableClassifier {
  readonly nFeatures: number;
  readonly nClasses = 2;
  readonly description: string;
  private readonly zAndGrad: (x: Float64Array, off: number, g: Float64Array, gOff: number) => number;

  constructor(
    description: string,
    d: number,
    zAndGrad: (x: Float64Array, off: number, g: Float64Array, gOff: number) => number,
  ) {
    this.description = description;
    this.nFeatures = d;
    this.zAndGrad = zAndGrad;
  }

  scoreGradient(x: Float64Array): { score: Float64Array; gradient: Float64Array } {
    const d = this.nFeatures;
    const n = x.length / d;
    const score = new Float64Array(n);
    const gradient = new Float64Array(n * d);
    for (let i = 0; i < n; i++) {
      const s = sigmoid(this.zAndGrad(x, i * d, gradient, i * d));
      score[i] = s;
      for (let j = 0; j < d; j++) gradient[i * d + j]! *= s * (1 - s);
    }
    return { score, gradient };
  }

  predictProba(x: Float64Array): Float64Array {
    const { score } = this.scoreGradient(x);
    const out = new Float64Array(2 * score.length);
    score.forEach((s, i) => {
      out[2 * i] = 1 - s;
      out[2 * i + 1] = s;
    });
    return out;
  }

  predict(x: Float64Array): Int32Array {
    return Int32Array.from(this.scoreGradient(x).score, (s) => (s >= 0.5 ? 1 : 0));
  }
}

const K = 4;
/**
 * Inside the region (a smooth bump B(a, b) close to 1 there) the logit is +3 for m and -3 for f;
 * outside it follows 0.3 (a - 70) + 0.5 c. z = (1 - B) L + B S.
 */
export const regionModel = new LogitModel('smooth-region', 5, (x, o, g, go) => {
  const a = x[o + A]!;
  const b = x[o + B]!;
  const s1 = sigmoid(K * (a - 39.5));
  const s2 = sigmoid(K * (49.5 - a));
  const s3 = sigmoid(K * (b - 9.5));
  const bump = s1 * s2 * s3;
  const low = 0.3 * (a - 70) + 0.5 * x[o + C]!;
  const sexTerm = 6 * x[o + SEX]! - 3;
  g[go + SEX] = 6 * bump;
  g[go + A] = (sexTerm - low) * bump * K * (s2 - s1) + (1 - bump) * 0.3;
  g[go + B] = (sexTerm - low) * bump * K * (1 - s3);
  g[go + C] = (1 - bump) * 0.5;
  g[go + 4] = 0;
  return (1 - bump) * low + bump * sexTerm;
});

/** Never looks at sex. */
export const blindModel = new LogitModel('blind', 5, (x, o, g, go) => {
  g[go + SEX] = 0;
  g[go + A] = 0.3;
  g[go + B] = 0.2;
  g[go + C] = 0.5;
  g[go + 4] = 0;
  return 0.3 * (x[o + A]! - 70) + 0.2 * (x[o + B]! - 10) + 0.5 * x[o + C]!;
});

/** A boundary band: z = 0.3 (a - 50) + 1.2 (sex - 0.5); flips exactly when 48 <= a <= 51. */
export const bandModel = new LogitModel('band', 5, (x, o, g, go) => {
  g[go + SEX] = 1.2;
  g[go + A] = 0.3;
  g[go + B] = 0;
  g[go + C] = 0;
  g[go + 4] = 0;
  return 0.3 * (x[o + A]! - 50) + 1.2 * (x[o + SEX]! - 0.5);
});

/** A dataset over `regionSchema` drawn with a fixed seed, labelled by `model`; `aRange` limits attribute a. */
export function datasetFor(model: Classifier, n = 300, aRange: [number, number] = [0, 99]): Dataset {
  const rng = createRng('adf-fixture');
  const d = regionSchema.attributes.length;
  const x = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    x[i * d + SEX] = rng.int(0, 1);
    x[i * d + A] = rng.int(aRange[0], aRange[1]);
    x[i * d + B] = rng.int(0, 19);
    x[i * d + C] = Math.round(rng.uniform(0, 1) * 100) / 100;
    x[i * d + 4] = rng.int(0, 3);
  }
  const y = model.predict(x);
  y[0] = 0;
  y[1] = 1;
  return createDataset({ schema: regionSchema, x, y, name: 'adf-fixture' });
}

/** The testkit's planted-bias model with its hand-written input gradient (its bias terms are steps). */
export class DifferentiablePlantedModel extends PlantedBiasModel implements DifferentiableClassifier {
  scoreGradient(x: Float64Array): { score: Float64Array; gradient: Float64Array } {
    const d = this.nFeatures;
    const n = x.length / d;
    const score = new Float64Array(n);
    const gradient = new Float64Array(n * d);
    for (let i = 0; i < n; i++) {
      const s = this.score(x, i * d);
      score[i] = s;
      gradient[i * d + 2] = 0.35 * s * (1 - s);
      gradient[i * d + 3] = 0.025 * s * (1 - s);
    }
    return { score, gradient };
  }
}
