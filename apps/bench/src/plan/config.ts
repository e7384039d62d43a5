import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { OptionsError, type OptionsSchema, resolveOptions } from '@fb/core';
import * as synth from '@fb/synth';
import { parse as parseYaml } from 'yaml';
import { methodRegistry } from '../methods.js';
import { appPath } from '../paths.js';
import { contentHash, datasetsOf, GLOBAL_SHARE, planLabels, planOptions } from './cells.js';
import { type PhaseRule, sizedByRule } from './phases.js';

/** A registered method with its options; `vary` turns one entry into one plan per option value. */
export interface MethodEntry {
  label: string;
  method: string;
  options: Record<string, unknown>;
  /** Sensitivity: option name -> values tried, one plan per value (the others from `options`). */
  vary?: Record<string, unknown[]>;
  /** This method's budget, over the study's (e.g. fewer tested samples for a slow solver). */
  budget?: StudyBudget;
  /**
   * Options set per question, over `options`: a method with variants for different questions (CBS's
   * scan type) runs the one that answers the question asked.
   */
  byQuestion?: Partial<Record<Question, Record<string, unknown>>>;
  /**
   * Why the method leaves the ranking, when it answers a different question than the one scored
   * (e.g. it returns a linear-threshold group, not a conjunction): its rows are shown with this note,
   * outside the tests between methods. Null: ranked.
   */
  unranked: string | null;
  /**
   * The tuning grid: option -> values, each a plan run on the base scenario's tuning and evaluation
   * seeds; the tuning seeds choose one per entry for the tuned table. `globalShare` sets the phase
   * rule's share instead of an option.
   */
  tune?: Record<string, unknown[]>;
}

export type StudyBudget = { maxSeconds?: number; maxTested?: number; maxQueries?: number; maxPairs?: number };

export type ModelKind = 'logistic-regression' | 'decision-tree' | 'random-forest' | 'linear-svm' | 'mlp';

/**
 * Models the study builds itself rather than trains as configured:
 * - `oracle`: the generator's bias-free model σ(η) (it cannot hold any planted bias);
 * - `blind`: a logistic regression trained without the protected attributes (it cannot treat two
 *   inputs that differ only in protected values differently);
 * - `shifted`: σ(η + β), the planted bias moved from the labels into the model's log-odds.
 */
export type ReferenceModelKind = 'oracle' | 'blind' | 'shifted';

export interface ModelSpec {
  label: string;
  kind: ModelKind | ReferenceModelKind;
  /** Options passed to the model's fit function (e.g. `{ l2: 1 }`). */
  options: Record<string, unknown>;
}

/** Where the planted bias lives in a cell: see `Question` in @fb/eval and docs/study-design.md. */
export type Question = 'data' | 'model' | 'model-output';

export type RealDatasetName = 'adult' | 'compas' | 'german' | 'bank';

export const REAL_DATASETS: readonly RealDatasetName[] = ['adult', 'compas', 'german', 'bank'];

export interface Study {
  name: string;
  description: string;
  seeds: number[];
  synthetic: {
    /** Which generator of `@fb/synth`: the planted pair, or the full four-phase generator. */
    generator: 'planted-pair' | 'generate';
    /** Generator options shared by every scenario. */
    base: Record<string, unknown>;
    /**
     * The factors to vary: name -> levels; scenarios are their Cartesian product. A level is the value
     * of the generator option of that name, or an object of options set together (e.g. a bias range).
     */
    factors: Record<string, unknown[]>;
    /**
     * Factors varied one at a time: each level other than its first, with every other such factor at
     * its first level (crossed with the remaining factors). Empty: every factor is crossed.
     */
    oneAtATime: string[];
    /** Generator options that make a data set without injected bias (for false-positive rates); null for none. */
    unbiased: Record<string, unknown> | null;
    /** Seeds of the base scenario and its twin, when it gets more than the others (null: `seeds`). */
    baseSeeds: number[] | null;
  } | null;
  /** The base scenario run again on fresh seeds and analysed on its own (null: none). */
  replication: { seeds: number[] } | null;
  /** Seeds of the base scenario on which the tuning grids are chosen (null: no tuned table). */
  tuning: { seeds: number[] } | null;
  /** Real data sets run alongside (no ground truth: metrics and agreement only). */
  real: RealDatasetName[];
  /** The questions asked (default: all three); see docs/study-design.md. */
  questions: Question[];
  /** Models audited in the model-discrimination question: each is trained on the training split. */
  models: ModelSpec[];
  /** Reference models of the data question: the protected-blind model, σ(η), or both (default). */
  dataReferences: ('blind' | 'oracle')[];
  /** Seeds of the real data sets (null: `seeds`). */
  realSeeds: number[] | null;
  /**
   * Labels of the trained models audited on the scenarios other than the base (null: all of them):
   * the factors are studied on fewer models than the headline.
   */
  factorModels: string[] | null;
  /**
   * Per factor, the questions asked on its levels other than the base (and on their no-bias twins);
   * a factor not listed, and the base scenario, its replication and its tuning seeds, get every question.
   */
  factorQuestions: Record<string, Question[]> | null;
  /** Control models audited beside them in the model question (`oracle`, `blind`). */
  controls: ('oracle' | 'blind')[];
  /** Share of each data set's rows held out for the audit (the rest trains the models). */
  auditShare: number;
  /** Findings of a subgroup method inspected per run (best of the top k). */
  topK: number;
  methods: MethodEntry[];
  budget: StudyBudget;
  /**
   * How individual methods' phases are sized from the query budget (`plan/phases.ts`); null: by their
   * own options.
   */
  phases: PhaseRule | null;
  /** Distinct-query checkpoints of the individual methods' anytime curves ([] for none). */
  anytimeQueries: number[];
  /** Worker threads (default: the number of cores). */
  workers: number | null;
  /** A cell still running after this many seconds is stopped and recorded as failed. */
  cellTimeoutSeconds: number;
  /** Jaccard index from which a subgroup finding hits an injected subgroup. */
  jaccardThreshold: number;
}

const record = (description: string): Record<string, unknown> & { description: string } => ({
  type: 'object',
  description,
});

/** A list of seeds, optionally absent (null) where the study's `seeds` apply. */
const seedList = (description: string, nullable = false) => ({
  type: nullable ? ['array', 'null'] : 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'integer', minimum: 0 },
  ...(nullable ? { default: null } : {}),
  description,
});

/** A set of fresh seeds of the base scenario (the replication's, the tuning's), or null for none. */
const seedSet = (seeds: string, description: string) => ({
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['seeds'],
  properties: { seeds: seedList(seeds) },
  default: null,
  description,
});

const budgetSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    maxSeconds: { type: 'number', exclusiveMinimum: 0 },
    maxTested: { type: 'integer', minimum: 1 },
    maxQueries: { type: 'integer', minimum: 1 },
    maxPairs: { type: 'integer', minimum: 1 },
  },
};

/** JSON Schema of a study file; ajv (through @fb/core) fills the defaults and names the field at fault. */
export const studySchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'seeds', 'models', 'methods', 'budget'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', description: 'study name (results/<name>)' },
    description: { type: 'string', default: '', description: 'one paragraph for the report' },
    seeds: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'integer', minimum: 0 },
      description: 'seeds: each regenerates the data, the model and the method run',
    },
    synthetic: {
      type: ['object', 'null'],
      description: 'synthetic scenarios, or null for real data only',
      default: null,
      additionalProperties: false,
      required: ['generator'],
      properties: {
        generator: { enum: ['planted-pair', 'generate'], description: 'generator of @fb/synth' },
        base: { ...record('generator options of every scenario'), default: {} },
        factors: {
          ...record('option -> levels, crossed into scenarios'),
          default: {},
          additionalProperties: { type: 'array', minItems: 1 },
        },
        oneAtATime: {
          type: 'array',
          default: [],
          uniqueItems: true,
          items: { type: 'string' },
          description:
            'factors varied one at a time from their first level (the others stay crossed); [] crosses every factor',
        },
        unbiased: {
          type: ['object', 'null'],
          description: 'options of the no-bias scenario (null: none)',
          default: null,
        },
        baseSeeds: seedList('seeds of the base scenario and its twin (null: seeds)', true),
      },
    },
    replication: seedSet(
      'fresh seeds, none of which the study uses elsewhere',
      'the base scenario again on fresh seeds, analysed on its own (null: none)',
    ),
    tuning: seedSet(
      'seeds of the base scenario that choose each tuning grid point, used nowhere else',
      'the tuning seeds of the tuned table (null: none)',
    ),
    real: {
      type: 'array',
      default: [],
      uniqueItems: true,
      items: { enum: ['adult', 'compas', 'german', 'bank'] },
      description: 'real data sets (need @fb/datasets and FB_DATA_DIR or a download)',
    },
    questions: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { enum: ['data', 'model', 'model-output'] },
      default: ['data', 'model', 'model-output'],
      description: 'where the planted bias lives: labels, a trained model, or a model output only',
    },
    dataReferences: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { enum: ['blind', 'oracle'] },
      default: ['blind', 'oracle'],
      description: 'reference models of the data question: the protected-blind model and/or σ(η)',
    },
    factorModels: {
      type: ['array', 'null'],
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', minLength: 1 },
      default: null,
      description: 'labels of the trained models audited on the scenarios other than the base (null: all)',
    },
    factorQuestions: {
      type: ['object', 'null'],
      additionalProperties: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { enum: ['data', 'model', 'model-output'] },
      },
      default: null,
      description:
        'per factor, the questions asked on its levels other than the base and on their twins (a factor not listed, and null: every question)',
    },
    realSeeds: seedList('seeds of the real data sets (null: seeds)', true),
    controls: {
      type: 'array',
      uniqueItems: true,
      items: { enum: ['oracle', 'blind'] },
      default: [],
      description: 'control models audited beside the trained ones in the model question',
    },
    auditShare: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      default: 0.5,
      description: 'share of rows held out for the audit; the rest trains the models',
    },
    topK: {
      type: 'integer',
      minimum: 1,
      default: 5,
      description: 'findings of a subgroup method inspected per run (best of the top k)',
    },
    models: {
      type: 'array',
      minItems: 1,
      description:
        'models under audit; each is trained once per data set and seed and shared by every method',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind'],
        properties: {
          label: { type: 'string', minLength: 1 },
          kind: { enum: ['logistic-regression', 'decision-tree', 'random-forest', 'linear-svm', 'mlp'] },
          options: { type: 'object', default: {} },
        },
      },
    },
    methods: {
      type: 'array',
      minItems: 1,
      description: 'methods by registered id, with options',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['label', 'method'],
        properties: {
          label: { type: 'string', minLength: 1 },
          method: { type: 'string', minLength: 1 },
          options: { type: 'object', default: {} },
          vary: { type: 'object', additionalProperties: { type: 'array', minItems: 1 } },
          budget: { ...budgetSchema, description: "this method's budget, over the study's" },
          byQuestion: {
            type: 'object',
            additionalProperties: false,
            properties: Object.fromEntries(
              ['data', 'model', 'model-output'].map((q) => [q, { type: 'object' }]),
            ),
            description: 'options per question, over options',
          },
          tune: {
            type: 'object',
            additionalProperties: { type: 'array', minItems: 2 },
            description: 'tuning grid: option -> values, chosen on the tuning seeds',
          },
          unranked: {
            type: ['string', 'null'],
            minLength: 1,
            default: null,
            description: 'why the method leaves the ranking (it answers a different question); null: ranked',
          },
        },
      },
    },
    budget: { ...budgetSchema, minProperties: 1, description: 'budget of each method run' },
    phases: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['globalShare'],
      properties: { globalShare: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 } },
      default: null,
      description:
        "individual methods' starting-point phase gets at most this share of budget.maxQueries (null: their own options)",
    },
    anytimeQueries: {
      type: 'array',
      uniqueItems: true,
      items: { type: 'integer', minimum: 1 },
      default: [],
      description: "distinct-query checkpoints of the individual methods' anytime curves",
    },
    workers: {
      type: ['integer', 'null'],
      minimum: 1,
      default: null,
      description: 'worker threads (null: one per core)',
    },
    cellTimeoutSeconds: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 120,
      description: 'a cell running longer is stopped and recorded as failed',
    },
    jaccardThreshold: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.5,
      description: 'Jaccard index from which a subgroup finding hits an injected subgroup',
    },
  },
};

type SchemaNode = {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: unknown;
  items?: SchemaNode;
};

/** The first property the schema does not allow, as a JSON pointer with the allowed names. */
function findUnknown(
  schema: SchemaNode,
  value: unknown,
  path: string,
): { at: string; known: string[] } | null {
  if (Array.isArray(value)) {
    if (!schema.items) return null;
    for (let i = 0; i < value.length; i++) {
      const found = findUnknown(schema.items, value[i], `${path}/${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object' || !schema.properties) return null;
  const known = Object.keys(schema.properties);
  for (const [k, v] of Object.entries(value)) {
    const sub = schema.properties[k];
    if (!sub) {
      if (schema.additionalProperties === false) return { at: `${path}/${k}`, known };
      continue;
    }
    const found = findUnknown(sub, v, `${path}/${k}`);
    if (found) return found;
  }
  return null;
}

const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The path of the first own key named `__proto__`, `constructor` or `prototype` anywhere in a parsed
 * file (YAML and JSON parsers keep them as own keys; spread into options they would be dropped or
 * change an object's prototype), or null.
 */
function prototypeKey(value: unknown, path: string): string | null {
  if (value === null || typeof value !== 'object') return null;
  for (const k of Object.keys(value)) {
    const at = `${path}/${k}`;
    if (PROTOTYPE_KEYS.has(k)) return at;
    const found = prototypeKey((value as Record<string, unknown>)[k], at);
    if (found) return found;
  }
  return null;
}

/** Validate a parsed study, fill defaults and check what the schema cannot (method ids, options). */
export function validateStudy(value: unknown, source = 'study'): Study {
  const unknown = findUnknown(studySchema as SchemaNode, value, '');
  if (unknown) {
    throw new OptionsError(
      'OPTIONS_UNKNOWN',
      `${source}: ${unknown.at}: unknown field (allowed: ${unknown.known.join(', ')})`,
      { option: unknown.at },
    );
  }
  const forbidden = prototypeKey(value, '');
  if (forbidden) {
    throw new OptionsError(
      'OPTIONS_UNKNOWN',
      `${source}: ${forbidden}: a key named like an object's prototype is not a study field or option`,
      { option: forbidden },
    );
  }
  let study: Study;
  try {
    study = resolveOptions<Study>(studySchema, value);
  } catch (e) {
    if (e instanceof OptionsError) {
      throw new OptionsError(e.code, `${source}: ${e.message.replace(/^invalid options: /, '')}`, e.details);
    }
    throw e;
  }
  const labels = new Set<string>();
  const resolvedPlans = new Map<string, string>();
  study.methods.forEach((m, i) => {
    const at = `/methods/${i}`;
    const detector = methodRegistry.find((d) => d.id === m.method);
    if (!detector) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `${source}: ${at}/method: unknown method "${m.method}" (registered: ${methodRegistry.map((d) => d.id).join(', ')})`,
        { option: `${at}/method` },
      );
    }
    if (labels.has(m.label)) {
      throw new OptionsError('OPTIONS_INVALID', `${source}: ${at}/label: duplicate label "${m.label}"`, {
        option: `${at}/label`,
      });
    }
    labels.add(m.label);
    planOptions(m).forEach((options, k) => {
      const resolve = (opts: Record<string, unknown>, where: string): unknown => {
        try {
          return detector.resolveOptions(opts);
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          throw new OptionsError('OPTIONS_INVALID', `${source}: ${at}/${where}: ${message}`, {
            option: `${at}/${where}`,
          });
        }
      };
      const resolved = resolve(options, 'options');
      const perQuestion = Object.entries(m.byQuestion ?? {}).map(([q, extra]) => [
        q,
        resolve({ ...options, ...extra }, `byQuestion/${q}`),
      ]);
      // Two plans that run the same method with the same options (defaults filled in) and budget do
      // the same work twice.
      const same = contentHash({
        method: m.method,
        resolved,
        perQuestion,
        budget: { ...study.budget, ...m.budget },
      });
      const label = planLabels(m)[k]!;
      const earlier = resolvedPlans.get(same);
      if (earlier !== undefined) {
        throw new OptionsError(
          'OPTIONS_INVALID',
          `${source}: ${at}: plan "${label}" runs the same method, options and budget as "${earlier}"`,
          { option: at },
        );
      }
      resolvedPlans.set(same, label);
    });
  });
  if (study.phases && study.budget.maxQueries === undefined) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `${source}: /phases: the rule shares out budget.maxQueries, which the study does not set`,
      { option: '/phases' },
    );
  }
  // The replication's and the tuning's seeds are fresh: used by no other data set.
  const used = new Set([...study.seeds, ...(study.synthetic?.baseSeeds ?? [])]);
  for (const [name, set] of [
    ['replication', study.replication],
    ['tuning', study.tuning],
  ] as const) {
    if (!set) continue;
    const reused = set.seeds.filter((s) => used.has(s));
    if (!study.synthetic || reused.length) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        !study.synthetic
          ? `${source}: /${name}: it reruns the synthetic base scenario, which the study lacks`
          : `${source}: /${name}/seeds: ${name} needs fresh seeds; ${reused.join(', ')} already used`,
        { option: `/${name}` },
      );
    }
    for (const s of set.seeds) used.add(s);
  }
  study.methods.forEach((m, i) => {
    checkTuning(m, study, `${source}: /methods/${i}`);
  });
  const modelLabels = new Set<string>();
  study.models.forEach((m, i) => {
    m.label ??= study.models.length > 1 ? `${m.kind}#${i}` : m.kind;
    if (modelLabels.has(m.label)) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `${source}: /models/${i}/label: duplicate label "${m.label}"`,
        {
          option: `/models/${i}/label`,
        },
      );
    }
    modelLabels.add(m.label);
  });
  for (const label of study.factorModels ?? []) {
    if (!study.models.some((m) => m.label === label)) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `${source}: /factorModels: "${label}" is not the label of a model (${study.models.map((m) => m.label).join(', ')})`,
        { option: '/factorModels' },
      );
    }
  }
  for (const [name, qs] of Object.entries(study.factorQuestions ?? {})) {
    if (!study.synthetic || !(name in study.synthetic.factors)) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `${source}: /factorQuestions: "${name}" is not a factor (${Object.keys(study.synthetic?.factors ?? {}).join(', ')})`,
        { option: '/factorQuestions' },
      );
    }
    const asked = qs.filter((q) => !study.questions.includes(q));
    if (asked.length) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `${source}: /factorQuestions/${name}: ${asked.join(', ')} not among the study's questions (${study.questions.join(', ')})`,
        { option: `/factorQuestions/${name}` },
      );
    }
  }
  for (const name of study.synthetic?.oneAtATime ?? []) {
    if (!(name in study.synthetic!.factors)) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `${source}: /synthetic/oneAtATime: "${name}" is not a factor (${Object.keys(study.synthetic!.factors).join(', ')})`,
        { option: '/synthetic/oneAtATime' },
      );
    }
  }
  // Two levels with the same options (in whatever key order) would run the same data twice as two
  // scenarios.
  for (const [name, levels] of Object.entries(study.synthetic?.factors ?? {})) {
    const seen = new Map<string, number>();
    levels.forEach((level, i) => {
      const h = contentHash(level);
      const j = seen.get(h);
      if (j !== undefined) {
        throw new OptionsError(
          'OPTIONS_INVALID',
          `${source}: /synthetic/factors/${name}/${i}: the same level as /synthetic/factors/${name}/${j}`,
          { option: `/synthetic/factors/${name}/${i}` },
        );
      }
      seen.set(h, i);
    });
  }
  const datasets = datasetsOf(study);
  if (
    (study.replication || study.tuning || study.synthetic?.baseSeeds) &&
    !datasets.some((d) => d.label === 'base')
  ) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `${source}: /synthetic: baseSeeds, replication and tuning need a base scenario (factors varied one at a time, oneAtATime)`,
      { option: '/synthetic' },
    );
  }
  for (const d of datasets) {
    if (d.kind !== 'synthetic') continue;
    try {
      if (d.generator === 'planted-pair') resolveOptions(synth.plantedPairOptionsSchema, d.options);
      else {
        // Semi-synthetic: `source` names a real data set whose copula the generator fits.
        const source = d.options['source'];
        if (typeof source === 'string' && !REAL_DATASETS.includes(source as RealDatasetName)) {
          throw new Error(`source: "${source}" is not a real data set (${REAL_DATASETS.join(', ')})`);
        }
        synth.resolveSynthOptions({ ...d.options, ...(typeof source === 'string' ? { source: null } : {}) });
      }
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      throw new OptionsError('OPTIONS_INVALID', `${source}: /synthetic: scenario "${d.label}": ${message}`, {
        option: '/synthetic',
      });
    }
  }
  return study;
}

/** A method's tuning grid: only with tuning seeds, never beside `vary`, every value one it accepts. */
function checkTuning(m: MethodEntry, study: Study, at: string): void {
  if (!m.tune) return;
  const fail = (message: string): never => {
    throw new OptionsError('OPTIONS_INVALID', `${at}/tune: ${message}`, { option: `${at}/tune` });
  };
  if (!study.tuning) fail('a tuning grid needs tuning seeds (/tuning)');
  if (m.vary) fail('a method varies its options (vary) or tunes them (tune), not both');
  const detector = methodRegistry.find((d) => d.id === m.method)!;
  for (const [option, values] of Object.entries(m.tune)) {
    for (const value of values) {
      if (option === GLOBAL_SHARE) {
        if (!study.phases || !sizedByRule(m.method))
          fail(`${GLOBAL_SHARE} tunes the phase rule (/phases), which does not size ${m.method}`);
        if (typeof value !== 'number' || !(value > 0 && value < 1))
          fail(`${GLOBAL_SHARE} ${String(value)} is not a share in (0, 1)`);
        continue;
      }
      try {
        detector.resolveOptions({ ...m.options, [option]: value });
      } catch (e) {
        fail(`${option} = ${String(value)}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
}

/** Directory of the study files shipped with the app. */
export const studiesDir = appPath('studies/');

/** Load a study by name (from `studies/`) or from a JSON or YAML file path. */
export function loadStudy(nameOrPath: string): Study {
  const candidates = [
    nameOrPath,
    ...['.yaml', '.yml', '.json'].map((ext) => resolve(studiesDir, nameOrPath + ext)),
  ];
  const path = candidates.find((p) => extname(p) !== '' && existsSync(p));
  if (!path) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `no study "${nameOrPath}" (a name in ${studiesDir} or a file)`,
      {
        option: '/study',
      },
    );
  }
  if (!statSync(path).isFile()) {
    throw new OptionsError('OPTIONS_INVALID', `${path}: not a file (a study is a JSON or YAML file)`, {
      option: '/study',
    });
  }
  const text = readFileSync(path, 'utf8');
  let parsed: unknown;
  try {
    parsed = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `${path}: not valid ${extname(path).slice(1)}: ${(e as Error).message}`,
    );
  }
  return validateStudy(parsed, path);
}
