// The install routes as a user meets them, from a real npm registry on this machine:
//
// 1. Verdaccio starts on loopback with a throwaway storage folder. `@fb/*` names are served only from
//    that storage (never looked up upstream); every other name is proxied to the npm registry npm is
//    configured with. `changeset publish` (the project's release route, `pnpm publish` per package,
//    workspace ranges rewritten) publishes every public package of the workspace to it. Then the install
//    commands below run once through it, so that the storage holds every third-party tarball they need.
// 2. Verdaccio restarts on the same storage with no uplink at all, inside a network namespace that has
//    only loopback (`unshare -rn`) when the kernel allows one. There, in fresh folders with an empty npm
//    cache and npm's default settings but the registry, the install commands of the READMEs run as
//    written: `npm install @fb/cli` (measured with `du -sb node_modules`, at most 40 MB, no install
//    script in the tree), `npx fairbench audit` on a small CSV whose group rates are checked against
//    the ones computed here, `--train lr`, `--model` without ONNX Runtime (a typed error naming what to
//    install), `npx @fb/cli` in an empty folder, and the root README's library snippet.
//
// Needs the packages built (`pnpm smoke:registry` builds first). Cleans up its server and folders on
// success, failure and Ctrl-C; `--keep` keeps the folders.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { publishedPackages, root, workspacePackages } from '../packages/pack.mjs';

const here = import.meta.dirname;
const verdaccioBin = join(here, 'node_modules/.bin/verdaccio');
const MAX_BYTES = 40e6;
const log = (s) => console.log(`registry-smoke: ${s}`);

// ---------------------------------------------------------------------------------------------------
// The server.

function verdaccioConfig(work, port, online) {
  const upstream = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim();
  return [
    `storage: ${join(work, 'storage')}`,
    'auth:',
    '  htpasswd:',
    `    file: ${join(work, 'htpasswd')}`,
    ...(online ? ['uplinks:', '  upstream:', `    url: ${upstream}`, '    timeout: 60s'] : []),
    'packages:',
    "  '@fb/*':",
    '    access: $all',
    '    publish: $authenticated',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    ...(online ? ['    proxy: upstream'] : []),
    'web:',
    '  enable: false',
    'max_body_size: 50mb',
    'log: { type: stdout, format: pretty, level: warn }',
    `listen: 127.0.0.1:${port}`,
    '',
  ].join('\n');
}

/** Starts Verdaccio in its own process group; resolves once it answers its ping. */
async function startVerdaccio(work, port, online) {
  const config = join(work, online ? 'config-online.yaml' : 'config-offline.yaml');
  writeFileSync(config, verdaccioConfig(work, port, online));
  const out = [];
  const child = spawn(verdaccioBin, ['--config', config], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const s of [child.stdout, child.stderr]) s.on('data', (d) => out.push(d));
  let exited = null;
  const gone = new Promise((done) =>
    child.on('exit', (code, signal) => {
      exited = code ?? signal;
      done();
    }),
  );
  const server = {
    url: `http://127.0.0.1:${port}/`,
    /** SIGTERM to its process group, SIGKILL after 5 s; resolves once it has exited. */
    stop: () => stopGroup(child, gone, () => exited !== null),
    log: () => Buffer.concat(out).toString('utf8'),
  };
  servers.add(server);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`verdaccio exited (${exited}):\n${server.log()}`);
    try {
      if ((await fetch(`${server.url}-/ping`)).ok) return server;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`verdaccio did not answer within 60 s:\n${server.log()}`);
}

const servers = new Set();
const stopAll = () => Promise.all([...servers].map((s) => s.stop()));

async function stopGroup(child, gone, hasExited) {
  if (hasExited()) return;
  const signal = (s) => {
    try {
      process.kill(-child.pid, s);
    } catch {}
  };
  signal('SIGTERM');
  let timer;
  await Promise.race([gone, new Promise((done) => (timer = setTimeout(done, 5000)))]);
  clearTimeout(timer);
  if (!hasExited()) {
    signal('SIGKILL');
    await gone;
  }
}

/** fetch, once more when the server closed a kept-alive connection under it. */
async function get(url, init) {
  try {
    return await fetch(url, init);
  } catch {
    return await fetch(url, init);
  }
}

function freePort() {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

/** npm's settings for a user of the local registry: its address and a cache of their own, nothing else. */
function npmEnv(work, registry, cacheName, extra = {}) {
  const userconfig = join(work, `npmrc-${cacheName}`);
  writeFileSync(userconfig, extra.npmrc ?? '');
  const globalconfig = join(work, 'npmrc-global');
  writeFileSync(globalconfig, '');
  const env = { ...process.env };
  // Settings this process inherits from pnpm or a user's environment are not a fresh user's.
  for (const k of Object.keys(env)) if (/^npm_/i.test(k) || /^pnpm_/i.test(k)) delete env[k];
  return {
    ...env,
    npm_config_registry: registry,
    npm_config_cache: join(work, `cache-${cacheName}`),
    npm_config_userconfig: userconfig,
    npm_config_globalconfig: globalconfig,
    // pnpm (which `changeset publish` runs) reads its own variables, not npm's.
    pnpm_config_registry: registry,
    pnpm_config_userconfig: userconfig,
    pnpm_config_globalconfig: globalconfig,
    ...(extra.env ?? {}),
  };
}

function sh(command, cwd, env, { allowFail = false } = {}) {
  const t = Date.now();
  const r = spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8', maxBuffer: 64e6 });
  const seconds = (Date.now() - t) / 1000;
  if (r.status !== 0 && !allowFail)
    throw new Error(`\`${command}\` in ${cwd} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return { ...r, seconds };
}

// ---------------------------------------------------------------------------------------------------
// The install commands the READMEs give, read from them so that what runs is what they say.

/**
 * The lines of the `nth` ```sh block (from 0) under `heading` in `file`, before the next heading of any
 * level (comments and blank lines dropped, continued lines joined).
 */
export function shBlock(file, heading, nth = 0) {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file}: no heading "${heading}"`);
  const section = text.slice(start + heading.length + 2).split(/\n#+ /)[0];
  const block = [...section.matchAll(/```sh\n([\s\S]*?)```/g)][nth];
  if (!block) throw new Error(`${file}: no sh block ${nth + 1} under "${heading}"`);
  return block[1]
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** The first ```js block under `heading` in `file`. */
function jsBlock(file, heading) {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  const block = /```js\n([\s\S]*?)```/.exec(text.slice(start));
  if (start < 0 || !block) throw new Error(`${file}: no js block under "${heading}"`);
  return block[1];
}

const cliReadme = join(root, 'packages/cli/README.md');
const rootReadme = join(root, 'README.md');
const onnxReadme = join(root, 'packages/models-onnx/README.md');
const INSTALL = '## Install';
const LIBRARY = '### Auditing your own model';
const FROM_CODE = '## From code';

// ---------------------------------------------------------------------------------------------------
// The small CSV: 600 applicants, recorded decisions whose rate differs by sex.

function writeApplicants(file) {
  const rows = ['sex,age,income,hours,approved,decision'];
  let s = 7;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  for (let i = 0; i < 600; i++) {
    const sex = i % 3 === 0 ? 'female' : 'male';
    const age = 20 + Math.floor(next() * 45);
    const income = Math.floor(next() * 10);
    const hours = 20 + Math.floor(next() * 40);
    const approved = income + (hours > 40 ? 2 : 0) + next() * 3 > 6 ? 'yes' : 'no';
    const decision = income + (hours > 40 ? 2 : 0) - (sex === 'female' ? 2 : 0) > 5 ? 'yes' : 'no';
    rows.push([sex, age, income, hours, approved, decision].join(','));
  }
  writeFileSync(file, `${rows.join('\n')}\n`);
  // The group rates the audit must report: the share of favourable decisions per sex.
  const rates = {};
  for (const sex of ['female', 'male']) {
    const own = rows.slice(1).filter((r) => r.startsWith(`${sex},`));
    rates[`sex=${sex}`] = {
      size: own.length,
      rate: own.filter((r) => r.endsWith(',yes')).length / own.length,
    };
  }
  return rates;
}

// ---------------------------------------------------------------------------------------------------
// Step 1: publish and fill the storage (upstream reachable through the proxy).

async function publishAndPrefill(work, port) {
  const server = await startVerdaccio(work, port, true);
  try {
    // A user to publish as (Verdaccio's htpasswd registration), and its token in the npmrc.
    const res = await get(`${server.url}-/user/org.couchdb.user:release`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'release', password: 'release-smoke' }),
    });
    const { token } = await res.json();
    if (!res.ok || !token) throw new Error(`cannot create the publishing user: ${res.status}`);
    const host = server.url.replace(/^http:/, '');
    const env = npmEnv(work, server.url, 'publish', { npmrc: `${host}:_authToken=${token}\n` });

    // Never the public registry: both clients must name this one before anything is published.
    for (const client of ['npm', 'pnpm']) {
      const seen = sh(`${client} config get registry`, root, env).stdout.trim();
      if (seen !== server.url) throw new Error(`${client} would publish to ${seen}, not ${server.url}`);
    }
    let t = Date.now();
    sh(`${join(root, 'node_modules/.bin/changeset')} publish --no-git-tag`, root, env);
    const expected = publishedPackages();
    const missing = [];
    for (const name of expected) {
      const version = workspacePackages().get(name).manifest.version;
      const r = await get(`${server.url}${name.replace('/', '%2f')}`);
      const doc = r.ok ? await r.json() : null;
      if (!doc?.versions?.[version]) missing.push(`${name}@${version}`);
    }
    if (missing.length) throw new Error(`changeset publish left out ${missing.join(', ')}`);
    log(`changeset publish: ${expected.length} packages in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    // Every install command of the test, once, through the proxy: the storage keeps the tarballs.
    t = Date.now();
    const fill = join(work, 'prefill');
    const installs = (lines) => lines.filter((l) => l.startsWith('npm install'));
    for (const [i, cmds] of [
      [...installs(shBlock(cliReadme, INSTALL)), ...installs(shBlock(cliReadme, INSTALL, 1))],
      installs(shBlock(rootReadme, LIBRARY)),
      installs(shBlock(onnxReadme, INSTALL)),
    ].entries()) {
      mkdirSync(join(fill, String(i)), { recursive: true });
      for (const cmd of cmds) sh(cmd, join(fill, String(i)), npmEnv(work, server.url, 'prefill'));
    }
    log(`storage filled through the proxy in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------------
// Step 2: the installs, offline from everything but the registry.

function installedScripts(nodeModules) {
  const found = [];
  const visit = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name === '.bin') continue;
      const p = join(dir, e.name);
      if (e.name.startsWith('@')) {
        visit(p);
        continue;
      }
      try {
        const m = JSON.parse(readFileSync(join(p, 'package.json'), 'utf8'));
        const s = ['preinstall', 'install', 'postinstall'].filter((k) => m.scripts?.[k]);
        if (s.length) found.push(`${m.name} (${s.join(', ')})`);
      } catch {}
      try {
        visit(join(p, 'node_modules'));
      } catch {}
    }
  };
  visit(nodeModules);
  return found;
}

async function offlineInstalls(work, port) {
  const server = await startVerdaccio(work, port, false);
  try {
    const check = (ok, message) => {
      if (!ok) throw new Error(message);
    };

    // `npm install @fb/cli` in a fresh folder, then the CLI README's commands after it.
    const project = join(work, 'project');
    mkdirSync(project);
    const rates = writeApplicants(join(project, 'data.csv'));
    const env = npmEnv(work, server.url, 'user');
    const [install, ...rest] = shBlock(cliReadme, INSTALL);
    check(install === 'npm install @fb/cli', `the CLI README's install block starts with "${install}"`);
    const r = sh(install, project, env);
    log(`${install}: ${r.seconds.toFixed(1)} s`);
    const bytes = Number(sh('du -sb node_modules', project, env).stdout.split('\t')[0]);
    const count = JSON.parse(sh('npm ls --all --json', project, env).stdout);
    const flat = new Set();
    const walk = (deps) => {
      for (const [n, d] of Object.entries(deps ?? {})) {
        if (d.version) flat.add(`${n}@${d.version}`); // an optional peer not installed has none
        walk(d.dependencies);
      }
    };
    walk(count.dependencies);
    log(`du -sb node_modules: ${bytes} B (${(bytes / 1e6).toFixed(1)} MB), ${flat.size} packages`);
    const largest = sh('du -sb node_modules/* node_modules/@*/* | sort -rn | head -5', project, env).stdout;
    log(`largest:\n${largest.trimEnd()}`);
    check(bytes <= MAX_BYTES, `@fb/cli installs ${(bytes / 1e6).toFixed(1)} MB, more than 40 MB`);
    const scripts = installedScripts(join(project, 'node_modules'));
    check(scripts.length === 0, `install scripts in the tree: ${scripts.join('; ')}`);
    check(
      !existsSync(join(project, 'node_modules/onnxruntime-node')),
      'onnxruntime-node is installed with @fb/cli',
    );

    const help = sh('npx fairbench --help', project, env);
    check(/fairbench audit/.test(help.stdout), `--help printed:\n${help.stdout}`);
    log(`npx fairbench --help: ${help.seconds.toFixed(1)} s`);

    // The README's audit on recorded decisions: the group rates are the ones counted above.
    for (const cmd of rest) {
      const a = sh(cmd, project, env);
      log(`${cmd}: ${a.seconds.toFixed(1)} s`);
    }
    const report = JSON.parse(readFileSync(join(project, 'fairbench-report/report.json'), 'utf8'));
    for (const [group, { size, rate }] of Object.entries(rates)) {
      const row = report.groupMetrics.byGroup.find((g) => g.group === group);
      check(
        row && row.size === size && Math.abs(row.selectionRate.value - rate) < 1e-12,
        `${group}: the report says ${JSON.stringify(row)}, the data ${size} rows at rate ${rate}`,
      );
    }
    log(
      `group rates as counted: ${Object.entries(rates)
        .map(([g, v]) => `${g} ${v.rate.toFixed(4)} (${v.size})`)
        .join(', ')}`,
    );

    // The CLI README's code route as CommonJS (`require('@fb/cli')`): the same report, rewritten.
    rmSync(join(project, 'fairbench-report'), { recursive: true, force: true });
    writeFileSync(join(project, 'from-code.cjs'), jsBlock(cliReadme, FROM_CODE));
    const fromCode = sh('node from-code.cjs', project, env);
    const again = JSON.parse(readFileSync(join(project, 'fairbench-report/report.json'), 'utf8'));
    check(
      JSON.stringify(again.groupMetrics) === JSON.stringify(report.groupMetrics),
      "require('@fb/cli'): different group metrics from the command's",
    );
    log(`require('@fb/cli') and audit(...): ${fromCode.seconds.toFixed(1)} s, the command's group metrics`);

    // A model trained by the CLI: individual testing runs on it.
    const trained = sh(
      'npx fairbench audit data.csv --protected sex --outcome approved=yes --columns sex,income,hours,approved --train lr --time 4 --out trained --quiet',
      project,
      env,
    );
    const t = JSON.parse(readFileSync(join(project, 'trained/report.json'), 'utf8'));
    const statuses = t.methods.map((m) => `${m.id} ${m.status}`).join(', ');
    const tested = t.groupMetrics.byGroup.reduce((n, g) => n + g.size, 0);
    check(tested === 180, `--train lr audited ${tested} held-out rows, not 180 (30% of 600)`);
    log(`--train lr: ${trained.seconds.toFixed(1)} s; ${statuses}`);

    // ONNX without its runtime: a typed error that says what to install.
    writeFileSync(
      join(project, 'model.onnx'),
      readFileSync(join(root, 'packages/models-onnx/test/fixtures/adult-forest.onnx')),
    );
    const onnx = sh(
      'npx fairbench audit data.csv --protected sex --outcome approved=yes --model model.onnx --out onnx --quiet',
      project,
      env,
      { allowFail: true },
    );
    check(
      onnx.status !== 0 &&
        /MODEL_MISSING/.test(onnx.stderr) &&
        /npm install onnxruntime-node/.test(onnx.stderr),
      `--model without onnxruntime-node exited ${onnx.status}:\n${onnx.stderr}`,
    );
    log(`--model without onnxruntime-node: exit ${onnx.status}, ${onnx.stderr.trim().split('\n').at(-1)}`);

    // The README's ONNX Runtime install, then a scikit-learn forest through it on 25 Adult rows: the
    // group rates are those of the decisions scikit-learn's own probabilities give (recorded beside
    // the model when it was exported).
    for (const cmd of shBlock(cliReadme, INSTALL, 1)) {
      const o = sh(cmd, project, env);
      log(`${cmd}: ${o.seconds.toFixed(1)} s`);
    }
    const withOrt = Number(sh('du -sb node_modules', project, env).stdout.split('\t')[0]);
    log(`du -sb node_modules with onnxruntime-node: ${withOrt} B (${(withOrt / 1e6).toFixed(1)} MB)`);
    const expected = JSON.parse(
      readFileSync(join(root, 'packages/models-onnx/test/fixtures/adult-forest.onnx.expected.json'), 'utf8'),
    );
    const sexAt = expected.columns.indexOf('sex');
    const adultRows = expected.rows.map((r, i) => [...r, expected.classes[i % 3 === 0 ? 1 : 0]].join(','));
    writeFileSync(
      join(project, 'adult.csv'),
      `${[...expected.columns, 'income'].join(',')}\n${adultRows.join('\n')}\n`,
    );
    const byModel = sh(
      "npx fairbench audit adult.csv --protected sex --outcome 'income=>50K' --model model.onnx --time 3 --out onnx --quiet",
      project,
      env,
    );
    const onnxReport = JSON.parse(readFileSync(join(project, 'onnx/report.json'), 'utf8'));
    for (const sex of new Set(expected.rows.map((r) => r[sexAt]))) {
      const own = expected.rows
        .map((r, i) => [r, expected.probabilities[i]])
        .filter(([r]) => r[sexAt] === sex);
      const rate = own.filter(([, p]) => p[1] > p[0]).length / own.length;
      const row = onnxReport.groupMetrics.byGroup.find((g) => g.group === `sex=${sex}`);
      check(
        row && row.size === own.length && Math.abs(row.selectionRate.value - rate) < 1e-12,
        `--model: sex=${sex} has ${JSON.stringify(row)} in the report, ${own.length} rows at ${rate} by scikit-learn`,
      );
    }
    log(
      `--model with onnxruntime-node: ${byModel.seconds.toFixed(1)} s; ${onnxReport.methods.map((m) => `${m.id} ${m.status}`).join(', ')}`,
    );

    // `npx @fb/cli` in an empty folder: npx installs it from the registry itself.
    const once = join(work, 'npx');
    mkdirSync(once);
    writeApplicants(join(once, 'data.csv'));
    const npx = sh(
      'npx @fb/cli audit data.csv --protected sex --outcome approved=yes --predictions decision --quiet',
      once,
      npmEnv(work, server.url, 'npx'),
    );
    const viaNpx = JSON.parse(readFileSync(join(once, 'fairbench-report/report.json'), 'utf8'));
    check(
      viaNpx.groupMetrics.byGroup.find((g) => g.group === 'sex=female')?.selectionRate.value ===
        rates['sex=female'].rate,
      'npx @fb/cli: a different female selection rate',
    );
    log(`npx @fb/cli audit (installing it first): ${npx.seconds.toFixed(1)} s`);

    // The root README's library route: its install command and its snippet as an ES module.
    const lib = join(work, 'library');
    mkdirSync(lib);
    const libEnv = npmEnv(work, server.url, 'library');
    for (const cmd of shBlock(rootReadme, LIBRARY)) sh(cmd, lib, libEnv);
    writeFileSync(join(lib, 'index.mjs'), jsBlock(rootReadme, LIBRARY));
    const out = sh('node index.mjs', lib, libEnv).stdout;
    check(/dsn: [1-9]/.test(out) && /tsn: [1-9]/.test(out), `the README's snippet printed:\n${out}`);
    log(
      `the root README's snippet: ${out
        .split('\n')
        .find((l) => l.includes('dsn'))
        ?.trim()}`,
    );

    // @fb/models-onnx's README install, as written, then its loader on the pipeline model: ONNX
    // Runtime reads the graph and the loader asks for the schema its 14 named inputs need.
    const ort = join(work, 'models-onnx');
    mkdirSync(ort);
    const ortEnv = npmEnv(work, server.url, 'models-onnx');
    for (const cmd of shBlock(onnxReadme, INSTALL)) sh(cmd, ort, ortEnv);
    writeFileSync(
      join(ort, 'model.onnx'),
      readFileSync(join(root, 'packages/models-onnx/test/fixtures/adult-forest.onnx')),
    );
    writeFileSync(
      join(ort, 'load.mjs'),
      "import { loadOnnxClassifier } from '@fb/models-onnx';\nawait loadOnnxClassifier('model.onnx').catch((e) => console.log(e.code, e.message));\n",
    );
    const loaded = sh('node load.mjs', ort, ortEnv).stdout.trim();
    check(
      /^MODEL_MISMATCH the model has 14 inputs \("workclass"/.test(loaded),
      `@fb/models-onnx's loader printed: ${loaded}`,
    );
    log(`@fb/models-onnx installed as its README says: ${loaded.slice(0, 60)}...`);
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------------

function netnsAvailable() {
  return spawnSync('unshare', ['-rn', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' }).status === 0;
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--offline') {
    // Inside the network namespace (or not): the work folder and port come from the parent, which
    // ends this process with SIGTERM when it is interrupted.
    for (const signal of ['SIGINT', 'SIGTERM'])
      process.on(signal, () => stopAll().then(() => process.exit(130)));
    await offlineInstalls(args[1], Number(args[2]));
    return;
  }
  const keep = args.includes('--keep');
  for (const name of publishedPackages()) {
    const { dir, manifest } = workspacePackages().get(name);
    try {
      readdirSync(join(dir, 'dist'));
    } catch {
      throw new Error(`${manifest.name} is not built: run \`pnpm build\` first`);
    }
  }
  const work = mkdtempSync(join(tmpdir(), 'fairbench-registry-'));
  let child = null;
  let childGone = null;
  const cleanup = async () => {
    await stopAll();
    if (child) await stopGroup(child, childGone, () => child.exitCode !== null || child.signalCode !== null);
    if (!keep) rmSync(work, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => cleanup().then(() => process.exit(130)));
  const started = Date.now();
  try {
    // From the clone: the root README's one command.
    const rates = writeApplicants(join(work, 'clone.csv'));
    const clone = sh(
      `pnpm fairbench audit ${join(work, 'clone.csv')} --protected sex --outcome approved=yes --predictions decision --out ${join(work, 'clone-report')} --quiet`,
      root,
      process.env,
    );
    const fromClone = JSON.parse(readFileSync(join(work, 'clone-report/report.json'), 'utf8'));
    if (
      fromClone.groupMetrics.byGroup.find((g) => g.group === 'sex=male')?.selectionRate.value !==
      rates['sex=male'].rate
    )
      throw new Error('pnpm fairbench: a different male selection rate');
    log(`pnpm fairbench audit (from the clone): ${clone.seconds.toFixed(1)} s`);

    const port = await freePort();
    await publishAndPrefill(work, port);
    const self = resolve(here, 'run.mjs');
    let cmd;
    let cmdArgs;
    if (netnsAvailable()) {
      log('installing inside a network namespace with loopback only');
      cmd = 'unshare';
      cmdArgs = [
        '-rn',
        'sh',
        '-c',
        'ip link set lo up && exec "$0" "$@"',
        process.execPath,
        self,
        '--offline',
        work,
        String(port),
      ];
    } else {
      log(
        'no network namespace here (unshare -rn refused): the registry has no uplink, the rest of the network stays reachable',
      );
      cmd = process.execPath;
      cmdArgs = [self, '--offline', work, String(port)];
    }
    child = spawn(cmd, cmdArgs, { detached: true, stdio: 'inherit' });
    childGone = new Promise((done) => child.on('exit', (c, s) => done(c ?? s)));
    const code = await childGone;
    if (code !== 0) throw new Error(`the offline installs failed (${code})`);
    log(`all install routes work (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    if (keep) log(`kept: ${work}`);
  } finally {
    await cleanup();
  }
}

main().catch((e) => {
  console.error(`registry-smoke: ${e.stack}${e.cause ? `\ncause: ${e.cause}` : ''}`);
  process.exitCode = 1;
});
