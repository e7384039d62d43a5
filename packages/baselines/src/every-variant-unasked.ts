import {
  type AttributeValueCount,
  assertValidResult,
  checkDataset,
  type DiscoveryResult,
  type DiscriminatoryPair,
  type IndividualDetector,
  ModelError,
  type OptionsSchema,
  ProtectedVariants,
  prepareModel,
  RowIndex,
  RunController,
  resolveOptions,
  resultEnvelope,
  resultRunInfo,
  TestedSampleKey,
  valueLabel,
} from '@fb/core';
import { VERSION } from './version.js';

/** The detector takes no options: the budget bounds it (`maxPairs` pairs kept, `maxTested` rows). */
export type EveryVariantUnaskedOptions = Record<string, never>;

/** Rows listed between two checks of the clock and the abort signal. */
const ROWS_PER_STEP = 512;
/** Seconds to build and validate one kept pair of the result, as core's checker reckons it. */
const RESULT_SECONDS_PER_PAIR = 15e-6;

const optionsSchema: OptionsSchema = { type: 'object', additionalProperties: false, properties: {} };

/** The stand-in for an unknown decision: the favourable label for an unfavourable one, and vice versa. */
function complement(label: number, favourable: number): number {
  if (label !== favourable) return favourable;
  return favourable === 0 ? 1 : 0;
}

/**
 * A floor (an output that knows nothing): for every individual of the audited rows (its non-protected
 * values), in data order, a pair with every other joint assignment of its protected values (core's
 * `ProtectedVariants`, all combinations), without asking the model: V − 1 pairs per individual for V
 * joint assignments, the claim "everyone is discriminated against by every change of their protected
 * values". Matched to a method on the rows it audits; a scorer that asks the model about each pair (as
 * eval does) gives it perfect coverage at the base rate's precision.
 *
 * The model is neither asked nor wrapped (`requiresModel` false, `access` data-only, `model` null in the
 * result, 0 queries). A pair's outcomes are stand-ins, not decisions: `sampleOutcome` is the row's
 * recorded label, `counterfactualOutcome` its complement (the favourable label for an unfavourable one,
 * else the first unfavourable one).
 *
 * Counted as the checker counts (`TestedSampleKey`): a row whose individual was listed before, from
 * another row, adds nothing, so TSN is the individuals listed, DSN those given at least one pair, and
 * `maxTested` bounds the individuals, as it bounds a method's tested samples. Counting rows instead
 * matched the floors to the wrong number: on data whose rows repeat individuals, 500 rows held about 300
 * of them, the dense cells' more often than their share, and the "random audited rows" floor, matched
 * on 500 tested samples, checked 500 individuals drawn evenly. `metrics.pairs` counts every pair listed;
 * `findings.pairs` keeps the first `budget.maxPairs` (core's default 100,000), so memory is bounded
 * whatever n. `maxSeconds` bounds the time.
 */
async function listVariants(dataset: ReturnType<typeof checkDataset>, ctl: RunController) {
  const { n, d, x, y, schema } = dataset;
  const variants = new ProtectedVariants(schema, 'all-combinations');
  const { prot, domains, perInput } = variants;
  const names = schema.attributes.map((a) => a.name);
  const favourable = schema.outcome.favorable;
  const scratch = new Float64Array(perInput * d);
  const pairs: DiscriminatoryPair[] = [];
  /** Per protected attribute, individuals listed with each of its values (from the row listed). */
  const rowsByValue = domains.map((dom) => new Int32Array(dom.length));
  const testedKey = new TestedSampleKey(schema);
  const listedKeys = new RowIndex(testedKey.width);
  ctl.resultSeconds = () => pairs.length * RESULT_SECONDS_PER_PAIR;
  let scanned = 0;
  let rows = 0;
  while (scanned < n) {
    if (await ctl.checkpoint({ phase: 'rows', done: scanned, total: n })) break;
    const room = ctl.remainingTested();
    const end = Math.min(n, scanned + ROWS_PER_STEP);
    let fresh = 0;
    let i = scanned;
    for (; i < end && fresh < room; i++) {
      const off = i * d;
      const known = listedKeys.size;
      listedKeys.getOrAdd(testedKey.of(x, off));
      if (listedKeys.size === known) continue;
      fresh++;
      for (let k = 0; k < prot.length; k++) rowsByValue[k]![variants.domainIndex(k, x[off + prot[k]!]!)]!++;
      if (pairs.length >= ctl.maxPairs) continue;
      const m = Math.min(variants.write(x, off, scratch, 0), ctl.maxPairs - pairs.length);
      for (let v = 0; v < m; v++) {
        const counterfactual = Array.from(scratch.subarray(v * d, (v + 1) * d));
        pairs.push({
          caseId: pairs.length,
          sample: Array.from(x.subarray(off, off + d)),
          counterfactual,
          sampleOutcome: y[i]!,
          counterfactualOutcome: complement(y[i]!, favourable),
          changed: prot.filter((p) => counterfactual[p] !== x[off + p]).map((p) => names[p]!),
        });
      }
    }
    scanned = i;
    rows += fresh;
    ctl.tested = rows;
    ctl.discriminatory = perInput > 0 ? rows : 0;
  }
  const combos = perInput + 1;
  // In a row's pairs, attribute k changes in the V − V/|D_k| combinations that give it another value,
  // V/|D_k| of them to each other value; every value of an attribute with two or more is in some pair.
  const byAttributeValue: AttributeValueCount[] = prot.flatMap((p, k) => {
    const a = schema.attributes[p]!;
    const dom = domains[k]!;
    const toEach = combos / dom.length;
    return Array.from(dom, (value, v) => {
      const own = rowsByValue[k]![v]!;
      return {
        attribute: a.name,
        value,
        label: valueLabel(a, value),
        dsn: dom.length > 1 ? rows : 0,
        pairs: own * (combos - toEach) + (rows - own) * toEach,
      };
    });
  });
  return { rows, scanned, pairs, total: rows * perInput, byAttributeValue, perInput };
}

const meta = {
  id: 'every-variant-unasked',
  version: VERSION,
  access: 'data-only',
  description:
    'Floor: every other joint protected assignment of every audited row, reported as a pair without asking the model.',
} as const;

export const everyVariantUnasked: IndividualDetector<EveryVariantUnaskedOptions> = {
  ...meta,
  kind: 'individual',
  optionsSchema,
  requiresModel: false,
  resolveOptions: (options) => resolveOptions<EveryVariantUnaskedOptions>(optionsSchema, options),
  async run(input, options, context) {
    if (input === null || typeof input !== 'object') {
      throw new ModelError('MODEL_MISSING', 'run(input) needs an object { dataset, model }');
    }
    const resolved = resolveOptions<EveryVariantUnaskedOptions>(optionsSchema, options);
    const dataset = checkDataset(input.dataset);
    // Never asked, but a model passed in is still checked: a wrong one is bad input, not ignored.
    prepareModel(input.model, dataset, false);
    const ctl = new RunController(context);
    const listed = await listVariants(dataset, ctl);
    const dsn = listed.perInput > 0 ? listed.rows : 0;
    const run = resultRunInfo(ctl);
    const result: DiscoveryResult<'individual'> = {
      ...resultEnvelope('individual', meta, resolved, dataset, null, ctl),
      run,
      metrics: {
        tsn: listed.rows,
        dsn,
        sur: listed.rows === 0 ? 0 : dsn / listed.rows,
        dss: dsn === 0 ? null : run.wallSeconds / dsn,
        pairs: listed.total,
        queries: 0,
        distinctQueries: 0,
      },
      findings: { kind: 'individual', pairs: listed.pairs, byAttributeValue: listed.byAttributeValue },
      extras: {
        individualsListed: listed.rows,
        rowsScanned: listed.scanned,
        variantsPerRow: listed.perInput,
      },
    };
    assertValidResult(result);
    return result;
  },
};
