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

/**
 * One condition in the data's own labels: `education = Masters`, `race in {Black, Other}`,
 * `25 <= age < 45`. Sets are listed in category order; an interval over a labelled (binned or
 * categorical) attribute is listed as the labels it covers.
 */
export function describeCondition(schema: Schema, condition: Condition): string {
  const a = schema.attributes[attributeIndex(schema, condition.attribute)]!;
  if ('values' in condition) {
    const values = [...new Set(condition.values)].sort((p, q) => p - q);
    return labelSet(
      a.name,
      values.map((v) => (a.categories ? valueLabel(a, v) : num(v))),
    );
  }
  if (a.categories) {
    const covered = coveredCategories(a.categories, condition);
    if (covered.length > 0) return labelSet(a.name, covered);
  }
  return `${num(condition.min)} <= ${a.name} ${condition.maxInclusive ? '<=' : '<'} ${num(condition.max)}`;
}

/**
 * A subgroup's conjunction in the data's own labels, conditions in schema order joined by `AND`
 * (`education = Masters AND marital-status = Married-civ-spouse`); the empty conjunction is
 * `all rows`. Throws `SchemaError` for a condition on an attribute the schema does not have.
 */
export function describeSubgroup(schema: Schema, conditions: readonly Condition[]): string {
  if (conditions.length === 0) return 'all rows';
  const ordered = conditions
    .map((c) => ({ c, j: attributeIndex(schema, c.attribute) }))
    .sort((p, q) => p.j - q.j);
  return ordered.map(({ c }) => describeCondition(schema, c)).join(' AND ');
}

/** A row (schema order) as `{ attribute: label }`, the outcome codes as their labels. */
export function labelRow(schema: Schema, row: ArrayLike<number>): Record<string, string> {
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
