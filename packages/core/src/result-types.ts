import type { StopReason } from './run-control.js';

/** Version of the result contract this package writes. Bumped per semver: a breaking change bumps the major. */
export const RESULT_SCHEMA_VERSION = '1.1.0';

export type DetectorKind = 'individual' | 'subgroup';
export type Access = 'black-box' | 'white-box' | 'data-only';

/** A predicate on one attribute: membership in a set of values, or an interval. */
export type Condition =
  | { attribute: string; values: number[] }
  | { attribute: string; min: number; max: number; maxInclusive: boolean };

/** A discriminatory pair: a sample and a counterfactual differing only in protected attributes. */
export interface DiscriminatoryPair {
  /** Index of the pair, 0..pairs-1 (the seed tables' `case_id`). */
  caseId: number;
  sample: number[];
  counterfactual: number[];
  sampleOutcome: number;
  counterfactualOutcome: number;
  /** Names of the protected attributes whose values differ. */
  changed: string[];
}

/** Discriminatory samples and pairs per value of a protected attribute. */
export interface AttributeValueCount {
  attribute: string;
  value: number;
  label: string;
  /** Distinct discriminatory samples with a flipping pair in which this attribute changes to or from this value. */
  dsn: number;
  /** Discriminatory pairs in which this attribute changes to or from this value. */
  pairs: number;
}

export interface IndividualFindings {
  kind: 'individual';
  pairs: DiscriminatoryPair[];
  byAttributeValue: AttributeValueCount[];
}

export interface SubgroupFinding {
  /** 1 = the method's strongest finding. */
  rank: number;
  /** Conjunction of conditions; attributes not listed are unconstrained. */
  conditions: Condition[];
  /** Number of dataset rows satisfying the conditions. */
  size: number;
  /** The method's own score (higher = stronger). */
  score: number;
  /** Signed gap in favourable-outcome rate that the method attributes to the subgroup, when it has one. */
  effect: number | null;
  pValue: number | null;
  /** Whether the subgroup gets the favourable outcome more or less often than expected. */
  direction: 'higher' | 'lower' | null;
  /** Method-specific numbers (e.g. MDSS's odds multiplier q). */
  details: Record<string, number | string | boolean | null>;
  /**
   * Since result schema 1.1.0, optional. The dataset rows in the subgroup (ascending row indices), given by
   * methods whose groups are not a conjunction of attribute conditions (a linear threshold, a
   * prediction-defined partition). When present they define the subgroup: `size` is their count, and
   * `conditions` is either exact (the rows satisfying it are exactly these) or empty.
   */
  members?: number[];
  /** Since 1.1.0, optional: the method's own membership rule, in the data's labels, when `conditions` cannot state it. */
  rule?: string;
}

export interface SubgroupFindings {
  kind: 'subgroup';
  subgroups: SubgroupFinding[];
}

export interface RunMetrics {
  /** Tested samples: distinct inputs (by non-protected attributes) whose check ran; rows scanned for subgroup methods. */
  tsn: number;
  /** Discriminatory samples (individual) or reported subgroups (subgroup). */
  dsn: number;
  /** DSN / TSN (0 when TSN = 0). */
  sur: number;
  /** Seconds per discriminatory sample; null when DSN = 0. */
  dss: number | null;
  pairs: number;
  queries: number;
  distinctQueries: number;
}

/** The findings of a detector family: pairs for individual methods, subgroups for subgroup methods. */
export type FindingsOf<K extends DetectorKind> = K extends 'individual'
  ? IndividualFindings
  : K extends 'subgroup'
    ? SubgroupFindings
    : never;

/**
 * What every detector returns. `DiscoveryResult<'individual'>` (what an individual detector's `run`
 * resolves to) has `findings.pairs` without a check of `findings.kind`; the default is either family.
 */
export interface DiscoveryResult<K extends DetectorKind = DetectorKind> {
  schemaVersion: string;
  method: {
    id: string;
    version: string;
    kind: K;
    access: Access;
    options: Record<string, unknown>;
  };
  dataset: {
    name: string | null;
    fingerprint: string;
    rows: number;
    attributes: string[];
    protected: string[];
    outcome: string;
  };
  model: { description: string | null; nFeatures: number; nClasses: number } | null;
  seed: number | string;
  budget: {
    maxSeconds: number | null;
    maxTested: number | null;
    maxQueries: number | null;
    /** Most pairs kept in `findings.pairs` (individual methods); `metrics.pairs` counts them all. */
    maxPairs?: number | null;
  };
  run: { startedAt: string; wallSeconds: number; stopReason: StopReason; aborted: boolean };
  metrics: RunMetrics;
  findings: FindingsOf<K>;
  /** Method-specific, JSON-serialisable extras (e.g. phase counts). */
  extras: Record<string, unknown>;
}
