export {
  ADULT_CATEGORIES,
  ADULT_PROTECTED,
  type AdultAttribute,
  type AdultOptions,
  loadAdult,
} from './adult.js';
export { BANK_CATEGORIES, loadBank } from './bank.js';
export { AGE_BANDS, binAttribute } from './bin.js';
export {
  CODEBOOKS,
  type Codebook,
  codebook,
  decodeLabel,
  NAMED_DATASETS,
  type NamedDataset,
} from './codebook.js';
export type { DatasetMetadata, LoadedDataset } from './columns.js';
export { type CompasDataset, type CompasOptions, loadCompas } from './compas.js';
export { type CsvOptions, type CsvSchema, loadCsv } from './csv-loader.js';
export { parseDelimited } from './delimited.js';
export { loadGerman } from './german.js';
export { type Census13Options, loadBankLiterature, loadCensus13, loadCredit } from './literature.js';
export { defaultCacheDir, type ResolvedSource, resolveSource, type SourceOptions } from './source-file.js';
export { SOURCES, type SourceFile, type SourceId } from './sources.js';
export { extractZipMember } from './zip.js';
