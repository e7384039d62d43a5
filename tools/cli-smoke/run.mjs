// Packs @fb/cli and every workspace package it depends on, installs the tarballs into a fresh project
// outside the workspace with npm, and runs `npx fairbench audit` twice, timing each run:
// - Adult with a random forest in the ONNX graph skl2onnx writes for a scikit-learn pipeline (named
//   string and numeric inputs, ai.onnx.ml encoders and tree ensemble, ZipMap output), built by
//   tools/onnx-pipeline/adult_forest.py when python3-onnx and python3-sklearn are installed, else the
//   small committed one of @fb/models-onnx's tests;
// - COMPAS from its recorded decile scores, no model.
// Needs the datasets (FB_DATA_DIR or ../shared/datasets beside the checkout).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { installFresh, packInto, root, run, workspaceClosure } from '../packages/pack.mjs';

const dataDir = process.env.FB_DATA_DIR ?? resolve(root, '../shared/datasets');
if (!existsSync(join(dataDir, 'adult/adult.data.gz'))) {
  console.error(`cli-smoke: no datasets at ${dataDir} (set FB_DATA_DIR)`);
  process.exit(1);
}
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'fairbench-cli-'));

try {
  const tarballs = packInto(work, workspaceClosure(['@fb/cli']));
  const project = join(work, 'project');
  let t = Date.now();
  installFresh(project, tarballs, ['@fb/cli']);
  // ONNX Runtime is an optional peer of @fb/cli, installed beside it as its README says (the version
  // @fb/models-onnx tests against).
  const ort = JSON.parse(readFileSync(join(root, 'packages/models-onnx/package.json'), 'utf8'))
    .devDependencies['onnxruntime-node'];
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `onnxruntime-node@${ort}`], project);
  console.log(
    `installed ${tarballs.size} packed packages and their dependencies in ${((Date.now() - t) / 1000).toFixed(1)} s`,
  );

  // Adult as a CSV with a header (the original file has none).
  const header =
    'age,workclass,fnlwgt,education,education-num,marital-status,occupation,relationship,race,sex,capital-gain,capital-loss,hours-per-week,native-country,income';
  const adult = gunzipSync(readFileSync(join(dataDir, 'adult/adult.data.gz'))).toString('utf8');
  writeFileSync(join(project, 'adult.csv'), `${header}\n${adult.replaceAll(', ', ',').trim()}\n`);

  const onnx = join(project, 'adult-forest.onnx');
  const python = spawnSync(
    '/usr/bin/python3',
    [
      join(root, 'tools/onnx-pipeline/adult_forest.py'),
      join(dataDir, 'adult/adult.data.gz'),
      onnx,
      '20',
      '8',
    ],
    { encoding: 'utf8' },
  );
  if (python.status === 0) console.log(`model: ${python.stdout.trim()}`);
  else {
    run('cp', [join(root, 'packages/models-onnx/test/fixtures/adult-forest.onnx'), onnx], project);
    console.log(
      'model: python3-onnx/python3-sklearn not available, using the committed 6-tree forest of @fb/models-onnx',
    );
  }

  const audits = [
    [
      'adult, random forest through ONNX',
      [
        'adult.csv',
        '--protected',
        'sex,race,age',
        '--outcome',
        'income=>50K',
        '--model',
        'adult-forest.onnx',
        '--time',
        '25',
        '--out',
        'adult-report',
      ],
      'adult-report',
    ],
    [
      'compas, recorded decile scores',
      [
        join(dataDir, 'compas/compas-scores-two-years.csv.gz'),
        '--protected',
        'sex,race,age',
        '--outcome',
        'two_year_recid=0',
        '--columns',
        'sex,age,race,juv_fel_count,juv_misd_count,priors_count,c_charge_degree',
        '--scores',
        'decile_score',
        '--threshold',
        '5',
        '--higher-is',
        'unfavourable',
        '--positive',
        '1',
        '--time',
        '25',
        '--out',
        'compas-report',
      ],
      'compas-report',
    ],
  ];
  for (const [title, args, out] of audits) {
    t = Date.now();
    run('npx', ['--no-install', 'fairbench', 'audit', ...args, '--quiet'], project);
    const seconds = (Date.now() - t) / 1000;
    const report = JSON.parse(readFileSync(join(project, out, 'report.json'), 'utf8'));
    const statuses = report.methods.map((m) => `${m.id} ${m.status}`).join(', ');
    const top = report.topSubgroups[0];
    if (!existsSync(join(project, out, 'report.html')) || !top)
      throw new Error(`${title}: no report or no subgroup`);
    console.log(
      `${title}: ${seconds.toFixed(1)} s wall (command start to report written); ${statuses}; top subgroup (${top.method}): ${top.subgroup}`,
    );
  }
  console.log(
    `machine load (1, 5, 15 min): ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ')}`,
  );
  if (keep) console.log(`kept: ${project}`);
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
}
