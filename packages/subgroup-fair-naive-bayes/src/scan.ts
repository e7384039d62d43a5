import { type Dataset, isDiscrete, SchemaError, type SubgroupFinding, type SubgroupScan } from '@fb/core';
import type { Options } from './options.js';

/** The rows taking one value of a protected attribute. */
interface Group {
  attribute: string;
  value: number;
  /** Index of the value among its column's values. */
  code: number;
  size: number;
  /** Favourable outcomes inside the group. */
  favourable: number;
  gap: number;
  /** Permutations whose gap was at least as large in magnitude. */
  exceed: number;
}

/** A protected column: each row's value code and the groups tested on it. */
interface Column {
  codes: Int32Array;
  counts: Int32Array;
  groups: Group[];
}

/** Favourable-rate gap between a group (`inside` favourable of `size` rows) and the other rows. */
function gapOf(inside: number, size: number, favourable: number, n: number): number {
  return inside / size - (favourable - inside) / (n - size);
}

function protectedColumns(
  dataset: Dataset,
  outcome: Uint8Array,
  favourable: number,
  minSize: number,
): Column[] {
  const { n, d, x, schema } = dataset;
  const columns: Column[] = [];
  schema.attributes.forEach((a, j) => {
    if (!a.protected) return;
    if (!isDiscrete(a)) {
      throw new SchemaError(
        'SCHEMA_BAD_DOMAIN',
        `protected attribute "${a.name}" is continuous: bin it (or give it a step) first`,
        { attribute: a.name },
      );
    }
    const values = [...new Set(Array.from({ length: n }, (_, i) => x[i * d + j]!))].sort((p, q) => p - q);
    const codeOf = new Map(values.map((v, k) => [v, k]));
    const codes = new Int32Array(n);
    const sizes = new Int32Array(values.length);
    const inside = new Int32Array(values.length);
    for (let i = 0; i < n; i++) {
      const k = codeOf.get(x[i * d + j]!)!;
      codes[i] = k;
      sizes[k]!++;
      inside[k]! += outcome[i]!;
    }
    const groups: Group[] = [];
    values.forEach((value, code) => {
      const size = sizes[code]!;
      if (size < minSize || n - size < minSize) return;
      const gap = gapOf(inside[code]!, size, favourable, n);
      groups.push({ attribute: a.name, value, code, size, favourable: inside[code]!, gap, exceed: 0 });
    });
    if (groups.length > 0) columns.push({ codes, counts: new Int32Array(values.length), groups });
  });
  return columns;
}

/**
 * Placeholder scan, to be replaced by the paper's algorithm: for every value of every protected
 * attribute, the favourable-rate gap between the rows taking it and all other rows, with a two-sided
 * permutation p-value (outcomes shuffled with the run's seeded generator).
 */
export async function favourableRateGaps({
  dataset,
  options,
  ctl,
}: SubgroupScan<Options>): Promise<{ subgroups: SubgroupFinding[]; extras: Record<string, unknown> }> {
  const { n, y, schema } = dataset;
  const outcome = new Uint8Array(n);
  let favourable = 0;
  for (let i = 0; i < n; i++) favourable += outcome[i] = y[i] === schema.outcome.favorable ? 1 : 0;
  const columns = protectedColumns(dataset, outcome, favourable, options.minSize);

  const permuted = outcome.slice();
  const rng = ctl.rng.fork('permutation');
  let done = 0;
  while (done < options.permutations && columns.length > 0) {
    if (await ctl.checkpoint({ phase: 'permutation', done, total: options.permutations })) break;
    rng.shuffle(permuted);
    for (const { codes, counts, groups } of columns) {
      counts.fill(0);
      for (let i = 0; i < n; i++) counts[codes[i]!]! += permuted[i]!;
      for (const g of groups) {
        // The tolerance lets gaps equal in exact arithmetic count as reaching the observed one.
        if (Math.abs(gapOf(counts[g.code]!, g.size, favourable, n)) >= Math.abs(g.gap) - 1e-12) g.exceed++;
      }
    }
    done++;
  }

  const found: Omit<SubgroupFinding, 'rank'>[] = [];
  for (const g of columns.flatMap((c) => c.groups)) {
    const pValue = options.permutations > 0 ? (1 + g.exceed) / (1 + done) : null;
    if (g.gap === 0 || (pValue !== null && pValue > options.alpha)) continue;
    found.push({
      conditions: [{ attribute: g.attribute, values: [g.value] }],
      size: g.size,
      score: Math.abs(g.gap),
      effect: g.gap,
      pValue,
      direction: g.gap < 0 ? 'lower' : 'higher',
      details: { rateInside: g.favourable / g.size, rateOutside: (favourable - g.favourable) / (n - g.size) },
    });
  }
  found.sort((p, q) => q.score - p.score);
  return {
    subgroups: found.map((s, k) => ({ ...s, rank: k + 1 })),
    extras: { permutations: done, groupsTested: columns.reduce((acc, c) => acc + c.groups.length, 0) },
  };
}
