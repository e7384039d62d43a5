import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Cell, CellRecord } from '@fb/bench';

/**
 * Jobs and results cross Redis, which anyone who reaches it can write. Both travel as a JSON text
 * and an HMAC-SHA256 of it under a secret shared by the coordinator and its workers, bound to the
 * job's id and to which way it goes: a worker runs only jobs the coordinator signed, and the
 * coordinator stores only results a worker signed for that very job. Whoever reaches Redis without
 * the secret can delay cells or make them fail, never have a result stored as done.
 */

/** The secret is missing or too short to be one. */
export class QueueSecretError extends Error {
  override name = 'QueueSecretError';
}

/** A job or result that is not signed with the secret, or does not have the shape it must. */
export class RejectedError extends Error {
  override name = 'RejectedError';
}

/** A job signed under a key this queue's secret does not give: another secret, or no signature. */
export class ForeignJobError extends RejectedError {
  override name = 'ForeignJobError';
}

/** A job of another run than the queue's current one: an old job put back, or another study's. */
export class ReplayedJobError extends RejectedError {
  override name = 'ReplayedJobError';
}

/** A job taken after its expiry. */
export class ExpiredJobError extends RejectedError {
  override name = 'ExpiredJobError';
}

/** Shortest secret accepted, in characters (e.g. `openssl rand -hex 32` gives 64). */
export const MIN_SECRET_LENGTH = 32;

/** The longest cell timeout a Node timer can hold, 2^31 - 1 ms, in whole seconds. */
const MAX_TIMEOUT_SECONDS = 2_147_483;

/** A checked secret: at least `MIN_SECRET_LENGTH` characters after trimming a final line break. */
export function queueSecret(text: string | undefined): string {
  const secret = text?.replace(/\r?\n$/, '') ?? '';
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new QueueSecretError(
      `the queue secret must hold at least ${MIN_SECRET_LENGTH} characters (got ${secret.length}); make one with \`openssl rand -hex 32\``,
    );
  }
  return secret;
}

/**
 * A job as it sits in Redis: its run, the JSON text of its `JobPayload` and the coordinator's
 * signature under the run's key (`runKey`).
 */
export interface CellJob {
  run: string;
  payload: string;
  mac: string;
}

/**
 * What a job carries: its run (the coordinator's run id), when it expires (ms since the epoch), the
 * cell, the timeout and the coordinator's code fingerprint.
 */
export interface JobPayload {
  run: string;
  expiresAt: number;
  cell: Cell;
  cellTimeoutSeconds: number;
  code: string;
}

/** What a worker checks a job against: the queue's current run, and the time (default now). */
export interface JobExpectation {
  run?: string;
  now?: number;
}

/** A run id: 1 to 100 letters, digits, `-` or `_`. */
const RUN_ID = /^[\w-]{1,100}$/;

/**
 * The key a run's jobs are signed with: an HMAC of the run id under the queue secret, so that a job
 * signed for one run does not verify as another's, and a worker derives the key from the secret alone.
 */
export function runKey(secret: string, run: string): string {
  return createHmac('sha256', secret).update(`fairbench-run\0${run}`).digest('hex');
}

/** A finished job's return value: the JSON text of the cell's record and the worker's signature. */
export interface SignedResult {
  payload: string;
  mac: string;
}

/** One job per cell: the id is the cell's content hash, so enqueuing a cell again adds nothing. */
export const jobIdOf = (cell: Pick<Cell, 'key'>): string => `cell-${cell.key}`;

function mac(secret: string, purpose: 'job' | 'result' | 'run', jobId: string, payload: string): string {
  return createHmac('sha256', secret).update(`fairbench-${purpose}\0${jobId}\0${payload}`).digest('hex');
}

function opened(
  secret: string,
  purpose: 'job' | 'result' | 'run',
  jobId: string,
  value: unknown,
  Refusal: typeof RejectedError = RejectedError,
): unknown {
  const v = value as Partial<CellJob> | null;
  if (v === null || typeof v !== 'object' || typeof v.payload !== 'string' || typeof v.mac !== 'string') {
    throw new Refusal(`${purpose} ${jobId} is not signed (no payload and mac)`);
  }
  const expected = Buffer.from(mac(secret, purpose, jobId, v.payload), 'hex');
  const given = Buffer.from(v.mac, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new Refusal(`${purpose} ${jobId} has a signature that does not match the queue secret`);
  }
  try {
    return JSON.parse(v.payload);
  } catch {
    throw new RejectedError(`${purpose} ${jobId} holds a payload that is not JSON`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Why `cell` is not a cell (only what a worker relies on before running it), or null. */
function cellProblem(cell: unknown): string | null {
  if (!isObject(cell)) return 'cell is not an object';
  if (!isText(cell.key) || !/^[\w.-]{1,200}$/.test(cell.key)) return 'cell.key is not a key';
  if (!isText(cell.block)) return 'cell.block is missing';
  if (!Number.isSafeInteger(cell.seed)) return 'cell.seed is not an integer';
  for (const part of ['dataset', 'model', 'plan'] as const) {
    const p = cell[part];
    if (!isObject(p) || !isText(p.label)) return `cell.${part} has no label`;
  }
  if (!isText((cell.plan as Record<string, unknown>).method)) return 'cell.plan.method is missing';
  if (!isObject(cell.budget)) return 'cell.budget is not an object';
  return null;
}

/** `job` signed for `jobId` under its run's key. */
export function signJob(secret: string, jobId: string, job: JobPayload): CellJob {
  const payload = JSON.stringify(job);
  return { run: job.run, payload, mac: mac(runKey(secret, job.run), 'job', jobId, payload) };
}

/**
 * The payload of a job signed for `jobId` under its run's key, checked against the job's shape, and
 * against `expect`: a job of another run than `expect.run` is a `ReplayedJobError`, one whose expiry
 * is before `expect.now` (default now) an `ExpiredJobError`; a job not signed under a key the secret
 * gives is a `ForeignJobError`. All three are `RejectedError`s.
 */
export function openJob(
  secret: string,
  jobId: string,
  data: unknown,
  expect: JobExpectation = {},
): JobPayload {
  const run = (data as Partial<CellJob> | null)?.run;
  if (typeof run !== 'string' || !RUN_ID.test(run)) {
    throw new ForeignJobError(`job ${jobId} names no run (a job of another coordinator, or unsigned)`);
  }
  const job = opened(runKey(secret, run), 'job', jobId, data, ForeignJobError);
  if (!isObject(job)) throw new RejectedError(`job ${jobId}: the payload is not an object`);
  if (job.run !== run) throw new ForeignJobError(`job ${jobId} is signed for run ${run} but names another`);
  if (expect.run !== undefined && run !== expect.run) {
    throw new ReplayedJobError(`job ${jobId} is of run ${run}, not of the current run ${expect.run}`);
  }
  if (typeof job.expiresAt !== 'number' || !Number.isFinite(job.expiresAt)) {
    throw new RejectedError(`job ${jobId}: expiresAt is not a time`);
  }
  const now = expect.now ?? Date.now();
  if (now > job.expiresAt) {
    throw new ExpiredJobError(
      `job ${jobId} expired at ${new Date(job.expiresAt).toISOString()}, ${((now - job.expiresAt) / 1000).toFixed(0)} s before it was taken`,
    );
  }
  const problem = cellProblem(job.cell);
  if (problem) throw new RejectedError(`job ${jobId}: ${problem}`);
  const t = job.cellTimeoutSeconds;
  if (typeof t !== 'number' || !(t > 0 && t <= MAX_TIMEOUT_SECONDS)) {
    throw new RejectedError(`job ${jobId}: cellTimeoutSeconds must be in (0, ${MAX_TIMEOUT_SECONDS}]`);
  }
  if (!isText(job.code)) throw new RejectedError(`job ${jobId}: code is missing`);
  const payload = job as unknown as JobPayload;
  if (jobIdOf(payload.cell) !== jobId) throw new RejectedError(`job ${jobId} carries another cell`);
  return payload;
}

export function signResult(secret: string, jobId: string, record: CellRecord): SignedResult {
  const payload = JSON.stringify(record);
  return { payload, mac: mac(secret, 'result', jobId, payload) };
}

/** The record of a result signed with `secret` for `cell`'s job, checked against the record's shape. */
export function openResult(secret: string, cell: Cell, value: unknown): CellRecord {
  const jobId = jobIdOf(cell);
  const r = opened(secret, 'result', jobId, value);
  const bad = (what: string): never => {
    throw new RejectedError(`result of ${jobId}: ${what}`);
  };
  if (!isObject(r)) return bad('not an object');
  if (r.key !== cell.key) bad('it is the record of another cell');
  if (r.status !== 'done' && r.status !== 'failed') bad('status is neither done nor failed');
  if (!(r.error === null || typeof r.error === 'string')) bad('error is neither text nor null');
  if (r.status === 'done' && r.error !== null) bad('a done record carries an error');
  if (typeof r.wallSeconds !== 'number' || !(r.wallSeconds >= 0) || !Number.isFinite(r.wallSeconds)) {
    bad('wallSeconds is not a finite non-negative number');
  }
  for (const part of ['dataset', 'plan'] as const) if (!isObject(r[part])) bad(`${part} is not an object`);
  for (const part of ['metrics', 'score'] as const) {
    if (!(r[part] === null || isObject(r[part]))) bad(`${part} is neither an object nor null`);
  }
  if (r.status === 'done' && !isObject(r.metrics)) bad('a done record has no metrics');
  if (!Array.isArray(r.implicated) || !r.implicated.every((s) => typeof s === 'string')) {
    bad('implicated is not a list of texts');
  }
  return r as unknown as CellRecord;
}

/** The queue's current run, as the coordinator publishes it in Redis. */
export interface RunRecord {
  run: string;
  code: string;
}

/** The current run's record, signed with the queue secret. */
export function signRun(secret: string, queue: string, record: RunRecord): { payload: string; mac: string } {
  const payload = JSON.stringify(record);
  return { payload, mac: mac(secret, 'run', queue, payload) };
}

/** The run record of `queue` signed with `secret`, or a `RejectedError`. */
export function openRun(secret: string, queue: string, value: unknown): RunRecord {
  const r = opened(secret, 'run', queue, value);
  if (!isObject(r) || typeof r.run !== 'string' || !RUN_ID.test(r.run) || !isText(r.code)) {
    throw new RejectedError(`the run record of queue ${queue} is ill-formed`);
  }
  return { run: r.run, code: r.code };
}
