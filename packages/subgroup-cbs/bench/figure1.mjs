// Reproduces the trend of Figure 1 of the CBS paper (Boxer, McFowland & Neill 2023, Section 4): detection
// accuracy (Jaccard similarity of detected and injected subgroup of the protected class) of the four CBS
// scans, GerryFair's auditor and Multiaccuracy Boost's auditor on semi-synthetic data built from COMPAS
// covariates, as the injected bias grows. Left: predicted log-odds raised by mu_sep; right: true log-odds
// lowered by mu_suf. Run after building this package, @fb/subgroup-gerryfair and
// @fb/subgroup-multiaccuracy:
//   node bench/figure1.mjs [replications]
// Writes docs/figure1.svg and prints the table of the README. Data: FB_DATA_DIR or <repo>/../shared/datasets.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDataset, createRng, defineSchema, memberMask, RunController } from '@fb/core';
import { loadCompas } from '@fb/datasets';
import { gerryfair, gerryfairAudit } from '../../subgroup-gerryfair/dist/index.js';
import { multiaccuracy, multiaccuracyAudit } from '../../subgroup-multiaccuracy/dist/index.js';
import { cbs, conditionalBiasScan, jaccard, semiSynthetic } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const replications = Number(process.argv[2] ?? 40);
const MUS = [0, 0.25, 0.5, 0.75, 1, 1.5, 2];

/** The paper's COMPAS covariates (Section 5): sex, race, age (under 25 / 25+), charge degree, priors (0 / 1-5 / >5). */
async function compasCovariates() {
  const compas = await loadCompas({ dataDir });
  const { n, d, x, schema } = compas;
  const col = (name) => schema.attributes.findIndex((a) => a.name === name);
  const [sex, age, race, priors, charge] = ['sex', 'age', 'race', 'priors_count', 'c_charge_degree'].map(col);
  const out = new Float64Array(n * 5);
  for (let i = 0; i < n; i++) {
    const p = x[i * d + priors];
    out.set(
      [
        x[i * d + sex],
        x[i * d + race],
        x[i * d + age] === 0 ? 0 : 1,
        x[i * d + charge],
        p === 0 ? 0 : p <= 5 ? 1 : 2,
      ],
      5 * i,
    );
  }
  const raceAttr = schema.attributes[race];
  return createDataset({
    schema: defineSchema({
      attributes: [
        { name: 'sex', kind: 'categorical', protected: true, categories: schema.attributes[sex].categories },
        { name: 'race', kind: 'categorical', protected: false, categories: raceAttr.categories },
        { name: 'age', kind: 'categorical', protected: false, categories: ['under 25', '25+'] },
        {
          name: 'charge',
          kind: 'categorical',
          protected: false,
          categories: schema.attributes[charge].categories,
        },
        { name: 'priors', kind: 'categorical', protected: false, categories: ['0', '1-5', '>5'] },
      ],
      outcome: schema.outcome,
    }),
    x: out,
    y: compas.y,
    name: 'compas-covariates',
  });
}

/** Both biases make predictions over-estimate outcomes: separation scans look for I = P (or P_bin) above
 * its expectation, sufficiency scans for I = Y below it (appendix B.1 direction for the baselines). */
const METHODS = [
  { key: 'sep-pred', label: 'CBS separation, predictions', color: '#1f77b4', dash: '' },
  { key: 'sep-rec', label: 'CBS separation, recommendations', color: '#1f77b4', dash: '6 4' },
  { key: 'suf-pred', label: 'CBS sufficiency, predictions', color: '#d62728', dash: '' },
  { key: 'suf-rec', label: 'CBS sufficiency, recommendations', color: '#d62728', dash: '6 4' },
  { key: 'gerryfair', label: 'GerryFair (FP, higher; P)', color: '#2ca02c', dash: '' },
  { key: 'gerryfair-bin', label: 'GerryFair (FP, higher; P_bin)', color: '#2ca02c', dash: '6 4' },
  { key: 'multiaccuracy', label: 'Multiaccuracy Boost (over)', color: '#9467bd', dash: '' },
];
const SCANS = {
  'sep-pred': { scanType: 'separation-predictions', direction: 'positive' },
  'sep-rec': { scanType: 'separation-recommendations', direction: 'positive' },
  'suf-pred': { scanType: 'sufficiency-predictions', direction: 'negative' },
  'suf-rec': { scanType: 'sufficiency-recommendations', direction: 'negative' },
};

async function accuracies(data, seed) {
  const { dataset, p, injected } = data;
  const out = {};
  for (const [key, scan] of Object.entries(SCANS)) {
    const options = cbs.resolveOptions({
      ...scan,
      protectedAttribute: data.protectedAttribute,
      protectedValues: [data.protectedValue],
      permutations: 0,
    });
    const { subgroups } = await conditionalBiasScan(dataset, p, options, new RunController({ seed }));
    const detected = subgroups[0] ? memberMask(dataset, subgroups[0].conditions) : new Uint8Array(dataset.n);
    out[key] = jaccard(detected, injected);
  }
  // The baselines see every attribute, the sensitive one included, and their groups are cut to the
  // protected class before scoring (appendix B.1).
  const a = dataset.schema.attributes.findIndex((t) => t.name === data.protectedAttribute);
  const protectedOnly = (members) =>
    members.map((m, i) => (m && dataset.x[i * dataset.d + a] === data.protectedValue ? 1 : 0));
  const names = dataset.schema.attributes.map((t) => t.name);
  const gf = (predictions) =>
    gerryfairAudit(
      dataset,
      predictions,
      gerryfair.resolveOptions({ direction: 'higher', groupAttributes: names, gamma: 0, permutations: 0 }),
      new RunController({ seed }),
    );
  out.gerryfair = jaccard(protectedOnly((await gf(p)).members), injected);
  out['gerryfair-bin'] = jaccard(
    protectedOnly((await gf(p.map((v) => (v >= 0.5 ? 1 : 0)))).members),
    injected,
  );
  const ma = await multiaccuracyAudit(
    dataset,
    p,
    multiaccuracy.resolveOptions({ direction: 'over', replicas: 0 }),
    new RunController({ seed }),
  );
  out.multiaccuracy = jaccard(protectedOnly(ma.members), injected);
  return out;
}

const covariates = await compasCovariates();
const t0 = performance.now();
const results = { sep: {}, suf: {} };
for (const experiment of ['sep', 'suf']) {
  for (const mu of MUS) {
    const runs = Object.fromEntries(METHODS.map((m) => [m.key, []]));
    for (let r = 0; r < replications; r++) {
      const rng = createRng(`figure1-${experiment}-${r}`);
      const data = semiSynthetic(covariates, experiment === 'sep' ? { muSep: mu } : { muSuf: mu }, rng);
      const acc = await accuracies(data, r);
      for (const m of METHODS) runs[m.key].push(acc[m.key]);
    }
    results[experiment][mu] = Object.fromEntries(
      METHODS.map((m) => {
        const v = runs[m.key];
        const mean = v.reduce((s, u) => s + u, 0) / v.length;
        const sd = Math.sqrt(v.reduce((s, u) => s + (u - mean) ** 2, 0) / Math.max(1, v.length - 1));
        return [m.key, { mean, half: (1.96 * sd) / Math.sqrt(v.length) }];
      }),
    );
    process.stderr.write(`${experiment} mu=${mu} done (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
}
const seconds = (performance.now() - t0) / 1000;

// Table for the README.
for (const [experiment, title] of [
  ['sep', 'predicted log-odds raised by mu_sep'],
  ['suf', 'true log-odds lowered by mu_suf'],
]) {
  console.log(
    `\n${title} (mean Jaccard accuracy ± 95 % CI half-width, ${replications} datasets per point)\n`,
  );
  console.log(`| method | ${MUS.map((m) => `μ = ${m}`).join(' | ')} |`);
  console.log(`| --- | ${MUS.map(() => '---:').join(' | ')} |`);
  for (const m of METHODS) {
    const cells = MUS.map((mu) => {
      const { mean, half } = results[experiment][mu][m.key];
      return `${mean.toFixed(2)} ± ${half.toFixed(2)}`;
    });
    console.log(`| ${m.label} | ${cells.join(' | ')} |`);
  }
}
console.log(
  `\n${replications} replications x ${MUS.length} values x 2 experiments in ${seconds.toFixed(0)} s`,
);

// The figure: two panels, accuracy against mu, 95 % CI bars, shared legend.
const W = 920;
const H = 470;
const panel = { w: 360, h: 280, top: 50 };
const lefts = [70, 510];
const xOf = (left, mu) => left + (mu / MUS[MUS.length - 1]) * panel.w;
const yOf = (acc) => panel.top + (1 - acc) * panel.h;
const f = (v) => v.toFixed(1);
const parts = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
  '<title>Jaccard accuracy of detected vs injected subgroups against injected bias mu, CBS vs GerryFair vs Multiaccuracy Boost</title>',
  `<rect width="${W}" height="${H}" fill="white"/>`,
];
[
  ['sep', 'Predicted log-odds raised by', 'sep'],
  ['suf', 'True log-odds lowered by', 'suf'],
].forEach(([experiment, title, bias], k) => {
  const left = lefts[k];
  const muLabel = `μ<tspan baseline-shift="sub" font-size="9">${bias}</tspan>`;
  parts.push(
    `<text x="${f(left + panel.w / 2)}" y="30" text-anchor="middle" font-size="14">${title} ${muLabel}</text>`,
  );
  for (let g = 0; g <= 5; g++) {
    const y = yOf(g / 5);
    parts.push(`<line x1="${left}" y1="${f(y)}" x2="${left + panel.w}" y2="${f(y)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${left - 8}" y="${f(y + 4)}" text-anchor="end">${(g / 5).toFixed(1)}</text>`);
  }
  for (const mu of MUS) {
    parts.push(
      `<text x="${f(xOf(left, mu))}" y="${panel.top + panel.h + 18}" text-anchor="middle">${mu}</text>`,
    );
  }
  parts.push(
    `<rect x="${left}" y="${panel.top}" width="${panel.w}" height="${panel.h}" fill="none" stroke="#333"/>`,
    `<text x="${f(left + panel.w / 2)}" y="${panel.top + panel.h + 38}" text-anchor="middle">${muLabel}</text>`,
    `<text transform="translate(${left - 45} ${f(panel.top + panel.h / 2)}) rotate(-90)" text-anchor="middle">Jaccard accuracy</text>`,
  );
  for (const m of METHODS) {
    const pts = MUS.map((mu) => [xOf(left, mu), results[experiment][mu][m.key]]);
    parts.push(
      `<polyline fill="none" stroke="${m.color}" stroke-width="2"${m.dash ? ` stroke-dasharray="${m.dash}"` : ''} points="${pts.map(([x, r]) => `${f(x)},${f(yOf(r.mean))}`).join(' ')}"/>`,
    );
    for (const [x, r] of pts) {
      parts.push(
        `<line x1="${f(x)}" y1="${f(yOf(Math.min(1, r.mean + r.half)))}" x2="${f(x)}" y2="${f(yOf(Math.max(0, r.mean - r.half)))}" stroke="${m.color}" stroke-width="1"/>`,
        `<circle cx="${f(x)}" cy="${f(yOf(r.mean))}" r="3" fill="${m.color}"/>`,
      );
    }
  }
});
METHODS.forEach((m, k) => {
  const x = 70 + (k % 3) * 290;
  const y = H - 75 + Math.floor(k / 3) * 20;
  parts.push(
    `<line x1="${x}" y1="${y}" x2="${x + 28}" y2="${y}" stroke="${m.color}" stroke-width="2"${m.dash ? ` stroke-dasharray="${m.dash}"` : ''}/>`,
    `<text x="${x + 34}" y="${y + 4}">${m.label}</text>`,
  );
});
parts.push(
  `<text x="${W / 2}" y="${H - 10}" text-anchor="middle" fill="#555">Semi-synthetic COMPAS, ${replications} datasets per point, bars: 95 % CI</text>`,
  '</svg>',
);
writeFileSync(path.resolve(here, '../docs/figure1.svg'), `${parts.join('\n')}\n`);
