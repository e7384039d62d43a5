import {
  type Attribute,
  checkDataset,
  createDataset,
  defineSchema,
  isDiscrete,
  OptionsError,
  type Rng,
  type Schema,
} from '@fb/core';
import { buildCopula, checkGeneratable, fitCopula, type GaussianCopula, sampleCopula } from './copula.js';
import { continuousFromQuantiles, declaredMarginal, discreteMarginal, type Marginal } from './marginal.js';
import type { SynthOptions } from './options.js';

const OUTCOME = { name: 'outcome', labels: ['unfavourable', 'favourable'], favorable: 1 } as const;

/**
 * An abstract schema: `attributes` attributes, max(1, round(attributes·protectedShare)) of them
 * protected at shuffled positions, named Attr{i}_T / Attr{j}_X with independent counters as in the
 * Python version; arity U{minArity..maxArity}; a `continuousShare` of the non-protected ones
 * continuous on [0, 1].
 */
export function abstractSchema(o: SynthOptions, rng: Rng): Schema {
  if (o.minArity > o.maxArity)
    throw new OptionsError('OPTIONS_INVALID', 'minArity exceeds maxArity', { option: '/minArity' });
  const m = o.attributes;
  const p = Math.min(Math.max(1, Math.round(m * o.protectedShare)), m - 1);
  const flags = rng.shuffle(Array.from({ length: m }, (_, i) => i < p));
  const others = flags.map((f, i) => (f ? -1 : i)).filter((i) => i >= 0);
  const continuous = new Set(rng.sample(others, Math.round(others.length * o.continuousShare)));
  let t = 0;
  let x = 0;
  const attributes: Attribute[] = flags.map((prot, i) => {
    const name = prot ? `Attr${++t}_T` : `Attr${++x}_X`;
    if (continuous.has(i)) return { name, kind: 'continuous', protected: false, min: 0, max: 1 };
    const k = rng.int(o.minArity, o.maxArity);
    return {
      name,
      kind: 'categorical',
      protected: prot,
      categories: Array.from({ length: k }, (_, v) => String(v)),
    };
  });
  return defineSchema({ attributes, outcome: OUTCOME });
}

/** Random marginals: Dirichlet(1) probabilities; skewed quantiles u^γ, γ = e^{N(0, 0.5²)}. */
function randomMarginal(a: Attribute, rng: Rng): Marginal {
  if (isDiscrete(a)) {
    const k = a.categories ? a.categories.length : Math.round((a.max! - a.min!) / a.step!) + 1;
    return discreteMarginal(
      a,
      Float64Array.from({ length: k }, () => -Math.log(1 - rng.next())),
    );
  }
  const gamma = Math.exp(rng.normal(0, 0.5));
  return continuousFromQuantiles(
    Array.from({ length: 33 }, (_, i) => a.min! + (a.max! - a.min!) * (i / 32) ** gamma),
  );
}

/** Random target correlation (1 - s) I + s C, C the unit-diagonal version of B Bᵀ with B ~ N(0, 1)^{d x 2}. */
function randomCorrelation(d: number, strength: number, rng: Rng): Float64Array {
  const b = Float64Array.from({ length: d * 2 }, () => rng.normal());
  const r = new Float64Array(d * d);
  const norm = (i: number) => Math.sqrt(b[2 * i]! ** 2 + b[2 * i + 1]! ** 2) || 1;
  for (let i = 0; i < d; i++) {
    for (let j = 0; j < d; j++) {
      const c = (b[2 * i]! * b[2 * j]! + b[2 * i + 1]! * b[2 * j + 1]!) / (norm(i) * norm(j));
      r[i * d + j] = i === j ? 1 : strength * c;
    }
  }
  return r;
}

/** Phase 1: the copula, fitted to the source (descriptive) or built from the abstract schema (prescriptive). */
export function phaseOneCopula(o: SynthOptions, rng: Rng): GaussianCopula {
  let copula: GaussianCopula;
  if (o.source) {
    copula = fitCopula(checkDataset(o.source));
  } else {
    const schema = o.schema ? defineSchema(o.schema) : abstractSchema(o, rng.fork('schema'));
    const d = schema.attributes.length;
    if (o.marginals && o.marginals.length !== d) {
      throw new OptionsError('OPTIONS_INVALID', `marginals needs ${d} entries, one per attribute`, {
        option: '/marginals',
      });
    }
    const mrng = rng.fork('marginals');
    const marginals = schema.attributes.map((a, j) => {
      const spec = o.marginals?.[j];
      return spec ? declaredMarginal(a, spec, `/marginals/${j}`) : randomMarginal(a, mrng);
    });
    let target: Float64Array;
    if (o.correlation) {
      if (o.correlation.length !== d || o.correlation.some((row) => row.length !== d)) {
        throw new OptionsError('OPTIONS_INVALID', `correlation must be a ${d} x ${d} matrix`, {
          option: '/correlation',
        });
      }
      target = Float64Array.from(o.correlation.flat());
    } else target = randomCorrelation(d, o.correlationStrength, rng.fork('correlation'));
    copula = buildCopula(schema, marginals, target);
    if (o.seedRows > 0) {
      const x = sampleCopula(copula, o.seedRows, rng.fork('seed-rows'));
      const seed = createDataset({ schema, x, y: new Int32Array(o.seedRows) });
      copula = { ...fitCopula(seed), mode: 'prescriptive' };
    }
  }
  for (const a of copula.schema.attributes) checkGeneratable(a);
  return copula;
}
