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
 * - `truePerKQueries`: individual, bias-caused pairs per 1,000 distinct inputs charged.
 */
export type Measure = 'localisation' | 'recall' | 'precision' | 'reach' | 'truePerKQueries';

/** The measures of each family, the headline first. */
export const measuresOf: Record<'individual' | 'subgroup', readonly Measure[]> = {
  subgroup: ['localisation', 'recall', 'precision'],
  individual: ['reach', 'truePerKQueries', 'precision', 'recall', 'localisation'],
};

/** Each measure in words, for table headers and text. */
export const measureWords: Record<Measure, string> = {
  localisation: 'localisation',
  recall: 'recall',
  precision: 'precision',
  reach: 'reach',
  truePerKQueries: 'true pairs per 1,000 queries',
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
  },
};

/** A run's value on every measure (null where the measure does not apply or has no findings). */
export function measureValues(score: AuditScore): Record<Measure, number | null> {
  return {
    localisation: score.localisation,
    recall: score.recall,
    precision: score.precision,
    reach: score.reach ?? null,
    truePerKQueries: score.truePerKQueries ?? null,
  };
}
