// The generator benchmarks' data sets (bench/perf.mjs, bench/versus.mjs).

// 1,000,000 rows x 20 attributes, 500 pairs: ~900,000 subgroup rows (1,600-2,000 per pair) + 10% background.
// Background rows lie outside all 1,000 subgroups, so the subgroups are specific (5-7 defining
// attributes, values drawn uniformly): about 23% of the population is then outside every subgroup.
export const largeOptions = {
  seed: 1,
  attributes: 20,
  pairs: 500,
  valueSampling: 'uniform',
  minIntersectionality: 2,
  minGranularity: 3,
  maxGranularity: 4,
  minGroupSize: 1600,
  maxGroupSize: 2000,
  backgroundShare: 0.1,
};

// 10,119 rows: 5 pairs of the same kind (~9,000 subgroup rows + 10% background), defaults otherwise (the
// 10-member epistemic ensemble included).
export const smallOptions = { ...largeOptions, pairs: 5 };
