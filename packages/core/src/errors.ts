/**
 * Every error fairbench throws on bad input is a `FairbenchError` with a stable `code`.
 * Catch by class (`instanceof SchemaError`) or switch on `code`; messages may improve between
 * versions, codes do not change within a major version.
 */
export type ErrorCode =
  | 'SCHEMA_INVALID'
  | 'SCHEMA_DUPLICATE_ATTRIBUTE'
  | 'SCHEMA_RESERVED_NAME'
  | 'SCHEMA_NO_PROTECTED'
  | 'SCHEMA_BAD_DOMAIN'
  | 'DATA_EMPTY'
  | 'DATA_SHAPE'
  | 'DATA_NOT_FINITE'
  | 'DATA_OUT_OF_DOMAIN'
  | 'DATA_MISSING_COLUMN'
  | 'DATA_EXTRA_COLUMN'
  | 'DATA_UNKNOWN_CATEGORY'
  | 'DATA_SINGLE_CLASS'
  | 'DATA_CONSTANT_COLUMN'
  | 'DATA_EMPTY_GROUP'
  | 'OPTIONS_INVALID'
  | 'OPTIONS_UNKNOWN'
  | 'MODEL_MISSING'
  | 'MODEL_MISMATCH'
  | 'MODEL_OUTPUT'
  | 'RESULT_INVALID'
  | 'RNG_INVALID_ARGUMENT'
  | 'INTEROP_PARSE';

export interface ErrorDetails {
  /** The attribute (column) at fault, when there is one. */
  attribute?: string;
  /** The option at fault, as a JSON pointer into the options object. */
  option?: string;
  /** Row index at fault, when there is one. */
  row?: number;
  [key: string]: unknown;
}

export class FairbenchError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

/** The schema itself is ill-formed (names, kinds, domains, protected attributes). */
export class SchemaError extends FairbenchError {}
/** The data does not fit its schema (shape, NaN, unknown categories, single class, ...). */
export class DataError extends FairbenchError {}
/** Detector or generator options are unknown or ill-typed. */
export class OptionsError extends FairbenchError {}
/** The model is missing, has the wrong width, or returned something unusable. */
export class ModelError extends FairbenchError {}
/** A result does not validate against the result schema. */
export class ResultError extends FairbenchError {}
/** A table being read back (CSV/JSON interop) cannot be parsed. */
export class InteropError extends FairbenchError {}
/** A random-generator helper was called with an impossible argument. */
export class RngError extends FairbenchError {
  constructor(message: string) {
    super('RNG_INVALID_ARGUMENT', message);
  }
}
