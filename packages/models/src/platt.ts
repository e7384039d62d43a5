/** Sigmoid P(positive | f) = 1 / (1 + exp(A·f + B)) fitted to decision values. */
export interface PlattSigmoid {
  readonly a: number;
  readonly b: number;
}

/** 1 / (1 + exp(A·f + B)), computed without overflow. */
export function plattProbability(s: PlattSigmoid, f: number): number {
  const t = s.a * f + s.b;
  return t >= 0 ? Math.exp(-t) / (1 + Math.exp(-t)) : 1 / (1 + Math.exp(t));
}

/**
 * Platt's sigmoid by the Newton method with backtracking of Lin, Lin & Weng (Machine Learning 68, 2007),
 * on Platt's regularised targets (N₊ + 1)/(N₊ + 2) and 1/(N₋ + 2), weighted by `weight`.
 */
export function fitPlatt(f: Float64Array, positive: Uint8Array, weight: Float64Array): PlattSigmoid {
  const n = f.length;
  let prior1 = 0;
  let prior0 = 0;
  for (let i = 0; i < n; i++) {
    if (positive[i]) prior1 += weight[i]!;
    else prior0 += weight[i]!;
  }
  const hi = (prior1 + 1) / (prior1 + 2);
  const lo = 1 / (prior0 + 2);
  const t = Float64Array.from({ length: n }, (_, i) => (positive[i] ? hi : lo));
  const sigma = 1e-12;
  let a = 0;
  let b = Math.log((prior0 + 1) / (prior1 + 1));
  const objective = (A: number, B: number) => {
    let v = 0;
    for (let i = 0; i < n; i++) {
      const z = f[i]! * A + B;
      v +=
        weight[i]! *
        (z >= 0 ? t[i]! * z + Math.log1p(Math.exp(-z)) : (t[i]! - 1) * z + Math.log1p(Math.exp(z)));
    }
    return v;
  };
  let fval = objective(a, b);
  for (let iter = 0; iter < 100; iter++) {
    let h11 = sigma;
    let h22 = sigma;
    let h21 = 0;
    let g1 = 0;
    let g2 = 0;
    for (let i = 0; i < n; i++) {
      const z = f[i]! * a + b;
      const p = z >= 0 ? Math.exp(-z) / (1 + Math.exp(-z)) : 1 / (1 + Math.exp(z));
      const q = 1 - p;
      const w = weight[i]!;
      const d2 = w * p * q;
      h11 += f[i]! * f[i]! * d2;
      h22 += d2;
      h21 += f[i]! * d2;
      const d1 = w * (t[i]! - p);
      g1 += f[i]! * d1;
      g2 += d1;
    }
    if (
      Math.abs(g1) < 1e-5 * Math.max(1, prior0 + prior1) &&
      Math.abs(g2) < 1e-5 * Math.max(1, prior0 + prior1)
    )
      break;
    const det = h11 * h22 - h21 * h21;
    const dA = -(h22 * g1 - h21 * g2) / det;
    const dB = -(-h21 * g1 + h11 * g2) / det;
    const gd = g1 * dA + g2 * dB;
    let step = 1;
    let moved = false;
    while (step >= 1e-10) {
      const na = a + step * dA;
      const nb = b + step * dB;
      const nf = objective(na, nb);
      if (nf < fval + 1e-4 * step * gd) {
        a = na;
        b = nb;
        fval = nf;
        moved = true;
        break;
      }
      step /= 2;
    }
    if (!moved) break;
  }
  return { a, b };
}
