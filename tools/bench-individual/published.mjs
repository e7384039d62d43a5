// Published census figures of the individual methods, for printing beside this benchmark's own. They
// come from other code, other models and other hardware, with other counting conventions and budgets
// (see the reference notes on individual methods, section 3), so they are context, never ratios.

/** One published cell: discriminatory inputs found and their rate, with its source and setting. */
export const published = [
  // LIMI paper (Xiao et al., ISSTA 2023), Table 1: DNN 64-32-16-8-4-2 on Adult, 1 hour, 1M test-case cap,
  // mean of 5 runs; #D_idi / EGS (IDs per second). One paper, one model, every method but KOSEI and FlipTest.
  ...[
    ['aequitas', [3484, 1.09], [3393, 0.94], [3982, 1.11]],
    ['sg', [1806, 0.5], [2893, 0.8], [14858, 4.13]],
    ['adf', [11540, 3.2], [11827, 3.29], [12078, 3.36]],
    ['expga', [40877, 39.08], [4215, 9.73], [45615, 12.61]],
    ['limi', [86065, 41.71], [132018, 36.67], [148221, 41.17]],
  ].flatMap(([method, sex, race, age]) =>
    [
      ['sex', sex],
      ['race', race],
      ['age', age],
    ].map(([attribute, [dsn, perSecond]]) => ({
      method,
      attribute,
      dsn,
      perSecond,
      source: 'LIMI paper, Table 1 (DNN, 1 h)',
    })),
  ),
  // KOSEI paper (Sano et al., SEKE 2022), Table I: scikit-learn MLPClassifier on census, gender only, 2000
  // global and 2000 x global local iterations, mean of 10 runs on an Apple M1: 369,629.5 discriminatory
  // inputs of 515,406 tested in 609.4 s.
  {
    method: 'kosei',
    attribute: 'sex',
    dsn: 369629.5,
    perSecond: 369629.5 / 609.4,
    source: 'KOSEI paper, Table I (sklearn MLPC, 2000/2000 iterations)',
  },
  // ExpGA paper (Fan et al., ICSE 2022), Table 3: MLP, 1 hour, 30 runs; TSN / DSN / DSS.
  ...[
    ['sex', 141049, 0.03],
    ['race', 30171, 0.12],
    ['age', 29467, 0.12],
  ].map(([attribute, dsn, dss]) => ({
    method: 'expga',
    attribute,
    dsn,
    perSecond: 1 / dss,
    source: 'ExpGA paper, Table 3 (MLP, 1 h; rate = 1 / DSS)',
  })),
  // ADF paper (Zhang et al., ICSE 2020), Table 5: DNN 64-32-16-8-4-2, 500 s; #ID (EGS).
  ...[
    ['sex', 4164, 8.33],
    ['race', 4290, 8.58],
    ['age', 3453, 6.91],
  ].map(([attribute, dsn, perSecond]) => ({
    method: 'adf',
    attribute,
    dsn,
    perSecond,
    source: 'ADF paper, Table 5 (DNN, 500 s)',
  })),
];
