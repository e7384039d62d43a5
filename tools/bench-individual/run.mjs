// One benchmark for every individual method (`pnpm bench:individual`): the literature's 13-attribute
// census encoding (integer inputs), one 64-32-16-8-4 network trained once, protected gender, race and
// age in turn, and every method under the same budget of distinct model queries (with a time cap). It
// prints DSN, TSN, distinct queries, DSN per distinct query and DSN per second, then the published
// figures, which come from other code, models and hardware and are printed only beside them.
//
// Flags: --queries N (distinct model queries per run, default 100000), --seconds S (time cap per run,
// default 10), --attributes sex,race,age, --methods adf,aequitas,expga,fliptest,kosei,limi,sg,
// --epochs E (network training epochs, default 30), --limi-generator tvae|vae|pca (default tvae),
// --limi-steps N (TVAE training steps, default LIMI's), --seed N (default 1). Data: FB_DATA_DIR, else
// ../shared/datasets. LIMI's generator depends on the rows only, costs no model query and is fitted
// once before the runs (its seconds are printed); its boundary labelling is paid from the query budget.
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadCensus13 } from '@fb/datasets';
import { adf } from '@fb/individual-adf';
import { aequitas } from '@fb/individual-aequitas';
import { expga } from '@fb/individual-expga';
import { fliptest } from '@fb/individual-fliptest';
import { kosei } from '@fb/individual-kosei';
import { fitLimiGenerator, limiWith } from '@fb/individual-limi';
import { sg } from '@fb/individual-sg';
import { fitMlp } from '@fb/models';
import { fitBenchModel, protectingOnly, readCensus13 } from '@fb/testkit';
import { published } from './published.mjs';

const { values: flags } = parseArgs({
  options: {
    queries: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    attributes: { type: 'string', default: 'sex,race,age' },
    methods: { type: 'string', default: 'adf,aequitas,expga,fliptest,kosei,limi,sg' },
    epochs: { type: 'string', default: '30' },
    'limi-generator': { type: 'string', default: 'tvae' },
    'limi-steps': { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
});
const maxQueries = Number(flags.queries);
const maxSeconds = Number(flags.seconds);
const seed = Number(flags.seed);

// Each method with the original code's settings where the defaults are not already those, and the
// iteration limits raised so that the shared budget, not a method's own limit, ends the run.
const methods = {
  adf: { detector: adf, options: {} },
  aequitas: { detector: aequitas, options: { globalIterations: 1_000_000 } },
  expga: { detector: expga, options: { thresholdRank: 7, generations: 100_000_000 } },
  fliptest: { detector: fliptest, options: {} },
  kosei: { detector: kosei, options: { globalIterations: 2000, localLimit: 1_000_000 } },
  limi: { detector: null, options: {} },
  sg: { detector: sg, options: { sampleLimit: 100_000_000 } },
};
const chosen = flags.methods.split(',');
for (const m of chosen)
  if (!methods[m]) throw new Error(`unknown method "${m}" (known: ${Object.keys(methods)})`);
const attributes = flags.attributes.split(',');

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}; load average ${load()} at start`,
);
console.log(
  `budget per run: ${maxQueries.toLocaleString('en')} distinct model queries, at most ${maxSeconds} s; seed ${seed}`,
);
const census = await readCensus13(loadCensus13);
const model = await fitBenchModel(
  census,
  (data) =>
    fitMlp(data, {
      layers: [64, 32, 16, 8, 4],
      categorical: 'ordinal',
      epochs: Number(flags.epochs),
      seed: 1,
    }),
  `${maxQueries} queries / ${maxSeconds} s per run`,
);

if (chosen.includes('limi')) {
  const generatorOptions = {
    generator: flags['limi-generator'],
    ...(flags['limi-steps'] ? { trainSteps: Number(flags['limi-steps']) } : {}),
  };
  const fitted = await fitLimiGenerator(census, generatorOptions, seed);
  methods.limi.detector = limiWith(fitted);
  const { diversity, naturalness: nat } = fitted.checks;
  console.log(
    `LIMI generator: ${fitted.kind}, fitted once in ${fitted.trainingSeconds.toFixed(1)} s (load ${load()}); ` +
      `${diversity.distinctRows} distinct rows per ${diversity.latentSamples} latent samples; distance to the ` +
      `nearest training row: generated ${nat.generated.toFixed(2)}, held-out ${nat.heldOut?.toFixed(2)}, ` +
      `uniform ${nat.uniform.toFixed(2)}`,
  );
}

const rows = [];
for (const m of chosen) {
  for (const attribute of attributes) {
    const dataset = protectingOnly(census, attribute);
    const { detector, options } = methods[m];
    const r = await detector.run({ dataset, model }, options, { seed, budget: { maxQueries, maxSeconds } });
    const { tsn, dsn, distinctQueries } = r.metrics;
    const seconds = r.run.wallSeconds;
    rows.push({ method: m, attribute, tsn, dsn, distinctQueries, seconds, stop: r.run.stopReason });
    console.log(
      `${m.padEnd(9)} ${attribute.padEnd(5)} DSN ${String(dsn).padStart(7)}  TSN ${String(tsn).padStart(7)}  ` +
        `queries ${String(distinctQueries).padStart(7)}  DSN/query ${(distinctQueries ? dsn / distinctQueries : 0).toFixed(4)}  ` +
        `DSN/s ${(dsn / seconds).toFixed(1).padStart(8)}  ${seconds.toFixed(1).padStart(5)} s (${r.run.stopReason})`,
    );
  }
}
console.log(`load average ${load()} at end`);

console.log('\nThis run (one model, one machine, the same budget for every method):\n');
console.log(
  '| method | attribute | DSN | TSN | distinct queries | DSN per query | DSN per second | seconds | stopped by |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(
    `| ${r.method} | ${r.attribute} | ${r.dsn} | ${r.tsn} | ${r.distinctQueries} | ` +
      `${(r.distinctQueries ? r.dsn / r.distinctQueries : 0).toFixed(4)} | ${(r.dsn / r.seconds).toFixed(1)} | ` +
      `${r.seconds.toFixed(1)} | ${r.stop} |`,
  );
}
console.log(
  '\nPublished figures (other code, models, hardware, budgets and counting; not comparable as ratios):\n',
);
console.log('| method | attribute | DSN | DSN per second | source |');
console.log('|---|---|---:|---:|---|');
for (const p of published.filter((q) => chosen.includes(q.method) && attributes.includes(q.attribute))) {
  console.log(
    `| ${p.method} | ${p.attribute} | ${Math.round(p.dsn).toLocaleString('en')} | ${p.perSecond.toFixed(2)} | ${p.source} |`,
  );
}
if (chosen.includes('fliptest')) console.log('| fliptest | - | - | - | no published census figure |');
