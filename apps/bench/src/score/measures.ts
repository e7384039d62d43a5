import type { AuditScore } from '@fb/eval';

/**
 * The measures a run is scored on (see docs/study-design.md):
 * - `localisation`: subgroup, mean best Jaccard of the top-k findings with the planted subgroups;
 *   individual, share of pairs crossing a planted subgroup in the planted direction;
 * - `recall`: subgroup, share of planted subgroups found (best Jaccard at the threshold); individual,
 *   member coverage (favours methods that start from audited rows);
 * - `precision`: subgroup, share of the top-k findings that match a planted subgroup; individual,
 *   share of pairs the planted bias caused (the model flips, its twin does not);
 * - `reach`: individual, share of planted subgroups in which the run showed a bias-caused pair;
 * - `truePerKQueries`: individual, bias-caused pairs per 1,000 distinct inputs charged;
 * - `reach@1k` ... `truePerKQueries@100k`: individual, the same after the first 1,000, 10,000 and
 *   100,000 distinct queries of the run (its anytime curve; null unless the study lists those
 *   checkpoints in `anytimeQueries`).
 */
/** The anytime measures and the distinct-query checkpoint each reads. */
export const anytimeMeasures = [
  { measure: 'reach@1k', queries: 1000, of: 'reach' },
  { measure: 'reach@10k', queries: 10_000, of: 'reach' },
  { measure: 'truePerKQueries@1k', queries: 1000, of: 'true' },
  { measure: 'truePerKQueries@10k', queries: 10_000, of: 'true' },
  { measure: 'reach@100k', queries: 100_000, of: 'reach' },
  { measure: 'truePerKQueries@100k', queries: 100_000, of: 'true' },
] as const;

type AnytimeMeasure = (typeof anytimeMeasures)[number]['measure'];

export type Measure = 'localisation' | 'recall' | 'precision' | 'reach' | 'truePerKQueries' | AnytimeMeasure;

/** Measures on a scale of counts per 1,000 queries rather than shares. */
export const isRate = (m: Measure): boolean => m.startsWith('truePerKQueries');

/** Each family's headline measure: what its summaries, comparisons and tuning grids read. */
export const headlineMeasure: Record<'individual' | 'subgroup', Measure> = {
  individual: 'truePerKQueries',
  subgroup: 'localisation',
};

/** The measures of each family, the headline first. */
export const measuresOf: Record<'individual' | 'subgroup', readonly Measure[]> = {
  subgroup: ['localisation', 'recall', 'precision'],
  individual: [
    'reach',
    'truePerKQueries',
    'precision',
    'recall',
    'localisation',
    'reach@1k',
    'reach@10k',
    'truePerKQueries@1k',
    'truePerKQueries@10k',
    'reach@100k',
    'truePerKQueries@100k',
  ],
};

/** Each measure in words, for table headers and text. */
export const measureWords: Record<Measure, string> = {
  localisation: 'localisation',
  recall: 'recall',
  precision: 'precision',
  reach: 'reach',
  truePerKQueries: 'true pairs per 1,000 queries',
  'reach@1k': 'reach after 1,000 queries',
  'reach@10k': 'reach after 10,000 queries',
  'truePerKQueries@1k': 'true pairs per 1,000 queries, first 1,000',
  'truePerKQueries@10k': 'true pairs per 1,000 queries, first 10,000',
  'reach@100k': 'reach after 100,000 queries',
  'truePerKQueries@100k': 'true pairs per 1,000 queries, first 100,000',
};

/** What each measure is, per family, for the report. */
export const measureMeaning: Record<'individual' | 'subgroup', Partial<Record<Measure, string>>> = {
  subgroup: {
    localisation: 'mean over planted subgroups of the best Jaccard index among the top-k findings',
    recall: 'share of planted subgroups found (best Jaccard ≥ the threshold)',
    precision: 'share of the top-k findings that match a planted subgroup at the threshold',
  },
  individual: {
    reach: 'share of planted subgroups in which the run showed a pair the planted bias caused',
    truePerKQueries: 'pairs the planted bias caused per 1,000 distinct inputs charged',
    precision:
      'share of reported pairs the planted bias caused (the model flips, the same model trained on the twin’s labels does not)',
    recall:
      'member coverage: share of planted members shown with their exact values (favours row-based methods)',
    localisation: 'share of reported pairs that cross a planted subgroup in the planted direction',
    'reach@1k': 'reach counting only the pairs known after the run’s first 1,000 distinct queries',
    'reach@10k': 'reach counting only the pairs known after the run’s first 10,000 distinct queries',
    'truePerKQueries@1k': 'individuals shown in a true pair within the run’s first 1,000 distinct queries',
    'truePerKQueries@10k':
      'individuals shown in a true pair within the run’s first 10,000 distinct queries, per 1,000',
    'reach@100k': 'reach counting only the pairs known after the run’s first 100,000 distinct queries',
    'truePerKQueries@100k':
      'individuals shown in a true pair within the run’s first 100,000 distinct queries, per 1,000 (a run that ended on its own earlier keeps what it found)',
  },
};

/** A run's value on every measure (null where the measure does not apply or has no findings). */
export function measureValues(score: AuditScore): Record<Measure, number | null> {
  return {
    ...(anytimeValues(score) as Record<AnytimeMeasure, number | null>),
    localisation: score.localisation,
    recall: score.recall,
    precision: score.precision,
    reach: score.reach ?? null,
    truePerKQueries: score.truePerKQueries ?? null,
  };
}

function anytimeValues(score: AuditScore): Partial<Record<Measure, number | null>> {
  const out: Partial<Record<Measure, number | null>> = {};
  for (const a of anytimeMeasures) {
    const p = score.anytime?.find((x) => x.queries === a.queries);
    out[a.measure] = !p ? null : a.of === 'reach' ? p.reach : (1000 * p.trueIndividuals) / p.queries;
  }
  return out;
}
