import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Budget } from '@fb/core';
import type { MethodEntry, ModelSpec, RealDatasetName, Study } from './config.js';
import { findMethod } from './methods.js';

/** The data of a cell: a synthetic scenario (regenerated from seed and options) or a real data set. */
export type DatasetSpec =
  | {
      kind: 'synthetic';
      label: string;
      generator: 'planted-pair' | 'generate';
      options: Record<string, unknown>;
      /** The factor levels of this scenario (empty for the no-bias scenario). */
      factors: Record<string, unknown>;
      null: boolean;
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
}

/** One unit of work: data set x seed x model x method plan, keyed by a hash of all its inputs. */
export interface Cell {
  key: string;
  /** Data set, seed and model: every method of a block audits the same model. */
  block: string;
  dataset: DatasetSpec;
  seed: number;
  model: ModelSpec;
  plan: Plan;
  budget: Budget;
  jaccardThreshold: number;
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

const require = createRequire(import.meta.url);
const benchPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** Version and a hash of the built code of a package, so a code change invalidates its cells. */
export function codeVersion(pkg: string): string {
  const { version } = require(`${pkg}/package.json`) as { version: string };
  const code = readFileSync(require.resolve(pkg));
  return `${version}+${createHash('sha256').update(code).digest('hex').slice(0, 12)}`;
}

let methodPackages: Map<string, string> | null = null;

/** The workspace package that exports each registered method id. */
async function methodPackageOf(id: string): Promise<string> {
  if (!methodPackages) {
    methodPackages = new Map();
    for (const pkg of Object.keys(benchPackage.dependencies)) {
      if (!/^@fb\/(individual|subgroup)-/.test(pkg)) continue;
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
    ['@fb/core', '@fb/synth', '@fb/models', '@fb/eval'].map((p) => [p, codeVersion(p)]),
  );
}

/** The option sets one method entry expands to: its options, or one per value of each varied option. */
export function planOptions(m: MethodEntry): Record<string, unknown>[] {
  if (!m.vary || Object.keys(m.vary).length === 0) return [m.options];
  return Object.entries(m.vary).flatMap(([name, values]) => values.map((v) => ({ ...m.options, [name]: v })));
}

function plansOf(entry: MethodEntry): Plan[] {
  const variants = planOptions(entry);
  if (!entry.vary || Object.keys(entry.vary).length === 0) {
    return [
      { label: entry.label, entry: entry.label, method: entry.method, options: entry.options, varied: null },
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
  }));
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A factor level is one option value, or an object of several options set together (e.g. a bias range). */
function levelLabel(v: unknown): string {
  return isPlainObject(v)
    ? Object.entries(v)
        .map(([k, x]) => `${k}:${String(x)}`)
        .join(' ')
    : String(v);
}

function scenarioLabel(factors: Record<string, unknown>): string {
  return Object.entries(factors)
    .map(([k, v]) => `${k}=${levelLabel(v)}`)
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

/** The data sets of a study: the factor grid, the no-bias scenario, then the real data sets. */
export function datasetsOf(study: Study): DatasetSpec[] {
  const out: DatasetSpec[] = [];
  const syn = study.synthetic;
  if (syn) {
    let grid: Record<string, unknown>[] = [{}];
    for (const [name, levels] of Object.entries(syn.factors)) {
      grid = grid.flatMap((g) => levels.map((v) => ({ ...g, [name]: v })));
    }
    for (const factors of grid) {
      out.push({
        kind: 'synthetic',
        label: Object.keys(factors).length ? scenarioLabel(factors) : 'base',
        generator: syn.generator,
        options: scenarioOptions(syn.base, factors),
        factors,
        null: false,
      });
    }
    if (syn.unbiased) {
      out.push({
        kind: 'synthetic',
        label: 'no bias',
        generator: syn.generator,
        options: { ...syn.base, ...syn.unbiased },
        factors: {},
        null: true,
      });
    }
  }
  for (const name of study.real) out.push({ kind: 'real', label: name, name });
  return out;
}

/** Expand a study into its cells, in a stable order (data set, seed, model, plan). */
export async function expandCells(study: Study): Promise<Cell[]> {
  const shared = sharedCodeVersions();
  const methodVersions = new Map<string, string>();
  for (const m of new Set(study.methods.map((e) => e.method))) {
    findMethod(m);
    methodVersions.set(m, codeVersion(await methodPackageOf(m)));
  }
  const cells: Cell[] = [];
  const plans = study.methods.flatMap(plansOf);
  for (const dataset of datasetsOf(study)) {
    for (const seed of study.seeds) {
      for (const model of study.models) {
        const block = `${dataset.label} / seed ${seed} / ${model.label}`;
        for (const plan of plans) {
          const inputs = {
            dataset:
              dataset.kind === 'real'
                ? { real: dataset.name }
                : { generator: dataset.generator, options: dataset.options },
            seed,
            model: { kind: model.kind, options: model.options },
            method: { id: plan.method, options: plan.options, code: methodVersions.get(plan.method) },
            budget: study.budget,
            jaccardThreshold: study.jaccardThreshold,
            code: shared,
          };
          cells.push({
            key: contentHash(inputs),
            block,
            dataset,
            seed,
            model,
            plan,
            budget: study.budget,
            jaccardThreshold: study.jaccardThreshold,
          });
        }
      }
    }
  }
  return cells;
}
