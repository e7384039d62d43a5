import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStudy, validateStudy } from '@fb/bench';
import { fails, returns, unless } from '../src/cases.mjs';

// Study configurations through the study's public validateStudy and loadStudy.
const good = {
  name: 'corpus',
  seeds: [1],
  synthetic: { generator: 'planted-pair', base: { rows: 300 }, factors: { bias: [-3] } },
  models: [{ kind: 'logistic-regression', options: { l2: 1 } }],
  methods: [{ label: 'A', method: 'aequitas', options: { strategy: 'random' } }],
  budget: { maxTested: 100 },
};
const study = (over) => () => validateStudy({ ...good, ...over });
const dir = mkdtempSync(join(tmpdir(), 'fb-bad-study-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const file = (name, text) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

export const cases = [
  fails('study null', 'OPTIONS_INVALID', () => validateStudy(null)),
  fails('study an array', 'OPTIONS_INVALID', () => validateStudy([good])),
  fails('study a string', 'OPTIONS_INVALID', () => validateStudy('corpus')),
  fails('no name', 'OPTIONS_INVALID', study({ name: undefined })),
  fails('name with a slash', 'OPTIONS_INVALID', study({ name: 'a/b' })),
  fails('name ../escape', 'OPTIONS_INVALID', study({ name: '../escape' })),
  fails('unknown top-level field', 'OPTIONS_UNKNOWN', study({ seed: 1 })),
  fails('__proto__ from JSON', 'OPTIONS_UNKNOWN', () =>
    validateStudy(JSON.parse(`{"__proto__":{"x":1},${JSON.stringify(good).slice(1)}`)),
  ),
  fails('a factor level {__proto__: {...}} from YAML', 'OPTIONS_UNKNOWN', () =>
    loadStudy(
      file(
        'proto-level.yaml',
        `name: corpus
seeds: [1]
synthetic:
  generator: generate
  base: { attributes: 6, pairs: 1 }
  factors:
    bias:
      - { minBias: 0.5, maxBias: 1 }
      - { __proto__: { minBias: 2.5, maxBias: 3 } }
models: [{ kind: logistic-regression }]
methods: [{ label: A, method: aequitas }]
`,
      ),
    ),
  ),
  fails(
    'two factor levels alike but for their key order',
    'OPTIONS_INVALID',
    study({
      synthetic: {
        generator: 'generate',
        base: { attributes: 6, pairs: 1 },
        factors: {
          bias: [
            { minBias: 1, maxBias: 2 },
            { maxBias: 2, minBias: 1 },
          ],
        },
      },
    }),
  ),
  fails('no seeds', 'OPTIONS_INVALID', study({ seeds: [] })),
  fails('seed -1', 'OPTIONS_INVALID', study({ seeds: [-1] })),
  fails('seed 1.5', 'OPTIONS_INVALID', study({ seeds: [1.5] })),
  fails('seed "1"', 'OPTIONS_INVALID', study({ seeds: ['1'] })),
  fails('repeated seed', 'OPTIONS_INVALID', study({ seeds: [1, 1] })),
  fails('no models', 'OPTIONS_INVALID', study({ models: [] })),
  fails('model kind xgboost', 'OPTIONS_INVALID', study({ models: [{ kind: 'xgboost' }] })),
  fails(
    'model with an unknown field',
    'OPTIONS_UNKNOWN',
    study({ models: [{ kind: 'decision-tree', depth: 3 }] }),
  ),
  fails('no methods', 'OPTIONS_INVALID', study({ methods: [] })),
  fails('unknown method', 'OPTIONS_INVALID', study({ methods: [{ label: 'X', method: 'fairtest' }] })),
  fails('method without a label', 'OPTIONS_INVALID', study({ methods: [{ method: 'aequitas' }] })),
  fails(
    'method with an empty label',
    'OPTIONS_INVALID',
    study({ methods: [{ label: '', method: 'aequitas' }] }),
  ),
  fails(
    'two methods with one label',
    'OPTIONS_INVALID',
    study({
      methods: [
        { label: 'A', method: 'aequitas' },
        { label: 'A', method: 'sliceline' },
      ],
    }),
  ),
  fails(
    'a method option unknown to it',
    'OPTIONS_INVALID',
    study({ methods: [{ label: 'A', method: 'aequitas', options: { noSuch: 1 } }] }),
  ),
  fails(
    'a method option of the wrong type',
    'OPTIONS_INVALID',
    study({ methods: [{ label: 'A', method: 'aequitas', options: { strategy: 7 } }] }),
  ),
  fails(
    'vary with no levels',
    'OPTIONS_INVALID',
    study({ methods: [{ label: 'A', method: 'aequitas', vary: { strategy: [] } }] }),
  ),
  fails(
    'vary to a bad level',
    'OPTIONS_INVALID',
    study({ methods: [{ label: 'A', method: 'aequitas', vary: { strategy: ['random', 'sideways'] } }] }),
  ),
  fails('empty budget', 'OPTIONS_INVALID', study({ budget: {} })),
  fails('budget maxSeconds 0', 'OPTIONS_INVALID', study({ budget: { maxSeconds: 0 } })),
  fails('budget maxTested 1.5', 'OPTIONS_INVALID', study({ budget: { maxTested: 1.5 } })),
  fails('budget with an unknown field', 'OPTIONS_UNKNOWN', study({ budget: { maxMinutes: 1 } })),
  fails('workers 0', 'OPTIONS_INVALID', study({ workers: 0 })),
  fails('cellTimeoutSeconds 0', 'OPTIONS_INVALID', study({ cellTimeoutSeconds: 0 })),
  fails('cellTimeoutSeconds -1', 'OPTIONS_INVALID', study({ cellTimeoutSeconds: -1 })),
  fails('cellTimeoutSeconds "120"', 'OPTIONS_INVALID', study({ cellTimeoutSeconds: '120' })),
  fails('jaccardThreshold 0', 'OPTIONS_INVALID', study({ jaccardThreshold: 0 })),
  fails('jaccardThreshold 2', 'OPTIONS_INVALID', study({ jaccardThreshold: 2 })),
  fails('generator "gan"', 'OPTIONS_INVALID', study({ synthetic: { generator: 'gan' } })),
  fails(
    'synthetic with an unknown field',
    'OPTIONS_UNKNOWN',
    study({ synthetic: { generator: 'generate', seeds: [1] } }),
  ),
  fails(
    'a base option unknown to the generator',
    'OPTIONS_INVALID',
    study({ synthetic: { generator: 'planted-pair', base: { row: 100 } } }),
  ),
  fails(
    'planted-pair rows 1e12',
    'OPTIONS_INVALID',
    study({ synthetic: { generator: 'planted-pair', base: { rows: 1e12 } } }),
  ),
  fails(
    'a factor with no levels',
    'OPTIONS_INVALID',
    study({ synthetic: { generator: 'planted-pair', factors: { bias: [] } } }),
  ),
  fails(
    'a factor level out of range',
    'OPTIONS_INVALID',
    study({ synthetic: { generator: 'planted-pair', factors: { bias: [-3, 40] } } }),
  ),
  fails(
    'generate with maxGroupSize 1.5',
    'OPTIONS_INVALID',
    study({ synthetic: { generator: 'generate', base: { maxGroupSize: 1.5 } } }),
  ),
  fails('real data set "mnist"', 'OPTIONS_INVALID', study({ real: ['mnist'] })),
  fails('a real data set twice', 'OPTIONS_INVALID', study({ real: ['adult', 'adult'] })),
  returns('a valid study fills its defaults', study({}), (s) =>
    unless(
      s.cellTimeoutSeconds === 120 &&
        s.jaccardThreshold === 0.5 &&
        s.models[0].label === 'logistic-regression',
      JSON.stringify(s),
    ),
  ),
  // Beyond the timer limit: valid, and the runner holds the timer at 2^31 - 1 ms (see apps/bench).
  returns('cellTimeoutSeconds 1e7 is valid', study({ cellTimeoutSeconds: 1e7 }), (s) =>
    unless(s.cellTimeoutSeconds === 1e7, 'changed'),
  ),

  fails('loadStudy: no such study', 'OPTIONS_INVALID', () => loadStudy('no-such-study')),
  fails('loadStudy: no such file', 'OPTIONS_INVALID', () => loadStudy(join(dir, 'missing.json'))),
  fails('loadStudy: JSON that does not parse', 'OPTIONS_INVALID', () =>
    loadStudy(file('broken.json', '{"name": "x",')),
  ),
  fails('loadStudy: YAML that does not parse', 'OPTIONS_INVALID', () =>
    loadStudy(file('broken.yaml', 'name: [x\nseeds: 1: 2')),
  ),
  fails('loadStudy: an empty YAML file', 'OPTIONS_INVALID', () => loadStudy(file('empty.yaml', ''))),
  fails('loadStudy: a YAML list', 'OPTIONS_INVALID', () => loadStudy(file('list.yaml', '- name: x\n'))),
  fails('loadStudy: a valid file with a bad field', 'OPTIONS_UNKNOWN', () =>
    loadStudy(file('extra.json', JSON.stringify({ ...good, extra: 1 }))),
  ),
  returns(
    'loadStudy: the shipped smoke study',
    () => loadStudy('smoke'),
    (s) => unless(s.name === 'smoke' && s.methods.length >= 1, s.name),
  ),
  returns(
    'loadStudy: a study file',
    () => loadStudy(file('ok.json', JSON.stringify(good))),
    (s) => unless(s.name === 'corpus', s.name),
  ),
];
