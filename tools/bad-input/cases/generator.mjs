import { defineSchema } from '@fb/core';
import { generate, generatePlantedPair, resolveSynthOptions } from '@fb/synth';
import { fails, returns, unless } from '../src/cases.mjs';

// Generator options: the synthetic data of the study (the planted-pair generator and the four-phase one).
const small = { attributes: 4, pairs: 2, seedRows: 0, ensembleSize: 0 };
const pp = (o, seed) => () => generatePlantedPair(o, seed);
const gen = (o) => () => generate({ ...small, ...o });

export const cases = [
  fails('planted-pair: options null', 'OPTIONS_INVALID', pp(null)),
  fails('planted-pair: unknown option', 'OPTIONS_UNKNOWN', pp({ row: 100 })),
  fails('planted-pair: function-valued option', 'OPTIONS_INVALID', pp({ rows: () => 100 })),
  fails('planted-pair: rows 10 (below 20)', 'OPTIONS_INVALID', pp({ rows: 10 })),
  fails('planted-pair: rows 1e12', 'OPTIONS_INVALID', pp({ rows: 1e12 })),
  fails('planted-pair: rows 2.5', 'OPTIONS_INVALID', pp({ rows: 2.5 })),
  fails('planted-pair: rows "100"', 'OPTIONS_INVALID', pp({ rows: '100' })),
  fails('planted-pair: 5 protected attributes', 'OPTIONS_INVALID', pp({ protectedAttributes: 5 })),
  fails('planted-pair: 1 protected value', 'OPTIONS_INVALID', pp({ protectedValues: 1 })),
  fails('planted-pair: 31 other attributes', 'OPTIONS_INVALID', pp({ otherAttributes: 31 })),
  fails('planted-pair: bias 11', 'OPTIONS_INVALID', pp({ bias: 11 })),
  fails('planted-pair: bias NaN (null in JSON)', 'OPTIONS_INVALID', pp({ bias: null })),
  fails(
    'planted-pair: granularity above the attributes',
    'OPTIONS_INVALID',
    pp({ otherAttributes: 2, granularity: 3 }),
  ),
  fails('planted-pair: seed -1', 'RNG_INVALID_ARGUMENT', pp({}, -1)),
  fails('planted-pair: seed 0.5', 'RNG_INVALID_ARGUMENT', pp({}, 0.5)),
  returns('planted-pair: the smallest table', pp({ rows: 20 }, 3), (g) =>
    unless(g.dataset.n === 20 && g.dataset.y.every((v) => v === 0 || v === 1), `n ${g.dataset.n}`),
  ),
  returns(
    'planted-pair: same seed, same bytes',
    () => [pp({ rows: 50 }, 'x')(), pp({ rows: 50 }, 'x')()],
    ([a, b]) =>
      unless(Buffer.from(a.dataset.x.buffer).equals(Buffer.from(b.dataset.x.buffer)), 'different data'),
  ),

  fails('generate: options null', 'OPTIONS_INVALID', () => generate(null)),
  fails('generate: options an array', 'OPTIONS_INVALID', () => generate([])),
  fails('generate: options a string', 'OPTIONS_INVALID', () => generate('attributes=3')),
  fails('generate: unknown option', 'OPTIONS_UNKNOWN', gen({ attribute: 3 })),
  fails('generate: function-valued option', 'OPTIONS_INVALID', gen({ labels: () => 'x' })),
  fails('generate: 1 attribute', 'OPTIONS_INVALID', gen({ attributes: 1 })),
  fails('generate: 5000 attributes', 'OPTIONS_INVALID', gen({ attributes: 5000 })),
  fails('generate: protectedShare 2', 'OPTIONS_INVALID', gen({ protectedShare: 2 })),
  fails('generate: minArity 1', 'OPTIONS_INVALID', gen({ minArity: 1 })),
  fails('generate: minArity above maxArity', 'OPTIONS_INVALID', gen({ minArity: 6, maxArity: 3 })),
  fails(
    'generate: minSimilarity above maxSimilarity',
    'OPTIONS_INVALID',
    gen({ minSimilarity: 0.9, maxSimilarity: 0.1 }),
  ),
  fails(
    'generate: minGroupSize above maxGroupSize',
    'OPTIONS_INVALID',
    gen({ minGroupSize: 100, maxGroupSize: 50 }),
  ),
  fails('generate: minBias above maxBias', 'OPTIONS_INVALID', gen({ minBias: 3, maxBias: 1 })),
  fails('generate: correlation not square', 'OPTIONS_INVALID', gen({ correlation: [[1, 0]] })),
  fails('generate: correlationStrength -1', 'OPTIONS_INVALID', gen({ correlationStrength: -1 })),
  fails('generate: negative pairs', 'OPTIONS_INVALID', gen({ pairs: -1 })),
  fails('generate: maxGroupSize 1e12', 'OPTIONS_INVALID', gen({ maxGroupSize: 1e12 })),
  fails('generate: backgroundShare 1.5', 'OPTIONS_INVALID', gen({ backgroundShare: 1.5 })),
  fails('generate: labels "coin"', 'OPTIONS_INVALID', gen({ labels: 'coin' })),
  fails('generate: threshold 2', 'OPTIONS_INVALID', gen({ threshold: 2 })),
  fails('generate: seed 1.5', 'OPTIONS_INVALID', gen({ seed: 1.5 })),
  fails('generate: a schema that is not one', 'SCHEMA_INVALID', gen({ schema: { attributes: [] } })),
  fails('generate: a source that is not a dataset', 'DATA_SHAPE', gen({ source: { x: [1] } })),
  fails('generate: predefined pair on an unknown attribute', ['OPTIONS_INVALID', 'SCHEMA_INVALID'], () =>
    generate({
      ...small,
      schema: defineSchema({
        attributes: [
          { name: 'p', kind: 'categorical', protected: true, categories: ['a', 'b'] },
          { name: 'q', kind: 'categorical', protected: false, categories: ['a', 'b'] },
        ],
        outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
      }),
      pairs: 0,
      predefinedPairs: [{ a: [{ attribute: 'zz', values: [0] }], b: [{ attribute: 'p', values: [1] }] }],
    }),
  ),
  fails(
    'generate: marginals for too few attributes',
    'OPTIONS_INVALID',
    gen({ marginals: [{ probabilities: [1] }] }),
  ),
  fails('generate: 1e6 pairs of up to 1e6 rows', 'OPTIONS_INVALID', gen({ pairs: 1e6, maxGroupSize: 1e6 })),
  fails('resolveSynthOptions: an array', 'OPTIONS_INVALID', () => resolveSynthOptions([])),
  returns('generate: defaults give a valid table and truth', gen({}), (r) =>
    unless(r.dataset.n > 0 && r.truth.pairs.length >= 0, 'no data'),
  ),
];
