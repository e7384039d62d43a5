/**
 * The original files each loader reads, where their publishers serve them, and the SHA-256 of the
 * uncompressed bytes (the table of `shared/datasets/README.md`). A file is used only after its
 * checksum matches.
 */
export interface SourceFile {
  /** Sub-directory of a data directory (the layout of the reference copies). */
  readonly dir: string;
  readonly file: string;
  readonly sha256: string;
  readonly bytes: number;
  /** Where the original publisher serves it (or the archive holding it). */
  readonly url: string;
  /** Set when `url` is a zip archive: its checksum and the member to extract. */
  readonly archive?: { readonly sha256: string; readonly member: string };
}

const UCI = 'https://archive.ics.uci.edu/ml/machine-learning-databases';

export const SOURCES = {
  adultTrain: {
    dir: 'adult',
    file: 'adult.data',
    sha256: '5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d',
    bytes: 3974305,
    url: `${UCI}/adult/adult.data`,
  },
  adultTest: {
    dir: 'adult',
    file: 'adult.test',
    sha256: 'a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05',
    bytes: 2003153,
    url: `${UCI}/adult/adult.test`,
  },
  german: {
    dir: 'german-credit',
    file: 'german.data',
    sha256: 'b21f3d81db8071257d5ff1deaeba1fd4303b62712e6fcc9715c7a86202cb5871',
    bytes: 79793,
    url: `${UCI}/statlog/german/german.data`,
  },
  bank: {
    dir: 'bank-marketing',
    file: 'bank-full.csv',
    sha256: 'd1513ec63b385506f7cfce9f2c5caa9fe99e7ba4e8c3fa264b3aaf0f849ed32d',
    bytes: 4610348,
    url: `${UCI}/00222/bank.zip`,
    archive: {
      sha256: '99d7e8eb12401ed278b793984423915411ea8df099e1795f9fefe254f513fe5e',
      member: 'bank-full.csv',
    },
  },
  compas: {
    dir: 'compas',
    file: 'compas-scores-two-years.csv',
    sha256: 'c451db85908b2f7fef1d83203bedf6b71ecda0d5af468d82ae62178f91d0cc7d',
    bytes: 2546489,
    url: 'https://raw.githubusercontent.com/propublica/compas-analysis/bafff5da3f2e45eca6c2d5055faad269defd135a/compas-scores-two-years.csv',
  },
} as const satisfies Record<string, SourceFile>;

export type SourceId = keyof typeof SOURCES;
