import { isDeepStrictEqual } from 'node:util';
import {
  checkResult,
  countMembers,
  DataError,
  type Detector,
  type DiscoveryResult,
  type ErrorCode,
  type FairbenchError,
  ModelError,
  memberMask,
  OptionsError,
  type RunContextInit,
  readResult,
  reproducibleView,
  SchemaError,
} from '@fb/core';
import { type ConformanceFixture, makeFixture } from './fixture.js';

export interface ConformanceConfig<O extends object> {
  /** Options for a run of about a second or less on the fixture. */
  quickOptions?: Partial<O>;
  /** Options that would run far longer than the budgets below without one (time budget and abort checks). */
  longOptions: Partial<O>;
  /** The data and model to run on (default: the kit's planted-bias fixture). */
  fixture?: () => ConformanceFixture;
  /**
   * The data and model of the time-budget and abort checks (default: `fixture`). Methods whose work
   * is bounded by the data, whatever their options, need a larger data set there to run long enough.
   */
  longFixture?: () => ConformanceFixture;
  /** Time budget for the budget check, seconds (default 0.5). */
  budgetSeconds?: number;
  /** Slack allowed past a time budget or abort before the check fails, seconds (default 0.25). */
  slackSeconds?: number;
  /**
   * The method reports its paper's own TSN, DSN and pairs (FlipTest: mapped members and flipping
   * pairs), not the counts of its `findings.pairs`: those pairs are still re-queried, their count is
   * not compared with `metrics`.
   */
  ownCounts?: boolean;
}

export interface ConformanceCheck {
  name: string;
  run(): Promise<void>;
}

/** Thrown when a detector breaks the contract. */
export class ConformanceError extends Error {
  override name = 'ConformanceError';
}

function ensure(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ConformanceError(message);
}

async function expectTypedError(
  what: string,
  run: () => Promise<unknown>,
  errorClass: new (...args: never[]) => FairbenchError,
  code: ErrorCode,
): Promise<void> {
  let thrown: unknown;
  try {
    await run();
  } catch (e) {
    thrown = e;
  }
  ensure(thrown !== undefined, `${what}: the detector accepted it; expected ${errorClass.name} ${code}`);
  ensure(
    thrown instanceof errorClass && (thrown as FairbenchError).code === code,
    `${what}: expected ${errorClass.name} with code ${code}, got ${thrown instanceof Error ? `${thrown.name}(${(thrown as FairbenchError).code ?? ''}): ${thrown.message}` : String(thrown)}`,
  );
  ensure((thrown as Error).message.length > 10, `${what}: the error message is not informative`);
}

function checkValid(result: DiscoveryResult, what: string): void {
  const { valid, errors } = checkResult(result);
  ensure(valid, `${what}: the result does not validate against the DiscoveryResult schema: ${errors}`);
}

/** Every check of the conformance suite, as plain async functions that throw on a violation. */
export function conformanceChecks<O extends object>(
  detector: Detector<O>,
  config: ConformanceConfig<O>,
): ConformanceCheck[] {
  const fixture = config.fixture ?? (() => makeFixture());
  const budgetSeconds = config.budgetSeconds ?? 0.5;
  const slack = config.slackSeconds ?? 0.25;
  const quick = config.quickOptions ?? {};
  const longFixture = config.longFixture ?? fixture;
  const run = (options: Partial<O>, context: RunContextInit = {}, input = fixture()) =>
    detector.run(input, options, { seed: 7, ...context });

  const badInput = (
    name: string,
    mutate: (f: ConformanceFixture) => { dataset: unknown; model?: unknown },
    errorClass: new (...args: never[]) => FairbenchError,
    code: ErrorCode,
  ): ConformanceCheck => ({
    name: `rejects ${name} with ${errorClass.name} ${code}`,
    run: () =>
      expectTypedError(
        name,
        () => detector.run(mutate(fixture()) as Parameters<Detector<O>['run']>[0], quick, { seed: 1 }),
        errorClass,
        code,
      ),
  });

  const rawWith = (f: ConformanceFixture, patch: Record<string, unknown>) => ({
    dataset: { schema: f.dataset.schema, x: f.dataset.x, y: f.dataset.y, ...patch },
    model: f.model,
  });

  const checks: ConformanceCheck[] = [
    {
      name: 'declares its identity and options schema',
      async run() {
        ensure(/^[a-z0-9][a-z0-9-]*$/.test(detector.id), `id "${detector.id}" must be kebab-case`);
        ensure(
          detector.kind === 'individual' || detector.kind === 'subgroup',
          'kind must be individual or subgroup',
        );
        ensure(
          ['black-box', 'white-box', 'data-only'].includes(detector.access),
          'access is not a known value',
        );
        const props = detector.optionsSchema.properties;
        for (const [key, prop] of Object.entries(props)) {
          ensure(
            typeof prop.description === 'string' && prop.description.length > 0,
            `option "${key}" has no description`,
          );
          ensure('default' in prop, `option "${key}" documents no default`);
        }
        const defaults = detector.resolveOptions({});
        for (const key of Object.keys(props)) ensure(key in defaults, `option "${key}" gets no default`);
      },
    },
    {
      name: 'produces a result that validates against the schema and survives a JSON round trip',
      async run() {
        const result = await run(quick);
        checkValid(result, 'quick run');
        ensure(
          result.method.id === detector.id && result.method.kind === detector.kind,
          'method identity not recorded',
        );
        ensure(
          result.run.stopReason === 'completed',
          `quick run stopped by ${result.run.stopReason}; make quickOptions smaller`,
        );
        const back = readResult(JSON.stringify(result));
        ensure(isDeepStrictEqual(back, result), 'the result changes through JSON.stringify / readResult');
      },
    },
    {
      name: 'gives identical output for the same seed',
      async run() {
        const a = await run(quick, { seed: 11 });
        const b = await run(quick, { seed: 11 });
        ensure(
          isDeepStrictEqual(reproducibleView(a), reproducibleView(b)),
          'two runs with seed 11 differ (outside clock readings): some randomness bypasses the seeded generator',
        );
      },
    },
    {
      name: `stops within the time budget (${budgetSeconds} s + ${slack} s slack)`,
      async run() {
        const input = longFixture();
        const t0 = performance.now();
        const result = await run(config.longOptions, { budget: { maxSeconds: budgetSeconds } }, input);
        const wall = (performance.now() - t0) / 1000;
        checkValid(result, 'budgeted run');
        ensure(
          result.run.stopReason === 'time-budget',
          `longOptions ended with "${result.run.stopReason}" inside ${budgetSeconds} s: make them longer so the budget is tested`,
        );
        ensure(
          result.run.wallSeconds <= budgetSeconds + slack,
          `ran ${result.run.wallSeconds.toFixed(3)} s past a ${budgetSeconds} s budget`,
        );
        // Result assembly and validation come after the stop and grow with the findings (about 0.3 s
        // for 80,000 pairs), so the call as a whole gets a looser bound than the search itself.
        ensure(
          wall <= budgetSeconds + slack + 1,
          `run() returned after ${wall.toFixed(3)} s for a ${budgetSeconds} s budget`,
        );
      },
    },
    {
      name: 'stops promptly on AbortSignal with a valid partial result',
      async run() {
        const input = longFixture();
        const controller = new AbortController();
        const abortAfter = 0.2;
        const timer = setTimeout(() => controller.abort(), abortAfter * 1000);
        const t0 = performance.now();
        try {
          const result = await run(config.longOptions, { signal: controller.signal }, input);
          const wall = (performance.now() - t0) / 1000;
          checkValid(result, 'aborted run');
          ensure(
            result.run.aborted && result.run.stopReason === 'aborted',
            'an aborted run is not marked aborted',
          );
          ensure(
            wall <= abortAfter + slack + 0.3,
            `took ${wall.toFixed(3)} s to stop after an abort at ${abortAfter} s`,
          );
        } finally {
          clearTimeout(timer);
        }
        const pre = new AbortController();
        pre.abort();
        const early = await run(config.longOptions, { signal: pre.signal }, input);
        ensure(early.run.aborted, 'a run with an already aborted signal is not marked aborted');
        ensure(early.run.wallSeconds < slack + 0.5, 'a run with an already aborted signal did work anyway');
      },
    },
    badInput(
      'NaN in the data',
      (f) => {
        const x = f.dataset.x.slice();
        x[3] = Number.NaN;
        return rawWith(f, { x });
      },
      DataError,
      'DATA_NOT_FINITE',
    ),
    badInput(
      'rows of the wrong width',
      (f) => rawWith(f, { x: f.dataset.x.subarray(0, f.dataset.x.length - 1) }),
      DataError,
      'DATA_SHAPE',
    ),
    badInput(
      'an empty dataset',
      (f) => rawWith(f, { x: new Float64Array(0), y: new Int32Array(0) }),
      DataError,
      'DATA_EMPTY',
    ),
    badInput(
      'single-class labels',
      (f) => rawWith(f, { y: new Int32Array(f.dataset.n) }),
      DataError,
      'DATA_SINGLE_CLASS',
    ),
    badInput(
      'a schema with no protected attribute',
      (f) =>
        rawWith(f, {
          schema: {
            ...f.dataset.schema,
            attributes: f.dataset.schema.attributes.map((a) => ({ ...a, protected: false })),
          },
        }),
      SchemaError,
      'SCHEMA_NO_PROTECTED',
    ),
    badInput(
      'an attribute named __proto__',
      (f) =>
        rawWith(f, {
          schema: {
            ...f.dataset.schema,
            attributes: f.dataset.schema.attributes.map((a, i) =>
              i === 2 ? { ...a, name: '__proto__' } : a,
            ),
          },
        }),
      SchemaError,
      'SCHEMA_RESERVED_NAME',
    ),
    badInput(
      'an out-of-domain category code',
      (f) => {
        const x = f.dataset.x.slice();
        x[4] = 17;
        return rawWith(f, { x });
      },
      DataError,
      'DATA_OUT_OF_DOMAIN',
    ),
    {
      name: 'rejects unknown and ill-typed options with OptionsError',
      async run() {
        await expectTypedError(
          'an unknown option',
          () => run({ ...quick, definitelyNotAnOption: 1 } as unknown as Partial<O>),
          OptionsError,
          'OPTIONS_UNKNOWN',
        );
        const first = Object.keys(detector.optionsSchema.properties)[0];
        if (first !== undefined) {
          await expectTypedError(
            `option "${first}" given an object`,
            () => run({ ...quick, [first]: { wrong: true } } as Partial<O>),
            OptionsError,
            'OPTIONS_INVALID',
          );
        }
      },
    },
  ];

  if (detector.requiresModel) {
    checks.push(
      badInput('a missing model', (f) => ({ dataset: f.dataset }), ModelError, 'MODEL_MISSING'),
      badInput(
        'a model of the wrong width',
        (f) => ({
          dataset: f.dataset,
          model: { nFeatures: f.dataset.d + 1, nClasses: 2, predict: f.model.predict },
        }),
        ModelError,
        'MODEL_MISMATCH',
      ),
    );
  }

  if (detector.kind === 'individual') {
    checks.push(
      {
        name: 'respects the tested-sample (TSN) budget',
        async run() {
          const maxTested = 25;
          const result = await run(config.longOptions, { budget: { maxTested } });
          checkValid(result, 'TSN-budgeted run');
          ensure(
            result.metrics.tsn <= maxTested,
            `tested ${result.metrics.tsn} samples with a budget of ${maxTested}`,
          );
          ensure(
            result.run.stopReason === 'tested-budget',
            `stopped by "${result.run.stopReason}", not the TSN budget`,
          );
        },
      },
      {
        name: 'reports only real discriminatory pairs (re-queried) with consistent counts',
        async run() {
          const f = fixture();
          const result = await run(quick, {}, f);
          ensure(result.findings.kind === 'individual', 'an individual detector returned subgroup findings');
          const { pairs } = result.findings;
          ensure(
            pairs.length > 0,
            'no discriminatory pair found on the planted-bias fixture: nothing could be checked',
          );
          const m = result.metrics;
          if (!config.ownCounts) {
            ensure(m.pairs === pairs.length, `metrics.pairs ${m.pairs} but ${pairs.length} pairs reported`);
          }
          ensure(
            m.dsn <= m.tsn && m.dsn > 0 && (config.ownCounts || m.dsn <= pairs.length),
            `inconsistent TSN ${m.tsn} / DSN ${m.dsn} / pairs ${pairs.length}`,
          );
          ensure(Math.abs(m.sur - m.dsn / m.tsn) < 1e-12, 'SUR is not DSN / TSN');
          const attrs = f.dataset.schema.attributes;
          const d = attrs.length;
          const batch = new Float64Array(pairs.length * 2 * d);
          pairs.forEach((p, k) => {
            ensure(
              p.sample.length === d && p.counterfactual.length === d,
              `pair ${k} rows are not of width ${d}`,
            );
            const changed: string[] = [];
            for (let j = 0; j < d; j++) {
              if (p.sample[j] === p.counterfactual[j]) continue;
              ensure(attrs[j]!.protected, `pair ${k} differs in non-protected attribute "${attrs[j]!.name}"`);
              changed.push(attrs[j]!.name);
            }
            ensure(changed.length > 0, `pair ${k} does not differ at all`);
            ensure(
              isDeepStrictEqual(changed, p.changed),
              `pair ${k} lists changed ${p.changed} but differs in ${changed}`,
            );
            batch.set(p.sample, 2 * k * d);
            batch.set(p.counterfactual, (2 * k + 1) * d);
          });
          const labels = f.model.predict(batch);
          pairs.forEach((p, k) => {
            ensure(
              labels[2 * k] === p.sampleOutcome,
              `pair ${k}: the model gives the sample ${labels[2 * k]}, reported ${p.sampleOutcome}`,
            );
            ensure(
              labels[2 * k + 1] === p.counterfactualOutcome,
              `pair ${k}: the model gives the counterfactual ${labels[2 * k + 1]}, reported ${p.counterfactualOutcome}`,
            );
            ensure(labels[2 * k] !== labels[2 * k + 1], `pair ${k} gets the same decision on both sides`);
          });
        },
      },
    );
  } else {
    checks.push({
      name: 'reports subgroups whose sizes match their predicates on the data',
      async run() {
        const f = fixture();
        const result = await run(quick, {}, f);
        ensure(result.findings.kind === 'subgroup', 'a subgroup detector returned individual findings');
        const { subgroups } = result.findings;
        ensure(
          subgroups.length > 0,
          'no subgroup found on the planted-bias fixture: nothing could be checked',
        );
        ensure(result.metrics.dsn === subgroups.length, 'metrics.dsn is not the number of subgroups');
        const names = new Set(f.dataset.schema.attributes.map((a) => a.name));
        subgroups.forEach((s, k) => {
          ensure(s.rank === k + 1, `subgroup ${k} has rank ${s.rank}; ranks must be 1..k in order`);
          const seen = new Set<string>();
          for (const c of s.conditions) {
            ensure(names.has(c.attribute), `subgroup ${k} constrains unknown attribute "${c.attribute}"`);
            ensure(!seen.has(c.attribute), `subgroup ${k} constrains "${c.attribute}" twice`);
            seen.add(c.attribute);
          }
          if (s.members !== undefined) {
            // Explicit members define the subgroup; conditions, when given, must be exact.
            const rows = s.members;
            ensure(
              rows.length === s.size,
              `subgroup ${k} reports size ${s.size} but lists ${rows.length} members`,
            );
            ensure(
              rows.every(
                (r, q) => Number.isInteger(r) && r >= 0 && r < f.dataset.n && (q === 0 || r > rows[q - 1]!),
              ),
              `subgroup ${k} lists members that are not ascending row indices of the data`,
            );
            if (s.conditions.length === 0) return;
            const mask = memberMask(f.dataset, s.conditions);
            ensure(
              rows.length === countMembers(f.dataset, s.conditions) && rows.every((r) => mask[r] === 1),
              `subgroup ${k} lists members that are not exactly the rows satisfying its conditions`,
            );
            return;
          }
          const size = countMembers(f.dataset, s.conditions);
          ensure(
            size === s.size,
            `subgroup ${k} reports size ${s.size}, but ${size} rows satisfy its conditions`,
          );
        });
      },
    });
  }
  return checks;
}
