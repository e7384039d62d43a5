import { DataError } from './errors.js';
import type { Condition, DiscriminatoryPair } from './result-types.js';
import { attributeIndex, type Schema, valueLabel } from './schema.js';

/** Number text without float noise (`0.30000000000000004` -> `0.3`). */
function num(v: number): string {
  return String(Number(v.toPrecision(12)));
}

/** The category labels an interval on category codes covers, in order. */
function coveredCategories(categories: readonly string[], c: Extract<Condition, { min: number }>): string[] {
  const out: string[] = [];
  for (let k = 0; k < categories.length; k++) {
    if (k >= c.min && (c.maxInclusive ? k <= c.max : k < c.max)) out.push(categories[k]!);
  }
  return out;
}

function labelSet(name: string, labels: readonly string[]): string {
  if (labels.length === 1) return `${name} = ${labels[0]}`;
  return `${name} in {${labels.join(', ')}}`;
}

/** A set of category labels, or its complement when that is shorter (`country not in {Cuba, Peru}`). */
function categorySet(name: string, categories: readonly string[], codes: readonly number[]): string {
  const inSet = new Set(codes);
  const rest = categories.filter((_, k) => !inSet.has(k));
  if (rest.length > 0 && rest.length < codes.length) {
    return rest.length === 1 ? `${name} != ${rest[0]}` : `${name} not in {${rest.join(', ')}}`;
  }
  return labelSet(
    name,
    codes.map((k) => categories[k] ?? String(k)),
  );
}

/** Sorted numbers with runs of three or more consecutive grid values written `lo..hi`. */
function numberRuns(values: readonly number[], step: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < values.length) {
    let j = i;
    while (j + 1 < values.length && Math.abs(values[j + 1]! - values[j]! - step) < 1e-9 * Math.max(1, step))
      j++;
    if (j - i >= 2) out.push(`${num(values[i]!)}..${num(values[j]!)}`);
    else for (let k = i; k <= j; k++) out.push(num(values[k]!));
    i = j + 1;
  }
  return out;
}

/**
 * One condition in the data's own labels: `education = Masters`, `race in {Black, Other}`,
 * `25 <= age < 45`. Sets are listed in category order, or as their complement when that is shorter
 * (`race != White`); an interval over a labelled (binned or categorical) attribute is listed as the
 * labels it covers; numeric sets write runs of consecutive values as `lo..hi`.
 */
export function describeCondition(schema: Schema, condition: Condition): string {
  if (condition === null || typeof condition !== 'object' || typeof condition.attribute !== 'string') {
    throw new DataError('DATA_SHAPE', 'a condition must be an object with an attribute name');
  }
  const a = schema.attributes[attributeIndex(schema, condition.attribute)]!;
  if ('values' in condition) {
    if (!Array.isArray(condition.values)) {
      throw new DataError('DATA_SHAPE', `the condition on "${a.name}" must list its values in an array`);
    }
    const values = [...new Set(condition.values)].sort((p, q) => p - q);
    if (a.categories) {
      // A code outside the categories has no label: naming it as a number would read as a real value.
      const bad = values.find((v) => !(Number.isInteger(v) && v >= 0 && v < a.categories!.length));
      if (bad !== undefined) {
        throw new DataError(
          'DATA_OUT_OF_DOMAIN',
          `${bad} is not a category code of "${a.name}" (0..${a.categories.length - 1})`,
        );
      }
      return categorySet(a.name, a.categories, values);
    }
    return labelSet(a.name, numberRuns(values, a.step ?? 1));
  }
  if (a.categories) {
    const covered = coveredCategories(a.categories, condition);
    if (covered.length > 0) {
      return categorySet(
        a.name,
        a.categories,
        covered.map((l) => a.categories!.indexOf(l)),
      );
    }
  }
  if (condition.maxInclusive && condition.min === condition.max) return `${a.name} = ${num(condition.min)}`;
  return `${num(condition.min)} <= ${a.name} ${condition.maxInclusive ? '<=' : '<'} ${num(condition.max)}`;
}

/**
 * A subgroup's conjunction in the data's own labels, conditions in schema order joined by `AND`
 * (`education = Masters AND marital-status = Married-civ-spouse`); the empty conjunction is
 * `all rows`. Throws `SchemaError` for a condition on an attribute the schema does not have.
 */
export function describeSubgroup(schema: Schema, conditions: readonly Condition[]): string {
  if (!Array.isArray(conditions)) {
    throw new DataError('DATA_SHAPE', 'a subgroup is an array of conditions (an empty one for all rows)');
  }
  if (conditions.length === 0) return 'all rows';
  const ordered = conditions
    .map((c) => ({ c, j: attributeIndex(schema, c.attribute) }))
    .sort((p, q) => p.j - q.j);
  return ordered.map(({ c }) => describeCondition(schema, c)).join(' AND ');
}

/** A row (schema order) as `{ attribute: label }`, the outcome codes as their labels. */
export function labelRow(schema: Schema, row: ArrayLike<number>): Record<string, string> {
  const d = schema.attributes.length;
  if (row === null || typeof row !== 'object' || row.length !== d) {
    throw new DataError(
      'DATA_SHAPE',
      `a row of this schema has ${d} values, got ${row?.length ?? String(row)}`,
    );
  }
  const out: Record<string, string> = {};
  schema.attributes.forEach((a, j) => {
    const v = row[j]!;
    out[a.name] = a.categories ? valueLabel(a, v) : num(v);
  });
  return out;
}

/** Label of an outcome code (the code itself when out of range). */
export function outcomeLabel(schema: Schema, code: number): string {
  return schema.outcome.labels[code] ?? String(code);
}

/**
 * A discriminatory pair in words: `sex: Female -> Male changes income from <=50K to >50K` over the
 * sample's other labelled values.
 */
export function describePair(schema: Schema, pair: DiscriminatoryPair): string {
  const sample = labelRow(schema, pair.sample);
  const counterfactual = labelRow(schema, pair.counterfactual);
  const changes = schema.attributes
    .filter((a) => sample[a.name] !== counterfactual[a.name])
    .map((a) => `${a.name}: ${sample[a.name]} -> ${counterfactual[a.name]}`);
  return `${changes.join(', ')} changes ${schema.outcome.name} from ${outcomeLabel(schema, pair.sampleOutcome)} to ${outcomeLabel(schema, pair.counterfactualOutcome)}`;
}
