// LIMI on the 13-attribute census encoding, one protected attribute at a time, against the
// 64-32-16-8-4-2 MLP (MODEL=logistic for logistic regression). Prints discriminatory inputs found, the
// rate during probing (the paper times probing only) and overall, and the naturalness report.
// Budget per run: BENCH_SECONDS (default 180, preparation included). GENERATORS (vae,pca), ATTRIBUTES
// (sex,race,age) and VAE_EPOCHS (default 10) narrow the runs.
import { loadCensus13 } from '@fb/datasets';
import { fitLogisticRegression, fitMlp } from '@fb/models';
import { fitBenchModel, protectingOnly, readCensus13 } from '@fb/testkit';
import { limi } from '../dist/index.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 180);
const epochs = Number(process.env.VAE_EPOCHS ?? 10);
const generators = (process.env.GENERATORS ?? 'vae,pca').split(',');
const attributes = (process.env.ATTRIBUTES ?? 'sex,race,age').split(',');
const census = await readCensus13(loadCensus13);
const model = await fitBenchModel(
  census,
  (data) =>
    process.env.MODEL === 'logistic'
      ? fitLogisticRegression(data, { categorical: 'ordinal' })
      : fitMlp(data, {
          layers: [64, 32, 16, 8, 4],
          categorical: 'ordinal',
          epochs: Number(process.env.MLP_EPOCHS ?? 30),
          seed: 1,
        }),
  `${seconds} s per run`,
);

for (const generator of generators) {
  for (const attribute of attributes) {
    const dataset = protectingOnly(census, attribute);
    const r = await limi.run(
      { dataset, model },
      { generator, epochs },
      { seed: 1, budget: { maxSeconds: seconds } },
    );
    const { tsn, dsn, sur } = r.metrics;
    const x = r.extras;
    const t = x.timings;
    if (t.probeSeconds === undefined) {
      console.log(
        `${generator} ${attribute}: stopped (${r.run.stopReason}) before probing; timings ${JSON.stringify(t)}`,
      );
      continue;
    }
    const prep = t.generatorSeconds + t.boundarySeconds;
    const nat = x.naturalness;
    // The report is skipped when the run stops at its time budget (its rows would be cut short).
    // A distance is null when there were no rows to measure.
    const d = (v) => (v == null ? 'no rows' : v.toFixed(2));
    const naturalness = nat
      ? `generated ${d(nat.generated)}, discriminatory ${d(nat.discriminatory)}, real ${d(nat.real)}, ` +
        `uniform ${d(nat.uniform)}`
      : 'not measured (the run stopped at its budget)';
    console.log(
      `${generator.padEnd(3)} ${attribute.padEnd(4)} DSN ${String(dsn).padStart(7)} TSN ${String(tsn).padStart(7)} ` +
        `SUR ${(100 * sur).toFixed(1).padStart(5)} %  ${(dsn / t.probeSeconds).toFixed(1).padStart(7)} /s probing ` +
        `(${t.probeSeconds.toFixed(1)} s), ${(dsn / r.run.wallSeconds).toFixed(1)} /s overall; preparation ${prep.toFixed(1)} s ` +
        `(generator ${t.generatorSeconds.toFixed(1)} s); surrogate accuracy ${(100 * x.boundary.surrogateAccuracy).toFixed(1)} %; ` +
        `by probe ${JSON.stringify(x.discriminatoryByProbe)}; naturalness: ${naturalness} (${r.run.stopReason})`,
    );
  }
}
