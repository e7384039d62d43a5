import { type Classifier, type Dataset, ModelError } from '@fb/core';
import { evaluate, fit, modelOptionsSchemas, trainTestSplit } from '@fb/models';
import { loadOnnxClassifier } from '@fb/models-onnx';
import type { AuditData, BinnedAttribute } from './data.js';
import { loadEndpointClassifier } from './endpoint.js';
import { UsageError } from './errors.js';

export type ModelSource =
  | { kind: 'train'; model: 'rf' | 'lr' | 'mlp'; testFraction: number; seed: number }
  | { kind: 'onnx'; file: string }
  | {
      kind: 'endpoint';
      url: string;
      batchSize: number;
      /** How long a batch may wait for its answer (default 120 s). */
      timeoutMs?: number | undefined;
    }
  | {
      kind: 'recorded';
      /** Scores only: decisions are favourable when the score is at or above (or below) the threshold. */
      threshold?: number | undefined;
      higherIs?: 'favourable' | 'unfavourable' | undefined;
    };

export interface PreparedModel {
  /** The rows audited: the held-out part when a model was trained, else every row. */
  readonly dataset: Dataset;
  /** What the detectors query; recorded decisions answer only for the audited rows. */
  readonly model: Classifier;
  /** Decisions (outcome codes) on the audited rows. */
  readonly predictions: Int32Array;
  /** Whether the model can answer for inputs that are not rows of the data (individual testing needs it). */
  readonly answersNewInputs: boolean;
  readonly description: string;
  /** Facts about the model to show in the report (accuracy, split sizes, thresholds). */
  readonly facts: string[];
  readonly caveats: string[];
  close(): Promise<void>;
}

const TRAINED = { rf: 'random-forest', lr: 'logistic-regression', mlp: 'mlp' } as const;

/**
 * A model that reads raw values, in front of data whose numeric protected attributes are binned. The
 * audited rows are answered from their real values: a batch that is the audited data's array (or a run
 * of its rows, as a view on it) gets the model's answers on the raw rows, so group metrics and subgroup
 * scans see the model's own decisions. Any other input (a generated one, a counterfactual) has each bin
 * code replaced by the bin's median, a value the data holds.
 */
export class RawValueClassifier implements Classifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  readonly predictProba?: (x: Float64Array) => Float64Array;
  private ownDecisions: Int32Array | null = null;
  private ownProba: Float64Array | null = null;

  constructor(
    private readonly inner: Classifier,
    private readonly binned: readonly BinnedAttribute[],
    /** The audited rows in the binned coding, and the same rows with their real values. */
    private readonly audited: { readonly x: Float64Array; readonly raw: Float64Array } | null = null,
  ) {
    this.nFeatures = inner.nFeatures;
    this.nClasses = inner.nClasses;
    this.description = inner.description ?? 'model';
    if (inner.predictProba) {
      this.predictProba = (x) => {
        const rows = this.auditedRows(x);
        if (!rows) return inner.predictProba!(this.raw(x));
        this.ownProba ??= inner.predictProba!(this.audited!.raw);
        const K = this.nClasses;
        return this.ownProba.slice(rows[0] * K, rows[1] * K);
      };
    }
  }

  /** `[first, end)` when `x` is the audited rows' array or a whole-row view on it, else null. */
  private auditedRows(x: Float64Array): [number, number] | null {
    const a = this.audited;
    if (!a || this.binned.length === 0 || x.buffer !== a.x.buffer) return null;
    const d = this.nFeatures;
    const offset = (x.byteOffset - a.x.byteOffset) / Float64Array.BYTES_PER_ELEMENT;
    if (offset < 0 || offset % d !== 0 || x.length % d !== 0 || offset + x.length > a.x.length) return null;
    return [offset / d, (offset + x.length) / d];
  }

  /** A batch with each bin code replaced by the bin's median. */
  raw(x: Float64Array): Float64Array {
    if (this.binned.length === 0) return x;
    const d = this.nFeatures;
    const out = x.slice();
    for (const b of this.binned) {
      for (let o = b.column; o < out.length; o += d) out[o] = b.representatives[out[o]!]!;
    }
    return out;
  }

  /** The binned attributes, with the median each bin is sent as. */
  get binnedAttributes(): readonly BinnedAttribute[] {
    return this.binned;
  }

  /** The audited rows with their real values, when there are binned attributes. */
  get realRows(): Float64Array | null {
    return this.binned.length > 0 && this.audited ? this.audited.raw : null;
  }

  /** The model's answers on rows given in its own (raw) coding. */
  predictRaw(raw: Float64Array): Int32Array {
    return this.inner.predict(raw);
  }

  predict(x: Float64Array): Int32Array {
    const rows = this.auditedRows(x);
    if (!rows) return this.inner.predict(this.raw(x));
    this.ownDecisions ??= this.inner.predict(this.audited!.raw);
    return this.ownDecisions.slice(rows[0], rows[1]);
  }
}

/**
 * Decisions recorded in the data, as a classifier: a row of the data gets its recorded decision (the
 * most frequent one among identical rows) and, for scores, the favourable rate observed at its score;
 * any other input is a ModelError, since nobody recorded a decision for it.
 */
export class RecordedDecisions implements Classifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  readonly predictProba?: (x: Float64Array) => Float64Array;
  private readonly index = new Map<string, number>();
  private readonly decision: Int32Array;
  private readonly proba: Float64Array | null;

  constructor(ds: Dataset, decisions: Int32Array, proba: Float64Array | null, description: string) {
    this.nFeatures = ds.d;
    this.nClasses = ds.schema.outcome.labels.length;
    this.description = description;
    const K = this.nClasses;
    if (decisions.length !== ds.n) {
      throw new ModelError('MODEL_OUTPUT', `${decisions.length} recorded decisions for ${ds.n} rows`);
    }
    const bad = decisions.findIndex((c) => !(Number.isInteger(c) && c >= 0 && c < K));
    if (bad >= 0) {
      throw new ModelError(
        'MODEL_OUTPUT',
        `row ${bad}: recorded decision ${decisions[bad]} is not a class of the outcome (0..${K - 1})`,
      );
    }
    const votes: Float64Array[] = [];
    const sums: Float64Array[] = [];
    for (let i = 0; i < ds.n; i++) {
      const key = rowKey(ds.x, i * ds.d, ds.d);
      let id = this.index.get(key);
      if (id === undefined) {
        id = votes.length;
        this.index.set(key, id);
        votes.push(new Float64Array(K));
        sums.push(new Float64Array(K));
      }
      votes[id]![decisions[i]!]!++;
      if (proba) for (let k = 0; k < K; k++) sums[id]![k]! += proba[i * K + k]!;
    }
    this.decision = Int32Array.from(votes, (v) => v.indexOf(Math.max(...v)));
    this.proba = proba ? new Float64Array(votes.length * K) : null;
    if (this.proba) {
      votes.forEach((v, id) => {
        const n = v.reduce((a, b) => a + b, 0);
        for (let k = 0; k < K; k++) this.proba![id * K + k] = sums[id]![k]! / n;
      });
      this.predictProba = (x) =>
        this.lookup(x, (id, out, o) => out.set(this.proba!.subarray(id * K, id * K + K), o), K);
    }
  }

  private lookup(x: Float64Array, write: (id: number, out: Float64Array, o: number) => void, width: number) {
    const d = this.nFeatures;
    const n = x.length / d;
    const out = new Float64Array(n * width);
    for (let i = 0; i < n; i++) {
      const id = this.index.get(rowKey(x, i * d, d));
      if (id === undefined) {
        throw new ModelError(
          'MODEL_OUTPUT',
          'recorded decisions exist only for the rows of the data: this method asked about a new input',
        );
      }
      write(id, out, i * width);
    }
    return out;
  }

  predict(x: Float64Array): Int32Array {
    return Int32Array.from(this.lookup(x, (id, out, o) => (out[o] = this.decision[id]!), 1));
  }
}

function rowKey(x: Float64Array, off: number, d: number): string {
  let key = '';
  for (let j = 0; j < d; j++) key += `${x[off + j]},`;
  return key;
}

/** P(favourable | score): the favourable rate among rows with that score (scores with many values in deciles). */
function calibrate(scores: Float64Array, y: Int32Array, favorable: number): Float64Array {
  const distinct = [...new Set(scores)].sort((a, b) => a - b);
  let level: (v: number) => number;
  if (distinct.length <= 50) {
    const at = new Map(distinct.map((v, k) => [v, k]));
    level = (v) => at.get(v)!;
  } else {
    const sorted = Float64Array.from(scores).sort();
    const cuts = Array.from({ length: 9 }, (_, b) => sorted[Math.floor(((b + 1) * sorted.length) / 10)]!);
    level = (v) => cuts.filter((c) => v >= c).length;
  }
  const hits = new Map<number, [number, number]>();
  for (let i = 0; i < scores.length; i++) {
    const l = level(scores[i]!);
    const h = hits.get(l) ?? [0, 0];
    h[0] += y[i] === favorable ? 1 : 0;
    h[1]++;
    hits.set(l, h);
  }
  return Float64Array.from(scores, (v) => {
    const [f, n] = hits.get(level(v))!;
    // Kept away from 0 and 1: a likelihood-ratio scan cannot use a certain expectation.
    return Math.min(1 - 1e-6, Math.max(1e-6, f / n));
  });
}

function recordedModel(data: AuditData, source: Extract<ModelSource, { kind: 'recorded' }>): PreparedModel {
  const ds = data.dataset;
  const rec = data.recorded!;
  const K = ds.schema.outcome.labels.length;
  const fav = ds.schema.outcome.favorable;
  const facts: string[] = [];
  const caveats = [
    'Decisions were recorded, not produced by a model the audit can query: individual testing (which asks about inputs nobody was scored on) cannot run, and subgroup scans see only these rows.',
  ];
  let decisions: Int32Array;
  let proba: Float64Array | null = null;
  if (rec.kind === 'predictions') {
    decisions = Int32Array.from(rec.values);
    facts.push(`decisions: column "${rec.column}"`);
  } else {
    if (K !== 2) throw new UsageError('--scores needs a two-label outcome');
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const v of rec.values) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    const threshold = source.threshold ?? (lo >= 0 && hi <= 1 ? 0.5 : undefined);
    if (threshold === undefined) {
      throw new UsageError(
        `--scores ${rec.column}: the scores run from ${lo} to ${hi}, not 0..1: give --threshold (the score at which a decision changes)`,
      );
    }
    const higherFavourable = (source.higherIs ?? 'favourable') === 'favourable';
    const other = 1 - fav;
    decisions = Int32Array.from(rec.values, (v) => (v >= threshold === higherFavourable ? fav : other));
    const favourableRate = calibrate(rec.values, ds.y, fav);
    proba = new Float64Array(ds.n * 2);
    for (let i = 0; i < ds.n; i++) {
      proba[i * 2 + fav] = favourableRate[i]!;
      proba[i * 2 + other] = 1 - favourableRate[i]!;
    }
    const favourableLabel = ds.schema.outcome.labels[fav];
    facts.push(
      `decisions: "${favourableLabel}" when ${rec.column} ${higherFavourable ? '>=' : '<'} ${threshold}, else "${ds.schema.outcome.labels[other]}"`,
    );
    caveats.push(
      `Scores are not probabilities: the bias scan's expected outcome for a row is the observed "${favourableLabel}" rate among rows with the same ${rec.column}${new Set(rec.values).size > 50 ? ' decile' : ''}, so it looks for groups that the score mis-ranks relative to everyone else with that score.`,
    );
  }
  const model = new RecordedDecisions(ds, decisions, proba, `recorded(${rec.column})`);
  return {
    dataset: ds,
    model,
    predictions: decisions,
    answersNewInputs: false,
    description: model.description,
    facts,
    caveats,
    close: async () => {},
  };
}

/** Build the model under audit from the command line's choice. */
export async function prepareModel(data: AuditData, source: ModelSource): Promise<PreparedModel> {
  if (source.kind === 'recorded') return recordedModel(data, source);
  const full = data.dataset;
  if (source.kind === 'train') {
    const split = trainTestSplit(full, { testFraction: source.testFraction, seed: source.seed });
    const name = TRAINED[source.model];
    // Models with random draws take the seed; logistic regression has none.
    const seeded = 'seed' in modelOptionsSchemas[name].properties ? { seed: source.seed } : {};
    const fitted = await fit(split.train, { model: name, ...seeded } as never);
    const test = split.test;
    const predictions = fitted.predict(test.x);
    const e = evaluate(fitted, test);
    return {
      dataset: test,
      model: fitted,
      predictions,
      answersNewInputs: true,
      description: fitted.description ?? TRAINED[source.model],
      facts: [
        `${TRAINED[source.model]} trained on ${split.train.n} rows (seed ${source.seed}), audited on the ${test.n} held-out rows`,
        `held-out accuracy ${e.accuracy.toFixed(3)}`,
      ],
      caveats: [],
      close: async () => {},
    };
  }
  let inner: Classifier & { close?: () => Promise<void> };
  if (source.kind === 'onnx') {
    inner = await loadOnnxClassifier(source.file, { schema: data.modelSchema });
  } else {
    inner = await loadEndpointClassifier(source.url, data.modelSchema, {
      batchSize: source.batchSize,
      ...(source.timeoutMs !== undefined ? { timeoutMs: source.timeoutMs } : {}),
    });
  }
  const labels = full.schema.outcome.labels;
  if (inner.nClasses !== labels.length) {
    await inner.close?.();
    throw new ModelError(
      'MODEL_MISMATCH',
      `the model answers for ${inner.nClasses} classes, outcome "${full.schema.outcome.name}" has ${labels.length} labels (${labels.join(', ')}): audit it against an outcome with the classes it predicts`,
    );
  }
  if (inner.nFeatures !== full.d) {
    await inner.close?.();
    throw new ModelError(
      'MODEL_MISMATCH',
      `the model takes ${inner.nFeatures} features, the data has ${full.d} attributes (${full.schema.attributes.map((a) => a.name).join(', ')})`,
    );
  }
  const model = new RawValueClassifier(inner, data.binned, { x: full.x, raw: data.rawX });
  // The model's own decisions on the real rows (raw values, not bin medians).
  const predictions = model.predict(full.x);
  let correct = 0;
  for (let i = 0; i < full.n; i++) if (predictions[i] === full.y[i]) correct++;
  return {
    dataset: full,
    model,
    predictions,
    answersNewInputs: true,
    description: inner.description ?? source.kind,
    facts: [`accuracy on the data ${(correct / full.n).toFixed(3)}`],
    caveats: data.binned.map(
      (b) =>
        `The model reads raw "${b.name}" values. Group metrics and subgroup scans use its decisions on each row's real value; the audit's groups are bins (${b.labels.join(', ')}), and an input that is not a row of the data (an individual test's counterfactual) is sent each bin's median (${Array.from(b.representatives).join(', ')}), a value the data holds: each example pair states the real values it compared.`,
    ),
    close: async () => {
      await inner.close?.();
    },
  };
}
