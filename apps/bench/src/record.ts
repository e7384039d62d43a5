import type { Access, DetectorKind, RunMetrics } from '@fb/core';
import type { RunScore } from '@fb/eval';
import type { Cell } from './cells.js';

/** What the store keeps per cell, finished or failed. */
export interface CellRecord {
  key: string;
  block: string;
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
  metrics: RunMetrics | null;
  stopReason: string | null;
  wallSeconds: number;
  /** Scored against the generator's truth (synthetic data only). */
  score: RunScore | null;
  /** Protected attribute values the method points at (`attribute=value`), for agreement between methods. */
  implicated: string[];
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
    implicated: [],
  };
}

export function identity(
  cell: Cell,
): Pick<CellRecord, 'key' | 'block' | 'dataset' | 'seed' | 'model' | 'plan'> {
  const d = cell.dataset;
  return {
    key: cell.key,
    block: cell.block,
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
