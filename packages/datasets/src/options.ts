import type { OptionsSchema } from '@fb/core';

// Loader options are checked with core's resolveOptions against these schemas: unknown, ill-typed
// or null options are an OptionsError naming the option, not a silent default.

const text = (description: string) => ({ type: 'string', minLength: 1, description });

/** Where a loader finds its file: the `SourceOptions` every real-data loader takes. */
const SOURCE_PROPERTIES = {
  dataDir: text('Directory holding the original files.'),
  cacheDir: text('Cache for downloads.'),
  download: { type: 'boolean', description: 'Download a missing file into the cache.' },
  mirror: text('Base URL mirroring the reference layout.'),
} satisfies OptionsSchema['properties'];

const split = {
  enum: ['train', 'test'],
  description: 'Adult file: train (adult.data) or test (adult.test).',
};

/** A loader's options: where it finds its file, plus its own. */
const loader = (own: OptionsSchema['properties'] = {}): OptionsSchema => ({
  type: 'object',
  properties: { ...SOURCE_PROPERTIES, ...own },
});

export const SOURCE_OPTIONS = loader();
export const ADULT_OPTIONS = loader({
  split,
  missing: { enum: ['drop', 'keep'], description: 'Rows with `?`: drop them or keep `?` as a category.' },
  protected: {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    uniqueItems: true,
    description: 'The protected attributes (default race and sex); any Adult column but income.',
  },
});
export const CENSUS13_OPTIONS = loader({
  split,
  outOfBounds: { enum: ['drop', 'clip'], description: 'Rows outside the bounds: drop or clip them.' },
});
export const COMPAS_OPTIONS = loader({
  race: { enum: ['all', 'black-white'], description: 'All six race values or two.' },
});

export const CSV_OPTIONS: OptionsSchema = {
  type: 'object',
  properties: {
    missing: { enum: ['drop', 'error', 'mode'], description: 'Rows with a missing cell.' },
    delimiter: { type: 'string', minLength: 1, maxLength: 1, description: 'Cell delimiter.' },
    missingTokens: { type: 'array', items: { type: 'string' }, description: 'Cell texts read as missing.' },
    maxOrdinalLevels: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      description: 'Integer columns with at most this many levels are ordinal.',
    },
    name: { type: 'string', description: 'Dataset name.' },
  },
};

const names = { type: 'array', items: { type: 'string', minLength: 1 } };

export const CSV_SCHEMA: OptionsSchema = {
  type: 'object',
  required: ['outcome', 'favorable', 'protected'],
  properties: {
    outcome: text('The outcome column.'),
    favorable: { type: 'string', description: 'Label of the favourable outcome.' },
    protected: { ...names, minItems: 1, description: 'Protected columns.' },
    columns: { ...names, description: 'Attribute columns, in order.' },
    kinds: {
      type: 'object',
      additionalProperties: { enum: ['categorical', 'ordinal', 'continuous'] },
      description: 'Kind per column.',
    },
    categories: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' }, minItems: 1 },
      description: 'Category order per column.',
    },
  },
};
