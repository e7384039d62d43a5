import {
  type Classifier,
  createRng,
  type Dataset,
  type Detector,
  type DiscoveryResult,
  type DiscriminatoryPair,
  datasetFingerprint,
  RESULT_SCHEMA_VERSION,
  type RunContextInit,
} from '@fb/core';
import { RawValueClassifier } from './models.js';

/** Pairs kept per run; every pair is counted. */
const MAX_STORED = 1000;
/** Rows per model query. */
const BATCH_ROWS = 256;

/** For a pair on a binned attribute: the real values the model compared. */
export interface ComparedValues {
  readonly caseId: number;
  readonly attribute: string;
  readonly from: number;
  readonly to: number;
}

/**
 * The values a protected attribute is changed to: the codes the audited rows hold (a category no row
 * has is never tried).
 */
function heldValues(ds: Dataset, j: number): number[] {
  const seen = new Set<number>();
  for (let i = 0; i < ds.n; i++) seen.add(ds.x[i * ds.d + j]!);
  return [...seen].sort((a, b) => a - b);
}

/**
 * The counterfactual test on the data's own rows: each audited row (in a seeded random order, as far
 * as the time budget goes) is sent to the model as it is and with one protected attribute changed to
 * each other value the data holds, one attribute at a time. A pair is a row and a change that changes
 * the decision. A binned attribute is changed to the bin's median (a real value of the data), and the
 * row keeps its own real value: `extras.compared` lists the real values of each such pair.
 */
export const rowFlips: Detector<Record<string, unknown>, 'individual'> = {
  id: 'rowflips',
  version: '1.0.0',
  kind: 'individual',
  access: 'black-box',
  description:
    "Counterfactual test on the data's rows: one protected attribute at a time changed to each other value the data holds.",
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  requiresModel: true,
  resolveOptions: () => ({}),
  async run(input, _options, context?: RunContextInit) {
    const ds = input.dataset;
    const model = input.model as Classifier;
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    const maxSeconds = context?.budget?.maxSeconds ?? null;
    const signal = context?.signal;
    const d = ds.d;
    const attrs = ds.schema.attributes;
    const prot = attrs.flatMap((a, j) => (a.protected ? [j] : []));
    const values = prot.map((j) => heldValues(ds, j));
    // A model reading raw values gets each row's real values and, for a binned attribute, the median.
    const raw = model instanceof RawValueClassifier ? model : null;
    const binnedAt = new Map((raw?.binnedAttributes ?? []).map((b) => [b.column, b] as const));
    const realRows = raw?.realRows ?? null;
    // A seeded shuffle (Fisher-Yates), so that a run cut short by its budget tests a random sample.
    const rng = createRng(Number(context?.seed ?? 1));
    const order = Int32Array.from({ length: ds.n }, (_, i) => i);
    for (let i = ds.n - 1; i > 0; i--) {
      const k = rng.int(0, i);
      [order[i], order[k]] = [order[k]!, order[i]!];
    }
    const pairs: DiscriminatoryPair[] = [];
    const compared: ComparedValues[] = [];
    let tested = 0;
    let discriminatory = 0;
    let nPairs = 0;
    let queries = 0;
    let stopReason: DiscoveryResult['run']['stopReason'] = 'completed';
    const variantsPerRow = values.reduce((s, v) => s + v.length - 1, 0);
    for (let start = 0; start < ds.n; start += BATCH_ROWS) {
      if (signal?.aborted) {
        stopReason = 'aborted';
        break;
      }
      if (maxSeconds !== null && (Date.now() - started) / 1000 >= maxSeconds) {
        stopReason = 'time-budget';
        break;
      }
      const rows = order.slice(start, start + BATCH_ROWS);
      const width = 1 + variantsPerRow;
      const batch = new Float64Array(rows.length * width * d);
      rows.forEach((i, r) => {
        const base = (realRows ?? ds.x).subarray(i * d, (i + 1) * d);
        let o = r * width * d;
        batch.set(base, o);
        o += d;
        prot.forEach((j, p) => {
          for (const v of values[p]!) {
            if (v === ds.x[i * d + j]) continue;
            batch.set(base, o);
            const b = binnedAt.get(j);
            batch[o + j] = b && realRows ? b.representatives[v]! : v;
            o += d;
          }
        });
      });
      const decided = raw ? raw.predictRaw(batch) : model.predict(batch);
      queries += rows.length * width;
      rows.forEach((i, r) => {
        tested++;
        const own = decided[r * width]!;
        let k = r * width + 1;
        let found = false;
        prot.forEach((j, p) => {
          for (const v of values[p]!) {
            if (v === ds.x[i * d + j]) continue;
            const other = decided[k++]!;
            if (other === own) continue;
            found = true;
            const caseId = nPairs++;
            if (pairs.length >= MAX_STORED) continue;
            const sample = Array.from(ds.x.subarray(i * d, (i + 1) * d));
            const counterfactual = sample.slice();
            counterfactual[j] = v;
            pairs.push({
              caseId,
              sample,
              counterfactual,
              sampleOutcome: own,
              counterfactualOutcome: other,
              changed: [attrs[j]!.name],
            });
            const b = binnedAt.get(j);
            if (b && realRows) {
              compared.push({
                caseId,
                attribute: b.name,
                from: realRows[i * d + j]!,
                to: b.representatives[v]!,
              });
            }
          }
        });
        if (found) discriminatory++;
      });
    }
    const wallSeconds = (Date.now() - started) / 1000;
    const result: DiscoveryResult<'individual'> = {
      schemaVersion: RESULT_SCHEMA_VERSION,
      method: { id: 'rowflips', version: '1.0.0', kind: 'individual', access: 'black-box', options: {} },
      dataset: {
        name: ds.name ?? null,
        fingerprint: datasetFingerprint(ds),
        rows: ds.n,
        attributes: attrs.map((a) => a.name),
        protected: prot.map((j) => attrs[j]!.name),
        outcome: ds.schema.outcome.name,
      },
      model: { description: model.description ?? null, nFeatures: model.nFeatures, nClasses: model.nClasses },
      seed: context?.seed ?? 1,
      budget: { maxSeconds, maxTested: null, maxQueries: null, maxPairs: MAX_STORED },
      run: { startedAt, wallSeconds, stopReason, aborted: stopReason === 'aborted' },
      metrics: {
        tsn: tested,
        dsn: discriminatory,
        sur: tested === 0 ? 0 : discriminatory / tested,
        dss: discriminatory === 0 ? null : wallSeconds / discriminatory,
        pairs: nPairs,
        queries,
        distinctQueries: queries,
      },
      findings: { kind: 'individual', pairs, byAttributeValue: [] },
      extras: { rowsTested: tested, rowsInData: ds.n, variantsPerRow, compared },
    };
    return result;
  },
};
