import type { Dataset } from '@fb/core';
import {
  type Codebook,
  codebook,
  decodeLabel,
  type LoadedDataset,
  loadAdult,
  loadBank,
  loadCompas,
  loadGerman,
  NAMED_DATASETS,
  type NamedDataset,
} from '@fb/datasets';
import type { SchemaFile } from './data.js';
import { UsageError } from './errors.js';

/** A named dataset read through @fb/datasets, decoded with its codebook, as rows of labels. */
export interface NamedTable {
  readonly name: NamedDataset;
  /** `adult.data`, `german.data`, ...: the verified original file(s). */
  readonly file: string;
  readonly header: string[];
  readonly rows: string[][];
  readonly outcome: string;
  readonly favourable: string;
  readonly protected: string[];
  /** Kinds and category orders (decoded, in the documentation's order) to read the rows with. */
  readonly schemaFile: SchemaFile;
  readonly codebook: Codebook;
  /** Where each file came from and its verified SHA-256. */
  readonly provenance: string[];
}

export function isNamedDataset(name: string): name is NamedDataset {
  return (NAMED_DATASETS as readonly string[]).includes(name);
}

/**
 * Load `--dataset name` from `dataDir` (else `FB_DATA_DIR`, else the user cache, downloading a missing
 * file from its publisher; every file's SHA-256 is verified) and decode its codes.
 */
export async function loadNamedTable(name: string, dataDir?: string): Promise<NamedTable> {
  if (!isNamedDataset(name)) {
    throw new UsageError(`--dataset: "${name}" is not a named dataset (${NAMED_DATASETS.join(', ')})`, {
      option: '--dataset',
    });
  }
  const options = dataDir ? { dataDir } : {};
  let loaded: LoadedDataset;
  if (name === 'adult') loaded = await loadAdult({ ...options, split: 'train', missing: 'keep' });
  else if (name === 'compas') loaded = await loadCompas(options);
  else if (name === 'german') loaded = await loadGerman(options);
  else loaded = await loadBank(options);
  const book = codebook(name);
  return { ...decodedRows(loaded, book, name === 'adult' ? '?' : null), name, codebook: book };
}

/** The dataset as rows of decoded labels (numbers as they are); `missingCode` becomes an empty cell. */
export function decodedRows(
  ds: LoadedDataset | Dataset,
  book: Codebook,
  missingCode: string | null,
): Omit<NamedTable, 'name' | 'codebook'> {
  const attrs = ds.schema.attributes;
  const decoded = attrs.map((a) =>
    a.categories ? a.categories.map((c) => (c === missingCode ? '' : decodeLabel(book, a.name, c))) : null,
  );
  const outcome = ds.schema.outcome;
  const rows: string[][] = new Array(ds.n);
  for (let i = 0; i < ds.n; i++) {
    const row: string[] = new Array(attrs.length + 1);
    for (let j = 0; j < attrs.length; j++) {
      const v = ds.x[i * ds.d + j]!;
      row[j] = decoded[j] ? decoded[j]![v]! : String(v);
    }
    row[attrs.length] = outcome.labels[ds.y[i]!]!;
    rows[i] = row;
  }
  const categories: Record<string, string[]> = {};
  const kinds: SchemaFile['kinds'] = {};
  attrs.forEach((a, j) => {
    kinds[a.name] = a.kind;
    if (decoded[j]) categories[a.name] = decoded[j]!.filter((c) => c !== '');
  });
  const metadata = 'metadata' in ds ? ds.metadata : null;
  return {
    file: metadata ? metadata.source.map((s) => s.file).join(', ') : (ds.name ?? 'dataset'),
    header: [...attrs.map((a) => a.name), outcome.name],
    rows,
    outcome: outcome.name,
    favourable: outcome.labels[outcome.favorable]!,
    protected: attrs.filter((a) => a.protected).map((a) => a.name),
    schemaFile: { kinds, categories },
    provenance: metadata
      ? metadata.source.map((s) => `${s.file}: ${s.path} (${s.origin}), SHA-256 ${s.sha256} verified`)
      : [],
  };
}
