import { DataError, type Dataset, parseDecimal } from '@fb/core';

/** Code of a category label; unknown labels are a `DataError` naming the column and line. */
export function categoryCoder(
  column: string,
  categories: readonly string[],
): (value: string, line: number) => number {
  const codes = new Map(categories.map((c, i) => [c, i] as const));
  return (value, line) => {
    const code = codes.get(value);
    if (code === undefined) {
      throw new DataError(
        'DATA_UNKNOWN_CATEGORY',
        `line ${line}, column "${column}": unknown value "${value}" (known: ${categories.join(', ')})`,
        { attribute: column, row: line },
      );
    }
    return code;
  };
}

/** A number cell; anything else is a `DataError` naming the column and line. */
export function numberCell(column: string, value: string, line: number): number {
  const v = parseDecimal(value);
  if (!Number.isFinite(v)) {
    throw new DataError('DATA_NOT_FINITE', `line ${line}, column "${column}": "${value}" is not a number`, {
      attribute: column,
      row: line,
    });
  }
  return v;
}

/** What a loader read and how: provenance, row accounting and the encoding rules applied. */
export interface DatasetMetadata {
  readonly source: readonly { file: string; path: string; sha256: string; origin: string }[];
  readonly citation: string;
  /** Data records in the file(s). */
  readonly rowsRead: number;
  /** Records left out, by reason (e.g. `missing value`, `ProPublica filter`). */
  readonly rowsDropped: Readonly<Record<string, number>>;
  /** Names of the protected attributes. */
  readonly protected: readonly string[];
  /** One line per encoding rule (derived columns, binning, label mapping). */
  readonly encoding: readonly string[];
}

/** A dataset with where it came from and how it was encoded. */
export interface LoadedDataset extends Dataset {
  readonly metadata: DatasetMetadata;
}

export function withMetadata(ds: Dataset, metadata: DatasetMetadata): LoadedDataset {
  return Object.freeze({ ...ds, metadata: Object.freeze(metadata) });
}
