import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type DetectorProgress, groupMetrics, type MethodRun, runDetectors } from './audit.js';
import { loadAuditData, type SchemaFile, schemaLines } from './data.js';
import { UsageError } from './errors.js';
import { type AuditMethod, DEFAULT_METHODS } from './methods.js';
import { type ModelSource, prepareModel } from './models.js';
import { writeReport } from './report/write.js';

export const USAGE = `fairbench audit <data.csv> --protected <a,b> --outcome <column=favourable label> <model> [options]

model (one of):
  --train rf|lr|mlp        fit a model of @fb/models on a split, audit the held-out rows
  --model <file.onnx>      an ONNX classifier (a scikit-learn pipeline export works as is)
  --endpoint <url>         a model served over HTTP (POST {columns, rows} -> {probabilities} or {labels})
  --predictions <column>   decisions recorded in the data (outcome labels), no model
  --scores <column>        scores recorded in the data, no model; with --threshold and --higher-is

options:
  --columns <a,b,...>      attribute columns (default: every column but the outcome, less identifiers)
  --exclude <a,b,...>      columns to leave out
  --schema <file.json>     kinds, categories, bins, columns or protected to use instead of inferring them
  --threshold <t>          --scores: the score at which a decision changes (default 0.5 for scores in 0..1)
  --higher-is favourable|unfavourable   --scores: which side of the threshold is favourable (default favourable)
  --positive <label>       outcome label counted as positive in the group metrics (default: the favourable one)
  --methods <a,b,...>      detectors to run (default: ${DEFAULT_METHODS.map((m) => m.id).join(', ')})
  --time <seconds>         time budget shared by the detectors (default 30)
  --seed <n>               seed of every random draw (default 1)
  --test-fraction <f>      --train: share of rows held out and audited (default 0.3)
  --out <dir>              where the report goes (default fairbench-report)
  --quiet                  no progress on stderr
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

/** Run `fairbench audit` with these arguments (after the subcommand). Returns the exit code. */
export async function audit(args: string[], io: Io, signal: AbortSignal): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      protected: { type: 'string' },
      outcome: { type: 'string' },
      train: { type: 'string' },
      model: { type: 'string' },
      endpoint: { type: 'string' },
      predictions: { type: 'string' },
      scores: { type: 'string' },
      columns: { type: 'string' },
      exclude: { type: 'string' },
      schema: { type: 'string' },
      threshold: { type: 'string' },
      'higher-is': { type: 'string' },
      positive: { type: 'string' },
      methods: { type: 'string' },
      time: { type: 'string' },
      seed: { type: 'string' },
      'test-fraction': { type: 'string' },
      'batch-size': { type: 'string' },
      out: { type: 'string' },
      quiet: { type: 'boolean' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(`give one data file\n\n${USAGE}`);
  const file = positionals[0]!;
  const outcomeArg = values.outcome;
  const eq = outcomeArg?.indexOf('=') ?? -1;
  if (!outcomeArg || eq <= 0 || eq === outcomeArg.length - 1) {
    throw new UsageError('--outcome needs the column and its favourable label: --outcome income=>50K');
  }
  const outcome = outcomeArg.slice(0, eq);
  const favorable = outcomeArg.slice(eq + 1);
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
  const methods = list(values.methods);
  for (const m of methods ?? []) {
    if (!DEFAULT_METHODS.some((d) => d.id === m)) {
      throw new UsageError(
        `--methods: unknown method "${m}" (known: ${DEFAULT_METHODS.map((d) => d.id).join(', ')})`,
      );
    }
  }
  let schemaFile: SchemaFile | undefined;
  if (values.schema) {
    try {
      schemaFile = JSON.parse(readFileSync(values.schema, 'utf8')) as SchemaFile;
    } catch (e) {
      throw new UsageError(`--schema ${values.schema}: ${(e as Error).message}`);
    }
  }
  const quiet = values.quiet === true;
  const say = (s: string) => {
    if (!quiet) io.stderr(`${s}\n`);
  };

  const data = loadAuditData({
    file,
    outcome,
    favorable,
    protected: list(values.protected) ?? [],
    columns: list(values.columns),
    exclude: list(values.exclude),
    recorded: values.predictions
      ? { kind: 'predictions', column: values.predictions }
      : values.scores
        ? { kind: 'scores', column: values.scores }
        : undefined,
    schemaFile,
  });
  say(`${file}: ${data.rowsRead} rows read, ${data.dataset.n} kept; schema (* = protected):`);
  for (const line of schemaLines(data.dataset.schema)) say(line);
  for (const note of data.notes) say(`note: ${note}`);

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
    source = { kind: 'endpoint', url: values.endpoint, batchSize };
  } else {
    const threshold =
      values.threshold === undefined ? undefined : numberOption('threshold', values.threshold, 0, () => true);
    source = { kind: 'recorded', threshold, higherIs: higherIs as 'favourable' | 'unfavourable' | undefined };
  }
  say(source.kind === 'train' ? `training ${values.train} ...` : 'loading the model ...');
  const prepared = await prepareModel(data, source);
  try {
    for (const f of prepared.facts) say(`model: ${f}`);
    const labels = prepared.dataset.schema.outcome.labels;
    const positive =
      values.positive === undefined
        ? prepared.dataset.schema.outcome.favorable
        : labels.indexOf(values.positive);
    if (positive < 0)
      throw new UsageError(`--positive: "${values.positive}" is not an outcome label (${labels.join(', ')})`);
    const groups = groupMetrics(prepared.dataset, prepared.predictions, positive);
    say(
      `group metrics: selection rate of "${groups.positive}" differs by ${groups.summary.selectionRate.difference?.toFixed(3) ?? '–'} between groups`,
    );
    const runs = await runDetectors(prepared, {
      seconds,
      seed,
      signal,
      progress: progressPrinter(io, quiet),
      ...(methods ? { only: methods } : {}),
    });
    const out = path.resolve(values.out ?? 'fairbench-report');
    const files = await writeReport(out, {
      title: `Fairness audit of ${path.basename(file)}`,
      command: `fairbench audit ${args.join(' ')}`,
      createdAt: new Date().toISOString(),
      partial: signal.aborted,
      data: {
        file: path.basename(file),
        rowsRead: data.rowsRead,
        rowsAudited: prepared.dataset.n,
        notes: data.notes,
      },
      schema: prepared.dataset.schema,
      model: { description: prepared.description, facts: prepared.facts, caveats: prepared.caveats },
      groups,
      runs,
    });
    io.stdout(
      `${signal.aborted ? 'partial report' : 'report'}: ${path.join(out, 'report.html')} (${files.length} files)\n`,
    );
    return signal.aborted ? 130 : 0;
  } finally {
    await prepared.close();
  }
}
