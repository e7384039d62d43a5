import { type Attribute, createDataset, DataError, resolveOptions, type Schema } from '@fb/core';
import { pick } from './adult.js';
import { categoryCoder, type LoadedDataset, numberCell, withMetadata } from './columns.js';
import { headerIndex, parseDelimited } from './delimited.js';
import { COMPAS_OPTIONS } from './options.js';
import { resolveSource, type SourceOptions } from './source-file.js';
import { SOURCES } from './sources.js';

export interface CompasOptions extends SourceOptions {
  /** `all` six race values (default) or `black-white`: African-American and Caucasian rows only. */
  race?: 'all' | 'black-white';
}

/** COMPAS with the tool's own scores, row-aligned with the dataset, for auditing COMPAS itself. */
export interface CompasDataset extends LoadedDataset {
  /** COMPAS recidivism decile 1..10. */
  readonly decileScore: Int32Array;
  /** COMPAS's prediction as usually read: 1 (recidivism predicted) when the decile is >= 5, i.e. score_text != Low. */
  readonly compasPrediction: Int32Array;
}

export const COMPAS_CITATION =
  'J. Larson, S. Mattu, L. Kirchner and J. Angwin, "How We Analyzed the COMPAS Recidivism Algorithm", ProPublica, 23 May 2016';

const RACES = ['African-American', 'Caucasian', 'Hispanic', 'Other', 'Asian', 'Native American'];
const AGE_CATS = ['Less than 25', '25 - 45', 'Greater than 45'];

/**
 * ProPublica's compas-scores-two-years.csv (7,214 rows; CRLF; `decile_score` and `priors_count`
 * appear twice, the first copy is read) after ProPublica's filter: days_b_screening_arrest in
 * [-30, 30], is_recid != -1, c_charge_degree != O, score_text != N/A (6,172 rows). Protected:
 * race, sex, age (age_cat's three bands). Outcome `two_year_recid`: 0 = no (favourable), 1 = yes.
 * Names and dates of birth are never read into the dataset.
 */
export async function loadCompas(given: CompasOptions = {}): Promise<CompasDataset> {
  const options = resolveOptions<CompasOptions>(COMPAS_OPTIONS, given);
  const resolved = await resolveSource(SOURCES.compas, options);
  const [header, ...rows] = parseDelimited(resolved.text, ',');
  const index = headerIndex(header ?? []);
  const col = (name: string): number => {
    const i = index.get(name);
    if (i === undefined)
      throw new DataError('DATA_MISSING_COLUMN', `${resolved.path}: no column "${name}"`, {
        attribute: name,
      });
    return i;
  };
  const attributes: Attribute[] = [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['Female', 'Male'] },
    { name: 'age', kind: 'ordinal', protected: true, categories: AGE_CATS },
    {
      name: 'race',
      kind: 'categorical',
      protected: true,
      categories: options.race === 'black-white' ? RACES.slice(0, 2) : RACES,
    },
    { name: 'juv_fel_count', kind: 'ordinal', protected: false, min: 0, max: 20 },
    { name: 'juv_misd_count', kind: 'ordinal', protected: false, min: 0, max: 13 },
    { name: 'juv_other_count', kind: 'ordinal', protected: false, min: 0, max: 17 },
    { name: 'priors_count', kind: 'ordinal', protected: false, min: 0, max: 38 },
    { name: 'c_charge_degree', kind: 'categorical', protected: false, categories: ['F', 'M'] },
  ];
  const sourceColumns = [
    'sex',
    'age_cat',
    'race',
    'juv_fel_count',
    'juv_misd_count',
    'juv_other_count',
    'priors_count',
    'c_charge_degree',
  ];
  const positions = sourceColumns.map(col);
  const [days, isRecid, degree, scoreText, decile, label] = [
    'days_b_screening_arrest',
    'is_recid',
    'c_charge_degree',
    'score_text',
    'decile_score',
    'two_year_recid',
  ].map(col) as [number, number, number, number, number, number];
  const schema: Schema = {
    attributes,
    outcome: { name: 'two_year_recid', labels: ['no', 'yes'], favorable: 0 },
  };
  const d = attributes.length;
  const coders = attributes.map((a, j) =>
    a.categories ? categoryCoder(sourceColumns[j]!, a.categories) : null,
  );
  const x = new Float64Array(rows.length * d);
  const y = new Int32Array(rows.length);
  const scores = new Int32Array(rows.length);
  let n = 0;
  let filtered = 0;
  let otherRace = 0;
  for (let r = 0; r < rows.length; r++) {
    const cells = rows[r]!;
    const line = r + 2;
    if (cells.length !== header!.length) {
      throw new DataError(
        'DATA_SHAPE',
        `${resolved.path} line ${line}: ${cells.length} fields, the header has ${header!.length}`,
        {
          row: line,
        },
      );
    }
    const gap = cells[days]!.trim() === '' ? Number.NaN : Number(cells[days]);
    // ProPublica's filter; a missing day gap fails the range test, as in their R code.
    if (
      !(gap >= -30 && gap <= 30) ||
      cells[isRecid] === '-1' ||
      cells[degree] === 'O' ||
      cells[scoreText] === 'N/A'
    ) {
      filtered++;
      continue;
    }
    if (options.race === 'black-white' && !RACES.slice(0, 2).includes(cells[positions[2]!]!)) {
      otherRace++;
      continue;
    }
    for (let j = 0; j < d; j++) {
      const cell = cells[positions[j]!]!;
      const coder = coders[j];
      x[n * d + j] = coder ? coder(cell, line) : numberCell(sourceColumns[j]!, cell, line);
    }
    const outcome = cells[label];
    if (outcome !== '0' && outcome !== '1') {
      throw new DataError(
        'DATA_UNKNOWN_CATEGORY',
        `line ${line}: two_year_recid "${outcome}" is not 0 or 1`,
        {
          attribute: 'two_year_recid',
          row: line,
        },
      );
    }
    y[n] = Number(outcome);
    scores[n] = numberCell('decile_score', cells[decile]!, line);
    n++;
  }
  const ds = createDataset({ schema, x: x.slice(0, n * d), y: y.slice(0, n), name: 'compas' });
  const decileScore = scores.slice(0, n);
  const loaded = withMetadata(ds, {
    source: [{ file: SOURCES.compas.file, ...pick(resolved) }],
    citation: COMPAS_CITATION,
    rowsRead: rows.length,
    rowsDropped: {
      'ProPublica filter': filtered,
      ...(options.race === 'black-white' ? { 'race not African-American or Caucasian': otherRace } : {}),
    },
    protected: ['sex', 'age', 'race'],
    encoding: [
      'ProPublica filter: days_b_screening_arrest in [-30, 30], is_recid != -1, c_charge_degree != O, score_text != N/A',
      'age: age_cat bands Less than 25 < 25 - 45 < Greater than 45',
      'two_year_recid: 0 = no recidivism (favourable), 1 = recidivism',
      "decileScore and compasPrediction (decile >= 5) carry COMPAS's own scores",
    ],
  });
  return Object.freeze({
    ...loaded,
    decileScore,
    compasPrediction: Int32Array.from(decileScore, (s) => (s >= 5 ? 1 : 0)),
  });
}
