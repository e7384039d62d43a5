import type { Access, DetectorKind, RunMetrics } from '@fb/core';
import type { AuditScore } from '@fb/eval';
import type { Cell } from '../plan/cells.js';
import type { Question } from '../plan/config.js';
import type { FloorScore } from '../score/floors.js';

/** What the store keeps per cell, finished or failed. */
export interface CellRecord {
  key: string;
  block: string;
  /** The block in words. */
  blockLabel: string;
  question: Question;
  dataset: { label: string; kind: 'synthetic' | 'real'; null: boolean; factors: Record<string, unknown> };
  seed: number;
  model: string;
  plan: Cell['plan'];
  family: DetectorKind | null;
  access: Access | null;
  status: 'done' | 'failed';
  error: string | null;
  modelFingerprint: string | null;
  modelAccuracy: number | null;
  /** The options the method ran with, when the study's phase rule changed the plan's. */
  runOptions?: Record<string, unknown>;
  metrics: RunMetrics | null;
  stopReason: string | null;
  wallSeconds: number;
  /**
   * Where the cell's time went besides the method: building the block's rows and model (0 when this
   * worker had them cached) and scoring the findings. Absent in records of older versions.
   * `fitSeconds`, part of `prepareSeconds`: a data-only fit this cell made (LIMI's generator), which
   * every cell on the same rows then shares (absent in older records).
   * `firstOfMethod`: the first cell of its method on its worker, which paid for loading and compiling
   * the method's code; `firstBlock`: the worker's first block, whose build paid for the data and model
   * code's (both absent in older records, and false in a record that repeats another: `sameAs`).
   */
  costs?: {
    prepareSeconds: number;
    scoreSeconds: number;
    fitSeconds?: number;
    firstOfMethod?: boolean;
    firstBlock?: boolean;
  };
  /** Scored against the planted truth of its own data set (synthetic data only). */
  score: AuditScore | null;
  /**
   * Data without bias only: the same findings scored against the planted subgroups of each biased
   * scenario that shares these rows (the chance level of that scenario's scores).
   */
  chance: { scenario: string; score: AuditScore }[];
  /**
   * Data with planted bias only: what outputs that know nothing, matched to this run, score through
   * the same scorer (see `floorScores`). Absent in records of older versions.
   */
  floors?: FloorScore[];
  /** Protected attribute values the method points at (`attribute=value`), for agreement between methods. */
  implicated: string[];
  /**
   * The key of the cell whose run this record repeats: its plan's options resolved to the same as that
   * cell's in the same block (absent when the cell ran its own).
   */
  sameAs?: string;
  /** The errors of earlier attempts in the run that stored this record (absent when it ran once). */
  retriedAfter?: string[];
}

/**
 * The toolkit's typed errors (`@fb/core`'s SchemaError, DataError, OptionsError, ...) name bad input or
 * a broken contract, which every run repeats; the worker stores them as `Name: message`.
 */
const REPEATED_ERROR = /^(Schema|Data|Options|Model|Result|Interop|Rng)Error: /;

/**
 * Whether running a failed cell again may end otherwise: its worker crashed, it overran, or it threw
 * something other than one of the toolkit's typed errors.
 */
export function mayPassAgain(record: CellRecord): boolean {
  return record.status === 'failed' && !REPEATED_ERROR.test(record.error ?? '');
}

/** The record of a cell that threw or overran. */
export function failedRecord(cell: Cell, error: string, wallSeconds: number): CellRecord {
  return {
    ...identity(cell),
    family: null,
    access: null,
    status: 'failed',
    error,
    modelFingerprint: null,
    modelAccuracy: null,
    metrics: null,
    stopReason: null,
    wallSeconds,
    score: null,
    chance: [],
    implicated: [],
  };
}

export function identity(
  cell: Cell,
): Pick<CellRecord, 'key' | 'block' | 'blockLabel' | 'question' | 'dataset' | 'seed' | 'model' | 'plan'> {
  const d = cell.dataset;
  return {
    key: cell.key,
    block: cell.block,
    blockLabel: cell.blockLabel,
    question: cell.question,
    dataset: {
      label: d.label,
      kind: d.kind,
      null: d.kind === 'synthetic' && d.null,
      factors: d.kind === 'synthetic' ? d.factors : {},
    },
    seed: cell.seed,
    model: cell.model.label,
    plan: cell.plan,
  };
}
