// LIMI's generators on an `@fb/synth` dataset with categorical attributes only (synth's default generated
// schema): the fit's seconds, the diversity check (distinct decoded rows per 10,000 latent samples), the
// naturalness check against held-out rows, then a LIMI run per generator against a logistic regression of
// the data under one query budget: candidates decoded, distinct tested inputs, DSN, what stopped it.
// `pnpm --filter @fb/individual-limi... build && node bench/diversity.mjs`; SYNTH_SEED (default 1),
// ATTRIBUTES (default 10), QUERIES (default 60000), SECONDS (time cap of each run, default 60), GENERATORS
// (default tvae,vae,pca).
// `@fb/synth` is a workspace sibling, not a dependency of this package: it is read from its build.
import { loadavg } from 'node:os';
import { fitLogisticRegression } from '@fb/models';
import { generate } from '../../synth/dist/index.js';
import { fitLimiGenerator, limiWith } from '../dist/index.js';

const seed = Number(process.env.SYNTH_SEED ?? 1);
const maxQueries = Number(process.env.QUERIES ?? 60000);
const maxSeconds = Number(process.env.SECONDS ?? 60);
const generators = (process.env.GENERATORS ?? 'tvae,vae,pca').split(',');
const { dataset } = generate({ seed, attributes: Number(process.env.ATTRIBUTES ?? 10) });
const load = () => loadavg()[0].toFixed(1);
const model = fitLogisticRegression(dataset);
console.log(
  `synth seed ${seed}: ${dataset.n} rows, ${dataset.d} categorical attributes ` +
    `(${dataset.schema.attributes.filter((a) => a.protected).length} protected); load ${load()}`,
);
for (const generator of generators) {
  const fitted = await fitLimiGenerator(dataset, { generator }, 1);
  const { diversity, naturalness: nat } = fitted.checks;
  const r = await limiWith(fitted).run(
    { dataset, model },
    {},
    { seed: 1, budget: { maxQueries, maxSeconds } },
  );
  const x = r.extras;
  console.log(
    `${generator.padEnd(4)} fit ${fitted.trainingSeconds.toFixed(1)} s (load ${load()}); ` +
      `distinct rows ${diversity.distinctRows} / ${diversity.latentSamples}; nearest training row: generated ` +
      `${nat.generated.toFixed(2)}, held-out ${nat.heldOut?.toFixed(2)}${nat.heldOutInTraining ? ' (seen in training)' : ''}, ` +
      `uniform ${nat.uniform.toFixed(2)} | run: boundary ${x.boundary.queries} queries, candidates ${x.candidates ?? 0}, ` +
      `tested ${r.metrics.tsn}, DSN ${r.metrics.dsn}, ${r.metrics.distinctQueries} queries, ` +
      `${r.run.wallSeconds.toFixed(1)} s (${r.run.stopReason})`,
  );
}
