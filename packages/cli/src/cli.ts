import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  type DetectorProgress,
  groupMetrics,
  LEAD_METRICS,
  leadMetric,
  type MethodRun,
  referenceGroups,
  runDetectors,
} from './audit.js';
import { ALPHA, calibrate, MIN_JACCARD } from './calibrate.js';
import { loadAuditData, type SchemaFile, schemaLines } from './data.js';
import { UsageError } from './errors.js';
import { inPositiveTerms, pairRealism, shownSubgroups } from './findings.js';
import { type AuditMethod, DEFAULT_METHODS } from './methods.js';
import { type ModelSource, type PreparedModel, prepareModel } from './models.js';
import { loadNamedTable, type NamedTable } from './named.js';
import { claimOutput, writeOutput } from './report/output.js';
import { writeReport } from './report/write.js';
import { parseWhere } from './where.js';

export const USAGE = `fairbench audit <data.csv> --protected <a,b> --outcome <column=favourable label> <model> [options]
fairbench audit --dataset adult|compas|german|bank <model> [options]

model (one of):
  --train rf|lr|mlp        fit a model of @fb/models on a split, audit the held-out rows
  --model <file.onnx>      an ONNX classifier (a scikit-learn pipeline export works as is)
  --endpoint <url>         a model served over HTTP (POST {columns, rows} -> {probabilities} or {labels})
  --endpoint-timeout <s>   --endpoint: seconds a batch may wait for its answer (default 120)
  --predictions <column>   decisions recorded in the data (outcome labels), no model
  --scores <column>        scores recorded in the data, no model; with --threshold and --higher-is

data (one of):
  <data.csv>               a CSV file (plain or gzipped; , ; or tab delimited)
  --dataset <name>         adult, compas, german or bank through @fb/datasets: the original files,
                           SHA-256 verified, codes decoded with the codebook; --outcome and --protected
                           default to the dataset's own
  --data-dir <dir>         --dataset: folder holding the original files (default FB_DATA_DIR, else the
                           user cache, downloading a missing file from its publisher)

options:
  --columns <a,b,...>      attribute columns (default: every column but the outcome, less identifiers
                           and columns missing in more than 10% of the rows)
  --missing drop|mode      rows missing a value in a column the audit uses: dropped (default), or the
                           value filled with the column's most frequent one; other columns are ignored
  --exclude <a,b,...>      columns to leave out
  --schema <file.json>     kinds, categories, bins, columns or protected to use instead of inferring them
  --threshold <t>          --scores: the score at which a decision changes (default 0.5 for scores in 0..1)
  --higher-is favourable|unfavourable   --scores: which side of the threshold is favourable (default favourable)
  --positive <label>       outcome label counted as positive in the group metrics (default: the favourable one)
  --where <expression>     audit only the rows it keeps, tested on the CSV's raw cells:
                           comparisons (= == != < <= > >=) of a column with a number or a quoted string,
                           combined with && || ! and parentheses: --where 'age >= 18 && sex != "X"'
  --metric <name>          the rate the summary's "groups that fare worse" compares: ${LEAD_METRICS.join(', ')}
                           (default: the selection rate and the error that goes against a person)
  --reference <attr=value> reference group of a protected attribute in the group comparison (default:
                           the largest group); repeat it, one per attribute
  --methods <a,b,...>      detectors to run (default: ${DEFAULT_METHODS.map((m) => m.id).join(', ')})
  --time <seconds>         time budget shared by the detectors (default 30)
  --seed <n>               seed of every random draw (default 1)
  --test-fraction <f>      --train: share of rows held out and audited (default 0.3)
  --out <dir>              where the report goes (default fairbench-report): a new or empty folder, or
                           one holding an earlier report (its files are replaced); never an input's folder
  --quiet                  no progress on stderr

fairbench calibrate <data.csv> ... : power and false alarms of each detector on data like yours
(fairbench calibrate --help)
`;

interface Io {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  readonly isTTY: boolean;
}

const list = (s: string | undefined): string[] | undefined =>
  s === undefined
    ? undefined
    : s
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x.length > 0);

function numberOption(
  name: string,
  value: string | undefined,
  fallback: number,
  check: (v: number) => boolean,
): number {
  if (value === undefined) return fallback;
  const v = Number(value);
  if (!Number.isFinite(v) || !check(v)) throw new UsageError(`--${name}: "${value}" is not a valid value`);
  return v;
}

function progressPrinter(io: Io, quiet: boolean): DetectorProgress {
  let lastWidth = 0;
  const write = (line: string, final: boolean) => {
    if (quiet) return;
    if (io.isTTY) {
      io.stderr(`\r${line.padEnd(lastWidth)}${final ? '\n' : ''}`);
      lastWidth = final ? 0 : line.length;
    } else if (final) io.stderr(`${line}\n`);
  };
  let current = '';
  return {
    start(method: AuditMethod, index: number, total: number, seconds: number) {
      current = `[${index + 1}/${total}] ${method.id}`;
      if (!io.isTTY && !quiet) io.stderr(`${current}: running (up to ${seconds.toFixed(0)} s)\n`);
      else write(`${current} ...`, false);
    },
    update(_method: AuditMethod, fraction: number | null, found: number) {
      if (!io.isTTY) return;
      const width = 20;
      const filled = Math.round((fraction ?? 0) * width);
      write(`${current} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${found} found`, false);
    },
    end(run: MethodRun) {
      const found = run.result
        ? run.result.findings.kind === 'individual'
          ? `${run.result.metrics.pairs} pairs`
          : `${run.result.findings.subgroups.length} subgroups`
        : '';
      const time = run.result ? ` in ${run.result.run.wallSeconds.toFixed(1)} s` : '';
      write(
        `${current || run.method.id}: ${run.status}${time}${found ? `, ${found}` : ''}${run.reason ? ` (${run.reason})` : ''}`,
        true,
      );
      current = '';
    },
  };
}

/** Options both commands take: the data, the model to train, the detectors and their budget, the output. */
const SHARED_OPTIONS = {
  protected: { type: 'string' },
  outcome: { type: 'string' },
  columns: { type: 'string' },
  exclude: { type: 'string' },
  schema: { type: 'string' },
  train: { type: 'string' },
  methods: { type: 'string' },
  time: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  quiet: { type: 'boolean' },
  dataset: { type: 'string' },
  'data-dir': { type: 'string' },
} as const;

interface DataArgs {
  dataset?: string | undefined;
  'data-dir'?: string | undefined;
  protected?: string | undefined;
  outcome?: string | undefined;
  columns?: string | undefined;
  exclude?: string | undefined;
  schema?: string | undefined;
}

/**
 * The files of a command line's data that its `--out` must not hold: the data file (or `--data-dir`) and
 * the schema file. `--data-dir` without `--dataset` is a `UsageError`.
 */
function dataInputs(values: DataArgs, positionals: readonly string[]): string[] {
  if (values['data-dir'] !== undefined && values.dataset === undefined) {
    throw new UsageError('--data-dir goes with --dataset', { option: '--data-dir' });
  }
  return [
    values.dataset === undefined ? positionals[0] : undefined,
    values.schema,
    values['data-dir'],
  ].filter((f): f is string => f !== undefined);
}

/**
 * The data of a command line: `--dataset` read through @fb/datasets (its row set and verified files
 * said), else the data file; with the outcome, protected attributes and schema overrides.
 */
async function commandData(values: DataArgs, positionals: string[], say: (s: string) => void) {
  const table =
    values.dataset === undefined ? undefined : await loadNamedTable(values.dataset, values['data-dir']);
  if (table) {
    say(`--dataset ${table.name}: ${table.codebook.rowSet}`);
    for (const p of table.provenance) say(`  ${p}`);
  }
  return dataArgs(values, positionals, table);
}

/** What a report says of a named dataset: its name, documented row set and verified files. */
const datasetFacts = (table: NamedTable | undefined) =>
  table ? { name: table.name, rowSet: table.codebook.rowSet, provenance: table.provenance } : undefined;

/** The data file, outcome, protected attributes and schema overrides of a command line. */
function dataArgs(values: DataArgs, positionals: string[], table?: NamedTable) {
  if (table && positionals.length > 0) {
    throw new UsageError(
      `give a data file or --dataset, not both (got ${positionals.join(' ')} and --dataset ${table.name})`,
      {
        option: '--dataset',
      },
    );
  }
  if (!table && positionals.length !== 1) throw new UsageError(`give one data file\n\n${USAGE}`);
  const file = table ? `${table.name} (${table.file})` : positionals[0]!;
  const outcomeArg = values.outcome ?? (table ? `${table.outcome}=${table.favourable}` : undefined);
  const eq = outcomeArg?.indexOf('=') ?? -1;
  if (!outcomeArg || eq <= 0 || eq === outcomeArg.length - 1) {
    throw new UsageError('--outcome needs the column and its favourable label: --outcome income=>50K');
  }
  let schemaFile: SchemaFile | undefined;
  if (values.schema) {
    try {
      schemaFile = JSON.parse(readFileSync(values.schema, 'utf8')) as SchemaFile;
    } catch (e) {
      throw new UsageError(`--schema ${values.schema}: ${(e as Error).message}`);
    }
  }
  if (table) {
    // The dataset's kinds and decoded category orders, under whatever the schema file says.
    const own = table.schemaFile;
    schemaFile = {
      ...schemaFile,
      kinds: { ...own.kinds, ...schemaFile?.kinds },
      categories: { ...own.categories, ...schemaFile?.categories },
    };
  }
  return {
    file,
    outcome: outcomeArg.slice(0, eq),
    favorable: outcomeArg.slice(eq + 1),
    protected: list(values.protected) ?? (table ? table.protected : []),
    columns: list(values.columns),
    exclude: list(values.exclude),
    schemaFile,
    ...(table ? { table } : {}),
  };
}

function methodList(value: string | undefined): string[] | undefined {
  const methods = list(value);
  for (const m of methods ?? []) {
    if (!DEFAULT_METHODS.some((d) => d.id === m)) {
      throw new UsageError(
        `--methods: unknown method "${m}" (known: ${DEFAULT_METHODS.map((d) => d.id).join(', ')})`,
      );
    }
  }
  return methods;
}

/** `--reference attr=value`, repeated: one value per attribute. */
function referenceOption(given: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arg of given ?? []) {
    const eq = arg.indexOf('=');
    if (eq <= 0 || eq === arg.length - 1) {
      throw new UsageError(
        `--reference needs an attribute and its value: --reference race=Caucasian (got "${arg}")`,
        {
          option: '--reference',
        },
      );
    }
    const attribute = arg.slice(0, eq).trim();
    if (Object.hasOwn(out, attribute)) {
      throw new UsageError(`--reference: "${attribute}" is given twice (one reference per attribute)`, {
        option: '--reference',
        attribute,
      });
    }
    out[attribute] = arg.slice(eq + 1);
  }
  return out;
}

/**
 * `parseArgs`, with its refusals (an unknown option, a missing value) as a `UsageError`: a typed
 * error for a caller of the library, exit code 2 with the message for the command.
 */
function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError((e as Error).message, { code });
    }
    throw e;
  }
}

/** Run `fairbench audit` with these arguments (after the subcommand). Returns the exit code. */
export async function audit(args: string[], io: Io, signal: AbortSignal): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args,
    allowPositionals: true,
    options: {
      ...SHARED_OPTIONS,
      model: { type: 'string' },
      endpoint: { type: 'string' },
      predictions: { type: 'string' },
      scores: { type: 'string' },
      threshold: { type: 'string' },
      'higher-is': { type: 'string' },
      positive: { type: 'string' },
      metric: { type: 'string' },
      where: { type: 'string' },
      reference: { type: 'string', multiple: true },
      'test-fraction': { type: 'string' },
      'batch-size': { type: 'string' },
      'endpoint-timeout': { type: 'string' },
      missing: { type: 'string' },
    },
  });
  const inputs = dataInputs(values, positionals);
  if (values.model !== undefined) inputs.push(values.model);
  const missing = values.missing ?? 'drop';
  if (missing !== 'drop' && missing !== 'mode') {
    throw new UsageError(`--missing must be drop or mode (got "${missing}")`, { option: '--missing' });
  }
  const out = path.resolve(values.out ?? 'fairbench-report');
  // Before any work: the report must have somewhere to go that holds nothing it would overwrite.
  claimOutput(out, inputs);
  if (values['endpoint-timeout'] !== undefined && values.endpoint === undefined) {
    throw new UsageError('--endpoint-timeout goes with --endpoint');
  }
  const chosen = (['train', 'model', 'endpoint', 'predictions', 'scores'] as const).filter(
    (k) => values[k] !== undefined,
  );
  if (chosen.length !== 1) {
    throw new UsageError(
      `choose one model: --train, --model, --endpoint, --predictions or --scores${chosen.length ? ` (got ${chosen.map((c) => `--${c}`).join(', ')})` : ''}`,
    );
  }
  const seed = numberOption('seed', values.seed, 1, Number.isInteger);
  const seconds = numberOption('time', values.time, 30, (v) => v > 0);
  const testFraction = numberOption('test-fraction', values['test-fraction'], 0.3, (v) => v > 0 && v < 1);
  const higherIs = values['higher-is'];
  if (higherIs !== undefined && higherIs !== 'favourable' && higherIs !== 'unfavourable') {
    throw new UsageError('--higher-is must be favourable or unfavourable');
  }
  const methods = methodList(values.methods);
  // A malformed filter is named before the data is read.
  if (values.where !== undefined) parseWhere(values.where);
  const reference = referenceOption(values.reference);
  const lead = values.metric === undefined ? undefined : leadMetric(values.metric);
  const quiet = values.quiet === true;
  const say = (s: string) => {
    if (!quiet) io.stderr(`${s}\n`);
  };

  const dataOptions = await commandData(values, positionals, say);
  const { file, table } = dataOptions;
  const data = loadAuditData({
    ...dataOptions,
    missing,
    where: values.where,
    recorded: values.predictions
      ? { kind: 'predictions', column: values.predictions }
      : values.scores
        ? { kind: 'scores', column: values.scores }
        : undefined,
  });
  say(
    `${file}: ${data.rowsRead} rows read${data.filter ? `, ${data.filter.rowsKept} pass --where` : ''}, ${data.dataset.n} kept; schema (* = protected):`,
  );
  for (const line of schemaLines(data.dataset.schema)) say(line);
  for (const note of data.notes) say(`note: ${note}`);
  // An unknown attribute or value is named before the model runs.
  referenceGroups(data.dataset, reference);

  let source: ModelSource;
  if (values.train !== undefined) {
    if (values.train !== 'rf' && values.train !== 'lr' && values.train !== 'mlp') {
      throw new UsageError('--train must be rf, lr or mlp');
    }
    source = { kind: 'train', model: values.train, testFraction, seed };
  } else if (values.model !== undefined) source = { kind: 'onnx', file: values.model };
  else if (values.endpoint !== undefined) {
    const batchSize = numberOption(
      'batch-size',
      values['batch-size'],
      1024,
      (v) => Number.isInteger(v) && v > 0,
    );
    const timeout = numberOption('endpoint-timeout', values['endpoint-timeout'], 120, (v) => v > 0);
    source = { kind: 'endpoint', url: values.endpoint, batchSize, timeoutMs: timeout * 1000 };
  } else {
    const threshold =
      values.threshold === undefined ? undefined : numberOption('threshold', values.threshold, 0, () => true);
    source = { kind: 'recorded', threshold, higherIs: higherIs as 'favourable' | 'unfavourable' | undefined };
  }
  say(source.kind === 'train' ? `training ${values.train} ...` : 'loading the model ...');
  let prepared: PreparedModel;
  try {
    prepared = await prepareModel(data, source);
  } catch (e) {
    if (!signal.aborted) throw e;
    io.stderr(
      `fairbench: interrupted before the model had answered for every row (${(e as Error).message}): no report written\n`,
    );
    return 130;
  }
  try {
    for (const f of prepared.facts) say(`model: ${f}`);
    const labels = prepared.dataset.schema.outcome.labels;
    const positive =
      values.positive === undefined
        ? prepared.dataset.schema.outcome.favorable
        : labels.indexOf(values.positive);
    if (positive < 0)
      throw new UsageError(`--positive: "${values.positive}" is not an outcome label (${labels.join(', ')})`);
    const groups = groupMetrics(prepared.dataset, prepared.predictions, positive, reference, lead);
    say(
      `group metrics: selection rate of "${groups.positive}" differs by ${groups.summary.selectionRate.difference?.toFixed(3) ?? '–'} between groups`,
    );
    const detected = await runDetectors(prepared, {
      seconds,
      seed,
      signal,
      progress: progressPrinter(io, quiet),
      ...(methods ? { only: methods } : {}),
    });
    // One meaning of the positive label on the whole page; duplicates merged; pairs checked for realism.
    const positiveIsOther = labels.length === 2 && positive !== prepared.dataset.schema.outcome.favorable;
    const runs = inPositiveTerms(detected, groups.positive, positiveIsOther);
    const subgroups = shownSubgroups(prepared.dataset, runs);
    const realism = pairRealism(prepared.dataset, runs);
    const files = await writeReport(
      out,
      {
        title: `Fairness audit of ${table ? table.name : path.basename(file)}`,
        command: `fairbench audit ${args.join(' ')}`,
        createdAt: new Date().toISOString(),
        partial: signal.aborted,
        data: {
          file: table ? file : path.basename(file),
          rowsRead: data.rowsRead,
          filter: data.filter,
          rowsAudited: prepared.dataset.n,
          notes: data.notes,
          ...(table ? { dataset: datasetFacts(table) } : {}),
        },
        subgroups,
        realism,
        schema: prepared.dataset.schema,
        model: { description: prepared.description, facts: prepared.facts, caveats: prepared.caveats },
        groups,
        runs,
      },
      inputs,
    );
    io.stdout(
      `${signal.aborted ? 'partial report' : 'report'}: ${path.join(out, 'report.html')} (${files.length} files)\n`,
    );
    return signal.aborted ? 130 : 0;
  } finally {
    await prepared.close();
  }
}

export const CALIBRATE_USAGE = `fairbench calibrate <data.csv> --protected <a,b> --outcome <column=favourable label> [options]
fairbench calibrate --dataset adult|compas|german|bank [options]

Fits the generator's copula to the data, plants subgroups whose favourable chance is cut by a known
logit bias, trains a model on each generated data set, and reports how often each detector finds the
planted subgroups (power) and how often it "finds" the same kind of subgroups planted with no bias
(false alarms).

options:
  --dataset <name>, --data-dir <dir>   a named dataset instead of a data file, as for audit
  --columns, --exclude, --schema   as for audit
  --train rf|lr|mlp        the model trained on each generated data set (default rf)
  --bias <logit>           bias planted in each subgroup (default 1.5)
  --pairs <n>              subgroup pairs planted per data set (default 4)
  --trials <n>             data sets per condition, biased and unbiased (default 5)
  --methods <a,b,...>      detectors (default: all)
  --time <seconds>         detector budget per data set (default 10)
  --seed <n>               seed (default 1)
  --out <dir>              where calibration.json goes (default fairbench-calibration)
  --quiet                  no progress on stderr
`;

/** Run `fairbench calibrate`. Returns the exit code. */
export async function calibrateCommand(args: string[], io: Io, signal: AbortSignal): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args,
    allowPositionals: true,
    options: {
      ...SHARED_OPTIONS,
      bias: { type: 'string' },
      pairs: { type: 'string' },
      trials: { type: 'string' },
    },
  });
  const out = path.resolve(values.out ?? 'fairbench-calibration');
  const inputs = dataInputs(values, positionals);
  claimOutput(out, inputs);
  const model = values.train ?? 'rf';
  if (model !== 'rf' && model !== 'lr' && model !== 'mlp')
    throw new UsageError('--train must be rf, lr or mlp');
  const bias = numberOption('bias', values.bias, 1.5, (v) => v > 0);
  const pairs = numberOption('pairs', values.pairs, 4, (v) => Number.isInteger(v) && v > 0);
  const trials = numberOption('trials', values.trials, 5, (v) => Number.isInteger(v) && v > 0);
  const seconds = numberOption('time', values.time, 10, (v) => v > 0);
  const seed = numberOption('seed', values.seed, 1, Number.isInteger);
  const methods = methodList(values.methods);
  const quiet = values.quiet === true;
  const say = (s: string) => {
    if (!quiet) io.stderr(`${s}\n`);
  };
  const dataOptions = await commandData(values, positionals, say);
  const data = loadAuditData(dataOptions);
  say(`${dataOptions.file}: ${data.dataset.n} rows; schema (* = protected):`);
  for (const line of schemaLines(data.dataset.schema)) say(line);
  for (const note of data.notes) say(`note: ${note}`);
  const results = await calibrate(data, {
    trials,
    bias,
    pairs,
    model,
    seconds,
    seed,
    signal,
    progress: progressPrinter(io, true),
    ...(methods ? { only: methods } : {}),
    onTrial: (t, planted) => say(`trial ${t + 1}/${trials}, ${planted ? `bias ${bias}` : 'no bias'} ...`),
    onTrialFailed: (t, planted, e) =>
      io.stderr(
        `trial ${t + 1}/${trials}, ${planted ? `bias ${bias}` : 'no bias'}: failed (${e.code}: ${e.message}); the other trials are kept\n`,
      ),
  });
  const pct = (r: { rate: number; lo: number; hi: number } | null) =>
    r ? `${(100 * r.rate).toFixed(0)}% [${(100 * r.lo).toFixed(0)}, ${(100 * r.hi).toFixed(0)}]` : '–';
  io.stdout(
    `planted: ${pairs} subgroups per data set with logit bias -${bias}; found = a reported subgroup (p <= ${ALPHA} when the method gives one) sharing >= ${MIN_JACCARD} of its rows (Jaccard), or a discriminatory pair inside it\n`,
  );
  io.stdout(`method        power (95% CI)      false alarms (95% CI)\n`);
  for (const r of results.methods) {
    io.stdout(
      `${r.method.padEnd(13)} ${`${r.found}/${r.planted} ${pct(r.power)}`.padEnd(19)} ${r.falseAlarms}/${r.nullGroups} ${pct(r.falseAlarmRate)}${r.problems.length ? `  (${r.problems.length} runs incomplete)` : ''}\n`,
    );
  }
  const command = `fairbench calibrate ${args.join(' ')}`;
  writeOutput(
    out,
    [
      [
        'calibration.json',
        `${JSON.stringify({ command, dataset: datasetFacts(dataOptions.table) ?? null, bias, pairs, trials, model, seconds, seed, rule: { alpha: ALPHA, minJaccard: MIN_JACCARD }, partial: signal.aborted, trialsDone: results.trialsDone, failedTrials: results.failedTrials, methods: results.methods }, null, 1)}\n`,
      ],
    ],
    inputs,
    command,
  );
  if (results.failedTrials.length > 0) {
    io.stdout(
      `${results.failedTrials.length} of ${results.trialsDone + results.failedTrials.length} trials failed and are left out of the counts:\n`,
    );
    for (const f of results.failedTrials) {
      io.stdout(`  trial ${f.trial} (${f.planted ? 'bias' : 'no bias'}): ${f.code}: ${f.reason}\n`);
    }
  }
  io.stdout(`calibration: ${path.join(out, 'calibration.json')}\n`);
  return signal.aborted ? 130 : 0;
}
