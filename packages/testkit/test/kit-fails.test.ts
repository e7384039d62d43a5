import { type Detector, type DiscoveryResult, defineIndividualDetector } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { ConformanceError, conformanceChecks } from '../src/index.js';
import { protectedGaps, randomTesting } from './reference-detectors.js';

/** Run the named check of the suite and return its error (undefined if it passed). */
async function failureOf<O extends object>(detector: Detector<O>, longOptions: Partial<O>, name: RegExp) {
  const check = conformanceChecks(detector, { longOptions }).find((c) => name.test(c.name));
  if (!check) throw new Error(`no check matches ${name}`);
  try {
    await check.run();
    return undefined;
  } catch (e) {
    return e;
  }
}

/** A detector that wraps a good one and tampers with its result. */
function tampered<O extends object>(
  inner: Detector<O>,
  edit: (r: DiscoveryResult) => DiscoveryResult,
): Detector<O> {
  return { ...inner, run: async (input, options, context) => edit(await inner.run(input, options, context)) };
}

describe('the conformance kit can fail', () => {
  it('catches a forged pair that differs in a non-protected attribute', async () => {
    const forged = tampered(randomTesting, (r) => {
      if (r.findings.kind !== 'individual') return r;
      const pairs = r.findings.pairs.map((p, k) =>
        k === 0
          ? { ...p, counterfactual: p.counterfactual.map((v, j) => (j === 2 ? (v === 1 ? 2 : 1) : v)) }
          : p,
      );
      return { ...r, findings: { ...r.findings, pairs } };
    });
    const e = await failureOf(forged, { samples: 1e9 }, /real discriminatory pairs/);
    expect(e).toBeInstanceOf(ConformanceError);
    expect(String(e)).toMatch(/non-protected attribute "age"/);
  });

  it('catches a reported outcome the model does not give', async () => {
    const flipped = tampered(randomTesting, (r) => {
      if (r.findings.kind !== 'individual') return r;
      const pairs = r.findings.pairs.map((p) => ({ ...p, sampleOutcome: 1 - p.sampleOutcome }));
      return { ...r, findings: { ...r.findings, pairs } };
    });
    expect(String(await failureOf(flipped, { samples: 1e9 }, /real discriminatory pairs/))).toMatch(
      /the model gives the sample/,
    );
  });

  it('catches a subgroup whose size does not match its predicate', async () => {
    const wrongSize = tampered(protectedGaps, (r) => {
      if (r.findings.kind !== 'subgroup') return r;
      const subgroups = r.findings.subgroups.map((s) => ({ ...s, size: s.size + 1 }));
      return { ...r, findings: { ...r.findings, subgroups } };
    });
    expect(String(await failureOf(wrongSize, { spinSeconds: 30 }, /sizes match/))).toMatch(
      /rows satisfy its conditions/,
    );
  });

  it('catches a detector that ignores the time budget', async () => {
    const stubborn = defineIndividualDetector<{ seconds: number }>({
      id: 'stubborn',
      version: '0.0.0',
      access: 'black-box',
      description: 'busy-waits regardless of the budget',
      optionsSchema: {
        type: 'object',
        properties: { seconds: { type: 'number', default: 1.2, description: 'busy time' } },
      },
      async search({ options }) {
        const until = performance.now() + options.seconds * 1000;
        while (performance.now() < until) {
          // deliberately never consults the run controller
        }
        return {};
      },
    });
    const e = await failureOf(stubborn, { seconds: 1.2 }, /time budget/);
    expect(e).toBeInstanceOf(ConformanceError);
  });

  it('catches randomness outside the seeded generator', async () => {
    let calls = 0;
    const drifting = tampered(randomTesting, (r) => ({ ...r, extras: { ...r.extras, call: calls++ } }));
    expect(String(await failureOf(drifting, { samples: 1e9 }, /same seed/))).toMatch(/differ/);
  });

  it('catches a detector that does not validate its input', async () => {
    const careless: Detector<Record<string, never>> = {
      ...(protectedGaps as unknown as Detector<Record<string, never>>),
      run: async () => ({}) as DiscoveryResult,
    };
    expect(String(await failureOf(careless, {}, /NaN/))).toMatch(/accepted it/);
  });
});
