import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Budget } from '@fb/core';
import { findMethod } from '../methods.js';
import { appPath } from '../paths.js';
import type { MethodEntry, ModelSpec, Question, RealDatasetName, Study } from './config.js';
import { type PhaseRule, sizedByRule } from './phases.js';
import { isFloorCell, questionsOf } from './questions.js';

/** The data of a cell: a synthetic scenario (regenerated from seed and options) or a real data set. */
export type DatasetSpec =
  | {
      kind: 'synthetic';
      label: string;
      generator: 'planted-pair' | 'generate';
      options: Record<string, unknown>;
      /** The factor levels of this scenario (those that shape the rows, for a no-bias twin). */
      factors: Record<string, unknown>;
      null: boolean;
      /** A no-bias twin: the labels of the planted scenarios whose rows and subgroups it shares. */
      twinOf: string[];
      /** Its seeds, when not the study's (the base scenario's and the replication's). */
      seeds?: number[];
    }
  | { kind: 'real'; label: string; name: RealDatasetName };

/** One method configuration: an entry of the study, with one value of a varied option if any. */
export interface Plan {
  label: string;
  /** The study entry's label (equal to `label` unless an option is varied). */
  entry: string;
  method: string;
  options: Record<string, unknown>;
  /** The varied option and its value, for the sensitivity analysis. */
  varied: { option: string; value: unknown } | null;
  /** The method's own budget over the study's, if it has one. */
  budget?: Budget;
  /** Options per question over `options` (a cell's plan has them merged already). */
  byQuestion?: MethodEntry['byQuestion'];
  /** Why the method leaves the ranking, or null (see `MethodEntry.unranked`). */
  unranked: string | null;
  /**
   * A point of the tuning grid (`MethodEntry.tune`): run only on the base scenario's tuning and
   * evaluation seeds, and shown in the tuned table when the tuning seeds choose it. Absent for the
   * plans at the study's options.
   */
  tuned?: { option: string; value: unknown };
  /**
   * A plan at the study's options whose entry has a tuning grid: the grid's default point, run on the
   * tuning seeds too (the grid lists only the other values).
   */
  gridDefault?: true;
  /** This plan's phase rule, over the study's (a tuning grid over `globalShare`). */
  phases?: PhaseRule;
}

/** How a block's data are built and split (what every cell of the block shares). */
export interface BlockSpec {
  dataset: DatasetSpec;
  seed: number;
  question: Question;
  model: ModelSpec;
  /** Share of rows held out for the audit. */
  auditShare: number;
  /**
   * The biased scenarios whose planted subgroups share this data set's rows: a run on data without
   * bias is scored against each of them for the chance level (empty for biased and real data).
   */
  chanceAgainst: Extract<DatasetSpec, { kind: 'synthetic' }>[];
}

/** One unit of work: data set x seed x question x model x method plan, keyed by a hash of all its inputs. */
export interface Cell extends BlockSpec {
  key: string;
  /** A content hash of the block's inputs: every method of a block audits the same model and rows. */
  block: string;
  /** The block in words, for progress and errors. */
  blockLabel: string;
  plan: Plan;
  budget: Budget;
  /** The study's rule sizing individual methods' phases from `budget.maxQueries`, or null. */
  phases: PhaseRule | null;
  /** Distinct-query checkpoints of an individual method's anytime curve. */
  anytimeQueries: number[];
  jaccardThreshold: number;
  topK: number;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex').slice(0, 32);
}

export type SyntheticSpec = Extract<DatasetSpec, { kind: 'synthetic' }>;

/** The same scenario without planted bias (the no-bias twin: same rows, same subgroups). */
export function withoutBias(spec: SyntheticSpec): SyntheticSpec {
  const none = spec.generator === 'planted-pair' ? { bias: 0 } : { minBias: 0, maxBias: 0 };
  return { ...spec, options: { ...spec.options, ...none }, null: true };
}

/**
 * What a data set's rows depend on, as a content hash with its seed: a synthetic scenario's generator
 * and options without the bias (the bias sets labels only, so a scenario, its other bias levels and its
 * no-bias twin draw the same rows on a seed), a real data set's name.
 */
export function rowsKey(spec: DatasetSpec, seed: number): string {
  if (spec.kind === 'real') return contentHash([spec.name, seed]);
  const unbiased = withoutBias(spec);
  return contentHash([unbiased.generator, unbiased.options, seed]);
}

const require = createRequire(import.meta.url);
const benchPackage = JSON.parse(readFileSync(appPath('package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

interface Manifest {
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** The installed version of `dep` as found from `dir` (Node's lookup), else its declared range. */
function installedVersion(dep: string, dir: string, declared: string): string {
  for (let d = dir; ; d = dirname(d)) {
    const file = join(d, 'node_modules', dep, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as Manifest).version;
    if (dirname(d) === d) return declared;
  }
}

/**
 * Version and a hash of the code a package runs, so that a code change invalidates its cells: its own
 * build, the code versions of the workspace packages it depends on (dependencies and peers,
 * transitively: a detector's cells follow a change in a shared scan or model package), and the
 * installed versions of its other dependencies. `from` resolves the package (the bench's own require
 * by default).
 */
export function codeVersion(pkg: string, from: NodeJS.Require = require, path: string[] = []): string {
  if (path.includes(pkg)) throw new Error(`workspace dependency cycle: ${[...path, pkg].join(' -> ')}`);
  const manifestPath = from.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const own = builtCodeHash(dirname(from.resolve(pkg)));
  const deps = { ...manifest.dependencies, ...manifest.peerDependencies };
  if (Object.keys(deps).length === 0) return `${manifest.version}+${own}`;
  const ownRequire = createRequire(manifestPath);
  const hash = createHash('sha256').update(own);
  for (const dep of Object.keys(deps).sort()) {
    const version = dep.startsWith('@fb/')
      ? codeVersion(dep, ownRequire, [...path, pkg])
      : installedVersion(dep, dirname(manifestPath), deps[dep]!);
    hash.update(`\u0000${dep}@${version}`);
  }
  return `${manifest.version}+${hash.digest('hex').slice(0, 12)}`;
}

/**
 * A hash of every .js file in a package's build directory (its entry, and the shared chunks and thread
 * entries a bundler writes beside it, which a hash of the entry alone would miss).
 */
export function builtCodeHash(dir: string): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort()) {
    hash
      .update(`${file}\u0000`)
      .update(readFileSync(join(dir, file)))
      .update('\u0000');
  }
  return hash.digest('hex').slice(0, 12);
}

let methodPackages: Map<string, string> | null = null;

/** The workspace package that exports each registered method id. */
async function methodPackageOf(id: string): Promise<string> {
  if (!methodPackages) {
    methodPackages = new Map();
    for (const pkg of Object.keys(benchPackage.dependencies)) {
      if (!/^@fb\/((individual|subgroup)-|baselines$)/.test(pkg)) continue;
      const mod = (await import(pkg)) as Record<string, unknown>;
      for (const v of Object.values(mod)) {
        const d = v as { id?: unknown; run?: unknown } | null;
        if (d && typeof d.id === 'string' && typeof d.run === 'function') methodPackages.set(d.id, pkg);
      }
    }
  }
  const pkg = methodPackages.get(id);
  if (!pkg) throw new Error(`no workspace package exports method "${id}"`);
  return pkg;
}

/** Versions of the packages every cell depends on. */
export function sharedCodeVersions(): Record<string, string> {
  return Object.fromEntries(
    ['@fb/core', '@fb/synth', '@fb/models', '@fb/eval', '@fb/baselines'].map((p) => [p, codeVersion(p)]),
  );
}

/** The option sets one method entry expands to: its options, or one per value of each varied option. */
export function planOptions(m: MethodEntry): Record<string, unknown>[] {
  if (!m.vary || Object.keys(m.vary).length === 0) return [m.options];
  return Object.entries(m.vary).flatMap(([name, values]) => values.map((v) => ({ ...m.options, [name]: v })));
}

/** The plan labels of one study entry, in order. */
export function planLabels(entry: MethodEntry): string[] {
  return plansOf(entry).map((p) => p.label);
}

/** The pseudo-option of a tuning grid that sets the phase rule's share instead of a method option. */
export const GLOBAL_SHARE = 'globalShare';

/** The plans of an entry's tuning grid: one per value of each tuned option. */
function tuningPlans(
  entry: MethodEntry,
  own: Omit<Plan, 'label' | 'entry' | 'method' | 'options' | 'varied'>,
): Plan[] {
  return Object.entries(entry.tune ?? {}).flatMap(([option, values]) =>
    values.map((value) => ({
      ...own,
      label: `${entry.label} [${option}=${String(value)}]`,
      entry: entry.label,
      method: entry.method,
      options: option === GLOBAL_SHARE ? entry.options : { ...entry.options, [option]: value },
      varied: null,
      tuned: { option, value },
      ...(option === GLOBAL_SHARE ? { phases: { globalShare: value as number } } : {}),
    })),
  );
}

function plansOf(entry: MethodEntry): Plan[] {
  const grid = tuningPlans(entry, ownOf(entry));
  const own = studyPlansOf(entry);
  return [...(grid.length ? own.map((p) => ({ ...p, gridDefault: true as const })) : own), ...grid];
}

function ownOf(entry: MethodEntry) {
  return {
    ...(entry.budget ? { budget: entry.budget } : {}),
    ...(entry.byQuestion ? { byQuestion: entry.byQuestion } : {}),
    unranked: entry.unranked ?? null,
  };
}

function studyPlansOf(entry: MethodEntry): Plan[] {
  const variants = planOptions(entry);
  const own = ownOf(entry);
  if (!entry.vary || Object.keys(entry.vary).length === 0) {
    return [
      {
        label: entry.label,
        entry: entry.label,
        method: entry.method,
        options: entry.options,
        varied: null,
        ...own,
      },
    ];
  }
  const varied = Object.entries(entry.vary).flatMap(([option, values]) =>
    values.map((value) => ({ option, value })),
  );
  return variants.map((options, i) => ({
    label: `${entry.label} (${varied[i]!.option}=${String(varied[i]!.value)})`,
    entry: entry.label,
    method: entry.method,
    options,
    varied: varied[i]!,
    ...own,
  }));
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A factor level is one option value, or an object of several options set together (e.g. a bias range). */
function levelLabel(v: unknown): string {
  if (isPlainObject(v)) {
    // A range set by a min/max pair of options reads `0.5–1`.
    const keys = Object.keys(v);
    if (
      keys.length === 2 &&
      keys[0]!.startsWith('min') &&
      keys[1] === `max${keys[0]!.slice(3)}` &&
      !isPlainObject(v[keys[0]!])
    ) {
      return `${levelLabel(v[keys[0]!])}–${levelLabel(v[keys[1]!])}`;
    }
    return Object.entries(v)
      .map(([k, x]) => `${k}:${levelLabel(x)}`)
      .join(' ');
  }
  // Nested values (arrays, objects) are labelled by their content, never `[object Object]`.
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function scenarioLabel(factors: Record<string, unknown>): string {
  return Object.entries(factors)
    .map(([k, v]) => {
      // A level that sets one option is named by that option: `source=adult`, not `data=source:adult`;
      // one that sets a data source and more is named by the source, the rest in parentheses.
      const entries = isPlainObject(v) ? Object.entries(v) : [];
      if (entries.length === 1) return `${entries[0]![0]}=${levelLabel(entries[0]![1])}`;
      // A level that sets the option the factor is named after, and others with it: `rows=20000
      // (minGroupSize=330, maxGroupSize=1670)`.
      const own = entries.find(([name]) => name === k);
      if (own && !isPlainObject(own[1]) && !entries.some(([name]) => name === 'source')) {
        const rest = entries.filter(([name]) => name !== k);
        return `${k}=${levelLabel(own[1])} (${rest.map(([n, x]) => `${n}=${levelLabel(x)}`).join(', ')})`;
      }
      const source = entries.find(([name]) => name === 'source');
      if (source) {
        const rest = entries.filter(([name]) => name !== 'source');
        return `source=${levelLabel(source[1])} (${rest.map(([n, x]) => `${n}=${levelLabel(x)}`).join(', ')})`;
      }
      return `${k}=${levelLabel(v)}`;
    })
    .join(', ');
}

/** Generator options of a scenario: the base, then each factor's level (object levels spread). */
function scenarioOptions(
  base: Record<string, unknown>,
  factors: Record<string, unknown>,
): Record<string, unknown> {
  const options = { ...base };
  for (const [k, v] of Object.entries(factors)) {
    if (isPlainObject(v)) Object.assign(options, v);
    else options[k] = v;
  }
  return options;
}

/**
 * The factor levels of every scenario, each a full assignment in the factors' order: the crossed
 * factors' product, times the one-at-a-time variations (all at their first level, then each other
 * level of one factor alone).
 */
export function scenarioGrid(
  factors: Record<string, unknown[]>,
  oneAtATime: readonly string[],
): Record<string, unknown>[] {
  const single = new Set(oneAtATime);
  const variations: Record<string, unknown>[] = [{}];
  for (const name of oneAtATime) {
    const levels = factors[name] ?? [];
    for (const v of variations) v[name] = levels[0];
    for (const level of levels.slice(1)) {
      variations.push({ ...Object.fromEntries(oneAtATime.map((n) => [n, factors[n]![0]])), [name]: level });
    }
  }
  let grid: Record<string, unknown>[] = [{}];
  for (const [name, levels] of Object.entries(factors)) {
    if (single.has(name)) continue;
    grid = grid.flatMap((g) => levels.map((v) => ({ ...g, [name]: v })));
  }
  const order = Object.keys(factors);
  return grid.flatMap((g) =>
    variations.map((v) => Object.fromEntries(order.map((n) => [n, n in g ? g[n] : v[n]]))),
  );
}

/** The label of the base scenario run again on the replication's seeds. */
export const REPLICATION_LABEL = 'base (replication)';

/** The label of the base scenario on the tuning seeds. */
export const TUNING_LABEL = 'base (tuning)';

/**
 * The data sets of a study: the factor grid (the base scenario on `synthetic.baseSeeds` when set),
 * the base scenario's replication, the no-bias twins, then the real data sets.
 */
export function datasetsOf(study: Study): DatasetSpec[] {
  const out: DatasetSpec[] = [];
  let tuningSet: DatasetSpec | null = null;
  const syn = study.synthetic;
  if (syn) {
    // A one-at-a-time factor at its first (base) level is left out of the label.
    const atBase = (factors: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(factors).filter(
          ([k, v]) => !(syn.oneAtATime ?? []).includes(k) || v !== syn.factors[k]![0],
        ),
      );
    for (const factors of scenarioGrid(syn.factors, syn.oneAtATime ?? [])) {
      const shown = atBase(factors);
      const base = Object.keys(shown).length === 0;
      out.push({
        kind: 'synthetic',
        label: base ? 'base' : scenarioLabel(shown),
        generator: syn.generator,
        options: scenarioOptions(syn.base, factors),
        factors,
        null: false,
        twinOf: [],
        ...(base && syn.baseSeeds ? { seeds: syn.baseSeeds } : {}),
      });
    }
    // The base scenario again on fresh seeds: a replication analysed on its own.
    const first = out[0];
    if (study.replication && first?.kind === 'synthetic' && first.label === 'base') {
      out.push({ ...first, label: REPLICATION_LABEL, seeds: study.replication.seeds });
    }
    // And on the tuning seeds, which only choose each tuning grid's point (no twin: the choice reads
    // the excess over the floors).
    if (study.tuning && first?.kind === 'synthetic' && first.label === 'base') {
      tuningSet = { ...first, label: TUNING_LABEL, seeds: study.tuning.seeds };
    }
    if (syn.unbiased) {
      // Each scenario's no-bias twin: its options with the bias removed, so that it shares the
      // scenario's rows and subgroups. Scenarios that differ only in their bias share one twin; a
      // replication has a twin of its own, on its own seeds.
      const twins = new Map<string, Extract<DatasetSpec, { kind: 'synthetic' }>>();
      for (const scenario of [...out]) {
        if (scenario.kind !== 'synthetic') continue;
        const options = { ...scenario.options, ...syn.unbiased };
        const replication = scenario.label === REPLICATION_LABEL;
        const key = contentHash({ options, replication });
        const seeds = scenario.seeds ?? study.seeds;
        const twin = twins.get(key);
        if (twin) {
          twin.twinOf.push(scenario.label);
          // A twin serves every seed of the scenarios it twins.
          twin.seeds = [...new Set([...(twin.seeds ?? study.seeds), ...seeds])].sort((a, b) => a - b);
        } else {
          twins.set(key, {
            kind: 'synthetic',
            label: replication ? 'no bias (replication)' : 'no bias',
            generator: syn.generator,
            options,
            factors: {},
            null: true,
            twinOf: [scenario.label],
            seeds,
          });
        }
      }
      // Twins on the study's own seeds need no list of their own.
      for (const t of twins.values()) {
        if (t.seeds && t.seeds.join() === study.seeds.join()) delete t.seeds;
      }
      // Several twins (factors that shape the rows): each is named after those factors' levels, the
      // factors that set only what `unbiased` removes (the bias) left out.
      if (twins.size > 1) {
        const removed = new Set(Object.keys(syn.unbiased));
        const biasOnly = (k: string) =>
          removed.has(k) ||
          syn.factors[k]!.every((l) => isPlainObject(l) && Object.keys(l).every((x) => removed.has(x)));
        for (const t of twins.values()) {
          if (t.label !== 'no bias') continue;
          const first = out.find((d) => d.label === t.twinOf[0]) as Extract<
            DatasetSpec,
            { kind: 'synthetic' }
          >;
          const rows = Object.fromEntries(
            Object.entries(atBase(first.factors)).filter(([k]) => !biasOnly(k)),
          );
          t.label = Object.keys(rows).length ? `no bias (${scenarioLabel(rows)})` : 'no bias';
        }
      }
      out.push(...twins.values());
    }
    if (tuningSet) out.push(tuningSet);
  }
  for (const name of study.real) out.push({ kind: 'real', label: name, name });
  return out;
}

/**
 * The models a question audits: the reference model it needs, or the trained models and controls.
 * Real data have no η, so there the only control is the protected-blind model.
 */
export function modelsOf(study: Study, question: Question, real = false): ModelSpec[] {
  if (question === 'data') {
    const references: ModelSpec[] = [
      { label: 'blind logistic regression', kind: 'blind', options: {} },
      { label: 'σ(η)', kind: 'oracle', options: {} },
    ];
    return references.filter((m) => study.dataReferences.includes(m.kind as 'blind' | 'oracle'));
  }
  if (question === 'model-output') return [{ label: 'σ(η + β)', kind: 'shifted', options: {} }];
  const controls: ModelSpec[] = study.controls
    .filter((c) => !real || c === 'blind')
    .map((c) =>
      c === 'oracle'
        ? { label: 'σ(η) (control)', kind: 'oracle', options: {} }
        : { label: 'blind logistic regression (control)', kind: 'blind', options: {} },
    );
  return [...study.models, ...controls];
}

/**
 * The questions asked on a synthetic data set: every one on the base scenario (its replication,
 * tuning seeds) and where `study.factorQuestions` says nothing; on a factor's other levels the ones it
 * lists; on a no-bias twin those of every scenario it is the twin of (in the study's order).
 */
function questionsOn(study: Study, dataset: DatasetSpec, all: readonly DatasetSpec[]): Question[] {
  if (!study.factorQuestions || dataset.kind !== 'synthetic') return study.questions;
  const base = (label: string) => label === 'base' || label === REPLICATION_LABEL || label === TUNING_LABEL;
  const baseLevels = all.find((x) => x.label === 'base');
  const of = (label: string): readonly Question[] => {
    const d = all.find((x) => x.label === label);
    if (base(label) || !d || d.kind !== 'synthetic' || baseLevels?.kind !== 'synthetic')
      return study.questions;
    // The factor this scenario moves away from the base's level.
    const moved = Object.keys(d.factors).filter(
      (f) => canonical(d.factors[f]) !== canonical(baseLevels.factors[f]) && study.factorQuestions![f],
    );
    const asked = new Set(moved.flatMap((f) => study.factorQuestions![f]!));
    return moved.length ? study.questions.filter((q) => asked.has(q)) : study.questions;
  };
  const asked = new Set(dataset.null ? dataset.twinOf.flatMap((l) => of(l)) : of(dataset.label));
  return study.questions.filter((q) => asked.has(q));
}

/**
 * Whether a model question's trained model is audited on a data set: every one on the base scenario
 * (its replication, tuning seeds and twin) and on real data; on the other scenarios and their twins
 * only `study.factorModels`, when set.
 */
function auditedOn(study: Study, dataset: DatasetSpec, model: ModelSpec): boolean {
  if (!study.factorModels || dataset.kind === 'real' || !study.models.includes(model)) return true;
  const base = (label: string) => label === 'base' || label === REPLICATION_LABEL || label === TUNING_LABEL;
  const onBase = dataset.null ? dataset.twinOf.some(base) : base(dataset.label);
  return onBase || study.factorModels.includes(model.label);
}

/** Models that give input gradients (`scoreGradient`), which white-box methods need. */
const DIFFERENTIABLE: ReadonlySet<string> = new Set(['logistic-regression', 'linear-svm', 'mlp']);

export function differentiable(model: ModelSpec): boolean {
  return DIFFERENTIABLE.has(model.kind);
}

/** The block's inputs that decide its data and model (never its labels). */
export function blockInputs(b: BlockSpec): unknown {
  return {
    dataset:
      b.dataset.kind === 'real'
        ? { real: b.dataset.name }
        : { generator: b.dataset.generator, options: b.dataset.options },
    seed: b.seed,
    question: b.question,
    model: { kind: b.model.kind, options: b.model.options },
    auditShare: b.auditShare,
    chanceAgainst: b.chanceAgainst.map((d) => ({ generator: d.generator, options: d.options })),
  };
}

/** Expand a study into its cells, in a stable order (data set, seed, question, model, plan). */
export async function expandCells(study: Study): Promise<Cell[]> {
  const shared = sharedCodeVersions();
  const methodVersions = new Map<string, string>();
  for (const m of new Set(study.methods.map((e) => e.method))) {
    findMethod(m);
    methodVersions.set(m, codeVersion(await methodPackageOf(m)));
  }
  const cells: Cell[] = [];
  const plans = study.methods.flatMap(plansOf);
  const datasets = datasetsOf(study);
  const biased = datasets.filter(
    (d): d is Extract<DatasetSpec, { kind: 'synthetic' }> => d.kind === 'synthetic' && !d.null,
  );
  for (const dataset of datasets) {
    // Real data have no planted bias: only the trained models are audited there.
    const questions: Question[] = dataset.kind === 'real' ? ['model'] : questionsOn(study, dataset, datasets);
    const seeds = dataset.kind === 'real' ? (study.realSeeds ?? study.seeds) : (dataset.seeds ?? study.seeds);
    for (const seed of seeds) {
      for (const question of questions) {
        for (const model of modelsOf(study, question, dataset.kind === 'real').filter((m) =>
          auditedOn(study, dataset, m),
        )) {
          const spec: BlockSpec = {
            dataset,
            seed,
            question,
            model,
            auditShare: study.auditShare,
            chanceAgainst:
              dataset.kind === 'synthetic' && dataset.null
                ? biased.filter((b) => dataset.twinOf.includes(b.label))
                : [],
          };
          const block = contentHash(blockInputs(spec));
          const blockLabel = `${dataset.label} / seed ${seed} / ${question} / ${model.label}`;
          for (const entryPlan of plans) {
            if (!questionsOf(entryPlan.method).includes(question)) continue;
            // Tuning grids run on the base scenario's evaluation and tuning seeds only; the study's
            // plans everywhere but on the tuning seeds.
            // (The per-value scan, a floor of other methods' cells, runs on the tuning seeds too.)
            const onTuning = dataset.label === TUNING_LABEL;
            // On the base scenario a grid runs on the study's seeds, not on the base's extra ones.
            if (
              entryPlan.tuned
                ? !onTuning && (dataset.label !== 'base' || !study.seeds.includes(seed))
                : onTuning && !isFloorCell(entryPlan.method) && !entryPlan.gridDefault
            )
              continue;
            // An individual method on the twin of the model-output question audits σ(η), which never
            // flips: nothing there can react to the bias (see analyse/skill.ts).
            if (
              question === 'model-output' &&
              dataset.kind === 'synthetic' &&
              dataset.null &&
              findMethod(entryPlan.method).kind === 'individual'
            )
              continue;
            const extra = entryPlan.byQuestion?.[question];
            const plan = extra ? { ...entryPlan, options: { ...entryPlan.options, ...extra } } : entryPlan;
            // A white-box method needs input gradients, which only some trained models give.
            if (findMethod(plan.method).access === 'white-box' && !differentiable(model)) continue;
            const budget: Budget = { ...study.budget, ...plan.budget };
            const phases = sizedByRule(plan.method) ? (plan.phases ?? study.phases) : null;
            const inputs = {
              block: blockInputs(spec),
              // Labels are part of a cell: two plans with the same options are still two cells.
              labels: { plan: plan.label, model: model.label, dataset: dataset.label },
              method: { id: plan.method, options: plan.options, code: methodVersions.get(plan.method) },
              budget,
              // Set only when used, so that studies without them keep their cells.
              ...(phases ? { phases } : {}),
              scoring: {
                jaccardThreshold: study.jaccardThreshold,
                topK: study.topK,
                ...(study.anytimeQueries.length ? { anytimeQueries: study.anytimeQueries } : {}),
              },
              code: shared,
            };
            cells.push({
              ...spec,
              key: contentHash(inputs),
              block,
              blockLabel,
              plan,
              budget,
              phases,
              anytimeQueries: study.anytimeQueries,
              jaccardThreshold: study.jaccardThreshold,
              topK: study.topK,
            });
          }
        }
      }
    }
  }
  const seen = new Set<string>();
  for (const c of cells) {
    if (seen.has(c.key))
      throw new Error(`two cells of the study have the same inputs: ${c.blockLabel} / ${c.plan.label}`);
    seen.add(c.key);
  }
  return cells;
}
