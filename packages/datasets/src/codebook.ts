/**
 * What the codes of each named dataset mean, from its own documentation (`german.doc`, ProPublica's
 * analysis, `adult.names`, `bank-names.txt`), and which rows its loader keeps. A code with no entry is
 * its own label (Adult's and Bank's values are words already).
 */
export type NamedDataset = 'adult' | 'compas' | 'german' | 'bank';

export const NAMED_DATASETS: readonly NamedDataset[] = ['adult', 'compas', 'german', 'bank'];

export interface Codebook {
  readonly dataset: NamedDataset;
  /** The rows the loader keeps, in one sentence (the documented row set). */
  readonly rowSet: string;
  /** Per attribute, the label of each code (`checking_status`: `A11` -> `< 0 DM`). */
  readonly labels: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Per attribute, what it records (German's attributes are numbered in german.doc). */
  readonly descriptions: Readonly<Record<string, string>>;
}

const GERMAN_LABELS: Record<string, Record<string, string>> = {
  checking_status: {
    A11: '< 0 DM',
    A12: '0 to < 200 DM',
    A13: '>= 200 DM or salary assigned',
    A14: 'no checking account',
  },
  credit_history: {
    A30: 'no credits taken or all paid back duly',
    A31: 'all credits at this bank paid back duly',
    A32: 'existing credits paid back duly till now',
    A33: 'delay in paying off in the past',
    A34: 'critical account or other credits elsewhere',
  },
  purpose: {
    A40: 'car (new)',
    A41: 'car (used)',
    A42: 'furniture/equipment',
    A43: 'radio/television',
    A44: 'domestic appliances',
    A45: 'repairs',
    A46: 'education',
    A47: 'vacation',
    A48: 'retraining',
    A49: 'business',
    A410: 'others',
  },
  savings_status: {
    A61: '< 100 DM',
    A62: '100 to < 500 DM',
    A63: '500 to < 1000 DM',
    A64: '>= 1000 DM',
    A65: 'unknown or no savings account',
  },
  employment: {
    A71: 'unemployed',
    A72: '< 1 year',
    A73: '1 to < 4 years',
    A74: '4 to < 7 years',
    A75: '>= 7 years',
  },
  other_debtors: { A101: 'none', A102: 'co-applicant', A103: 'guarantor' },
  property: {
    A121: 'real estate',
    A122: 'building society savings or life insurance',
    A123: 'car or other',
    A124: 'unknown or no property',
  },
  other_installment_plans: { A141: 'bank', A142: 'stores', A143: 'none' },
  housing: { A151: 'rent', A152: 'own', A153: 'for free' },
  job: {
    A171: 'unemployed or unskilled, non-resident',
    A172: 'unskilled, resident',
    A173: 'skilled employee or official',
    A174: 'management, self-employed or highly qualified',
  },
  telephone: { A191: 'none', A192: 'yes, registered' },
  foreign_worker: { A201: 'yes', A202: 'no' },
};

export const CODEBOOKS: Readonly<Record<NamedDataset, Codebook>> = {
  adult: {
    dataset: 'adult',
    rowSet:
      "UCI's adult.data (the training file), all 32,561 rows; a `?` is a missing value (loadAdult with missing: 'keep')",
    labels: {},
    descriptions: {
      fnlwgt: "the census's sampling weight",
      'education-num': 'years of education, one number per education level',
    },
  },
  compas: {
    dataset: 'compas',
    rowSet:
      "ProPublica's compas-scores-two-years.csv after ProPublica's filter (days_b_screening_arrest in [-30, 30], is_recid != -1, c_charge_degree != O, score_text != N/A): 6,172 of 7,214 rows",
    labels: { c_charge_degree: { F: 'felony', M: 'misdemeanour' } },
    descriptions: { age: "age band (ProPublica's age_cat)", c_charge_degree: 'degree of the charge' },
  },
  german: {
    dataset: 'german',
    rowSet:
      'Statlog german.data, all 1,000 rows; sex derived from personal status A9 (A92, A95 female), A9 dropped',
    labels: GERMAN_LABELS,
    descriptions: {
      checking_status: 'status of the existing checking account',
      duration: 'duration in months',
      credit_history: 'credit history',
      purpose: 'purpose of the credit',
      credit_amount: 'credit amount (DM)',
      savings_status: 'savings account or bonds',
      employment: 'present employment since',
      installment_rate: 'instalment rate, % of disposable income',
      other_debtors: 'other debtors or guarantors',
      residence_since: 'present residence since (years)',
      property: 'most valuable property',
      other_installment_plans: 'other instalment plans',
      housing: 'housing',
      existing_credits: 'number of existing credits at this bank',
      job: 'job',
      num_dependents: 'number of people liable to provide maintenance for',
      telephone: 'telephone',
      foreign_worker: 'foreign worker',
    },
  },
  bank: {
    dataset: 'bank',
    rowSet: "UCI's bank-full.csv, all 45,211 rows; `unknown` is a value of its own",
    labels: {},
    descriptions: { pdays: 'days since the last contact of an earlier campaign (-1: never contacted)' },
  },
};

/** The codebook of a named dataset. */
export function codebook(name: NamedDataset): Codebook {
  return CODEBOOKS[name];
}

/** The label of one code of an attribute: its codebook entry, else the code itself. */
export function decodeLabel(book: Codebook, attribute: string, code: string): string {
  const labels = Object.hasOwn(book.labels, attribute) ? book.labels[attribute]! : undefined;
  return labels && Object.hasOwn(labels, code) ? labels[code]! : code;
}
