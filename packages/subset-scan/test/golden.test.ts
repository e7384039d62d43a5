import { createHash } from 'node:crypto';
import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  type ScanConfig,
  type ScanData,
  type ScanResult,
  type ScoreFunction,
  SubsetScan,
  scanSubsets,
} from '../src/index.js';

/**
 * Scans of fixed data and seeds give the bytes (subset, score, parameter, sums, iterations) the scan
 * gave before its loops were reworked: the hashes were printed by the earlier scan on the same cases.
 */

/** Records over attributes of the given arities, with a planted subgroup, for one score function. */
function plantedData(n: number, arities: number[], score: ScoreFunction, seed: string): ScanData {
  const rng = createRng(seed);
  const codes = arities.map(() => new Int32Array(n));
  const observed = new Float64Array(n);
  const expected = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let z = -0.3;
    arities.forEach((k, m) => {
      const v = rng.int(0, k - 1);
      codes[m]![i] = v;
      z += 0.1 * (v - (k - 1) / 2) * (m % 2 === 0 ? 1 : -0.7);
    });
    const planted = codes[0]![i]! <= 1 && codes[1]![i] === 2;
    if (score === 'gaussian') {
      expected[i] = z;
      observed[i] = z + rng.normal(planted ? 0.4 : 0, 1);
    } else if (score === 'poisson') {
      const e = Math.exp(z) * 2;
      expected[i] = e;
      observed[i] = Math.round(e * (planted ? 1.6 : 1) + rng.normal(0, 1) * Math.sqrt(e));
      if (observed[i]! < 0) observed[i] = 0;
    } else {
      const p = score === 'berk-jones' ? 0.35 : 1 / (1 + Math.exp(-z));
      expected[i] = p;
      const odds = (p / (1 - p)) * (planted ? 1.8 : 1);
      observed[i] = rng.next() < odds / (1 + odds) ? 1 : 0;
    }
  }
  return { codes, arity: arities, observed, expected };
}

function digest(r: ScanResult): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(r.subset.map((v) => (v === null ? null : Array.from(v)))));
  h.update(
    new Uint8Array(
      Float64Array.of(r.score, r.t, r.parameter, r.size, r.observedSum, r.expectedSum, r.iterationsRun)
        .buffer,
    ),
  );
  return h.digest('hex').slice(0, 24);
}

function cases(): Record<string, string> {
  const out: Record<string, string> = {};
  const arities = [4, 3, 5, 2, 6, 3, 7, 1];
  for (const score of ['gaussian', 'bernoulli', 'poisson', 'berk-jones'] as const) {
    for (const n of [40, 700]) {
      const data = plantedData(n, arities, score, `golden-${score}-${n}`);
      for (const direction of ['positive', 'negative'] as const) {
        for (const penalty of [0, 1, 2.5]) {
          const config: ScanConfig = { score, direction, iterations: 8, penalty };
          out[`${score} ${n} ${direction} penalty ${penalty}`] = digest(
            scanSubsets(data, config, createRng(`${score}-${n}-${direction}-${penalty}`)),
          );
        }
        const contiguous = arities.map((_, m) => m % 3 === 2);
        out[`${score} ${n} ${direction} contiguous`] = digest(
          scanSubsets(data, { score, direction, iterations: 5, penalty: 1, contiguous }, createRng(`c-${n}`)),
        );
        if (score !== 'bernoulli') {
          out[`${score} ${n} ${direction} prefix`] = digest(
            scanSubsets(
              data,
              { score, direction, iterations: 5, penalty: 0, stepMethod: 'prefix' },
              createRng(`p-${n}`),
            ),
          );
        }
      }
    }
  }
  // Iteration by iteration, the best so far after each one (as a resampling test reads it).
  const data = plantedData(500, arities, 'gaussian', 'golden-iterations');
  const scan = new SubsetScan(
    data,
    { score: 'gaussian', direction: 'positive', iterations: 10, penalty: 1 },
    createRng(3),
  );
  const steps: string[] = [];
  while (!scan.finished) {
    scan.runIteration();
    steps.push(digest(scan.result()));
  }
  out['gaussian 500, after each iteration'] = createHash('sha256')
    .update(steps.join())
    .digest('hex')
    .slice(0, 24);
  // A scan interrupted before its second step.
  let asked = 0;
  out['gaussian 500, interrupted'] = digest(
    scanSubsets(
      data,
      { score: 'gaussian', direction: 'negative', iterations: 4, penalty: 1 },
      createRng(4),
      () => ++asked > 1,
    ),
  );
  return out;
}

const expected: Record<string, string> = {
  'gaussian 40 positive penalty 0': '1962f6ad5c5cadf48ab1791f',
  'gaussian 40 positive penalty 1': '4665c40e377020ab2602783d',
  'gaussian 40 positive penalty 2.5': '3414bbfed5b58b6c9af0a64a',
  'gaussian 40 positive contiguous': 'b3a08228dcdb7e15417e5184',
  'gaussian 40 positive prefix': 'db6768b6129b209848711894',
  'gaussian 40 negative penalty 0': '60699a92c2a65722e410605f',
  'gaussian 40 negative penalty 1': 'dfd4644f67c283d92aeb72af',
  'gaussian 40 negative penalty 2.5': 'dfd4644f67c283d92aeb72af',
  'gaussian 40 negative contiguous': '3ffda979b517d484add36703',
  'gaussian 40 negative prefix': '37265c63ebc40e821eb220d7',
  'gaussian 700 positive penalty 0': 'fa26bed8294ec364f2fbe0ad',
  'gaussian 700 positive penalty 1': '16c9098d1a78eb508a7a621c',
  'gaussian 700 positive penalty 2.5': 'f9fc28c8ba5d6848e690806b',
  'gaussian 700 positive contiguous': '6533a2fa1a82899eb029b70e',
  'gaussian 700 positive prefix': 'd3996730f6f064eee2f0ff70',
  'gaussian 700 negative penalty 0': 'e81325ff1807865b3b5db287',
  'gaussian 700 negative penalty 1': '63b0cfd29f08160051c28a67',
  'gaussian 700 negative penalty 2.5': '23c42dcb5df63e7c6eced8fd',
  'gaussian 700 negative contiguous': '397ab62a7342efaf06e0fb20',
  'gaussian 700 negative prefix': '36cc944c7ab794e27cc7889f',
  'bernoulli 40 positive penalty 0': '3215a5b00b9cd497a15feee6',
  'bernoulli 40 positive penalty 1': '7af943596a686a783561b5eb',
  'bernoulli 40 positive penalty 2.5': '44c5171bd37b472efd7aa6fb',
  'bernoulli 40 positive contiguous': '923ac60aa6b23899e923f095',
  'bernoulli 40 negative penalty 0': 'e5d9ce3287c59f55ce150574',
  'bernoulli 40 negative penalty 1': '48a32e6f9b77dff91954aeb4',
  'bernoulli 40 negative penalty 2.5': 'd8a3cf8a3b6faa2ab2a8dd5e',
  'bernoulli 40 negative contiguous': '017a6f55748274be2ffc6eba',
  'bernoulli 700 positive penalty 0': '3f5774ce16e0a731b4b7e4ff',
  'bernoulli 700 positive penalty 1': 'de2f99ff0aa7e71b9e23a92a',
  'bernoulli 700 positive penalty 2.5': 'ec52d5bdb832eb4c13072e2b',
  'bernoulli 700 positive contiguous': '2ab062d2d1dad5f8889c294f',
  'bernoulli 700 negative penalty 0': 'b08e6fc6a97c4769154130f9',
  'bernoulli 700 negative penalty 1': '2e1b7846bbca7d670af74a45',
  'bernoulli 700 negative penalty 2.5': '7d0b88ed5aa8fba2611ff698',
  'bernoulli 700 negative contiguous': '2294b21a775360542c9e09f9',
  'poisson 40 positive penalty 0': 'e7a122f30b4fd246dea674b7',
  'poisson 40 positive penalty 1': '5450888e5873750a2374d6e8',
  'poisson 40 positive penalty 2.5': 'cbb7c11849219fb6953b5ee5',
  'poisson 40 positive contiguous': '68492ba728b510d3f2903c9d',
  'poisson 40 positive prefix': 'def948ab52954f34f2aef9ce',
  'poisson 40 negative penalty 0': 'd922ce4e585098c938de8db3',
  'poisson 40 negative penalty 1': 'd80e4bf03b74fe8797d40cd9',
  'poisson 40 negative penalty 2.5': '1f707036f6ec09d7a467ab94',
  'poisson 40 negative contiguous': '3a49ea779ed2c65853b1ff5c',
  'poisson 40 negative prefix': 'e26e89dc3da5e2a4bff622af',
  'poisson 700 positive penalty 0': '806bbbeacee5c02506e61906',
  'poisson 700 positive penalty 1': '5de581d14f44a2ab385fd2bf',
  'poisson 700 positive penalty 2.5': '103d7e3a5f5c4e1885e2d4d0',
  'poisson 700 positive contiguous': 'dcd7a4e55cdbaf3d5a635289',
  'poisson 700 positive prefix': '50703d3338dcd77fc895c0f1',
  'poisson 700 negative penalty 0': 'b7e6f1d954c8109e0fb5ffb7',
  'poisson 700 negative penalty 1': 'a7b10ac666e72cb665bc99b2',
  'poisson 700 negative penalty 2.5': 'a7b10ac666e72cb665bc99b2',
  'poisson 700 negative contiguous': 'b31910cefa90619a4d9cb43a',
  'poisson 700 negative prefix': '711e2faa9fbfd07de4c8f04b',
  'berk-jones 40 positive penalty 0': 'e986ec0494f0461c631dd3b8',
  'berk-jones 40 positive penalty 1': '6430d98aa5ec84a915bc2399',
  'berk-jones 40 positive penalty 2.5': '36e0e5610857e2c5ef90490e',
  'berk-jones 40 positive contiguous': '48883faf97e8c0ab9f49b946',
  'berk-jones 40 positive prefix': '41783fb644cfc7377cdb0831',
  'berk-jones 40 negative penalty 0': '76d501cf501b93097e4bf045',
  'berk-jones 40 negative penalty 1': 'ae1f7281b12fa64ee570830f',
  'berk-jones 40 negative penalty 2.5': 'd81019f9de7b7252ec07cd92',
  'berk-jones 40 negative contiguous': '7f2b7ffdb717333f24f88001',
  'berk-jones 40 negative prefix': '6415dd8482de34a493facf3f',
  'berk-jones 700 positive penalty 0': '888ec1bbd8497820b10d44e1',
  'berk-jones 700 positive penalty 1': '38746012dfd761f6b5f50846',
  'berk-jones 700 positive penalty 2.5': '0c861b74dc970d87c5b417e2',
  'berk-jones 700 positive contiguous': '0f38e9896204598700470e0f',
  'berk-jones 700 positive prefix': 'b58bdde7ad8c01f923cf2110',
  'berk-jones 700 negative penalty 0': '52a5c9a6c5c259e67d21dd02',
  'berk-jones 700 negative penalty 1': 'eedb5bbeac70ece755f45ed5',
  'berk-jones 700 negative penalty 2.5': 'e99dac3a3613f458aaa519a5',
  'berk-jones 700 negative contiguous': '52f0a30cc868c2b00e23fd69',
  'berk-jones 700 negative prefix': 'a4b2e6686b9e233cbf693612',
  'gaussian 500, after each iteration': 'e2c3aed5928a38386dcfddd5',
  'gaussian 500, interrupted': '85abd997aa7d0b4e469260e6',
};

describe('subset scan: the same bytes as the earlier scan', () => {
  const got = cases();
  if (process.env.FB_PRINT_GOLDEN) console.log(JSON.stringify(got, null, 2));
  it.each(Object.keys(expected))('%s', (name) => {
    expect(got[name]).toBe(expected[name]);
  });
});
