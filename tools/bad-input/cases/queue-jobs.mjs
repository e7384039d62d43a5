import { createHmac } from 'node:crypto';
import { expandCells, failedRecord, validateStudy } from '@fb/bench';
import {
  jobIdOf,
  openJob,
  openResult,
  openRun,
  queueSecret,
  redisOptions,
  runKey,
  signJob,
  signResult,
  signRun,
} from '@fb/bench-queue';
import { fails, failsOrReturns, returns, unless } from '../src/cases.mjs';

// Jobs and results as they arrive from Redis, which anyone who reaches it can write.
const secret = 'corpus-secret-0123456789abcdef-0123';
const [cell, other] = await expandCells(
  validateStudy({
    name: 'corpus-queue',
    seeds: [1, 2],
    synthetic: { generator: 'planted-pair', base: { rows: 300 } },
    models: [{ kind: 'logistic-regression' }],
    methods: [{ label: 'A', method: 'aequitas' }],
    budget: { maxTested: 100 },
  }),
);
const id = jobIdOf(cell);
// Jobs of the queue's current run, expiring in an hour.
const run = 'run-1';
const payload = {
  run,
  expiresAt: Date.now() + 3_600_000,
  cell,
  cellTimeoutSeconds: 60,
  code: '0123456789abcdef',
};
const job = (over) => signJob(secret, id, { ...payload, ...over });
const cellWith = (over) => job({ cell: { ...cell, ...over } });
const done = {
  ...failedRecord(cell, '', 0),
  status: 'done',
  error: null,
  metrics: { tsn: 1, dsn: 0, sur: 0, dss: null, pairs: 0, queries: 2, distinctQueries: 2 },
};
const result = (over) => signResult(secret, id, { ...done, ...over });
const open =
  (data, jobId = id) =>
  () =>
    openJob(secret, jobId, data, { run });
const read = (value) => () => openResult(secret, cell, value);

export const cases = [
  fails('job: null', 'ForeignJobError', open(null)),
  fails('job: a number', 'ForeignJobError', open(7)),
  fails('job: the old unsigned shape', 'ForeignJobError', open(payload)),
  fails('job: a cell without code, unsigned', 'ForeignJobError', open({ cell })),
  fails('job: payload not a string', 'ForeignJobError', open({ payload: {}, mac: 'ab' })),
  fails('job: mac not hex', 'ForeignJobError', open({ ...job({}), mac: 'zz' })),
  fails(
    'job: mac of another secret',
    'ForeignJobError',
    open(signJob('another secret of thirty-two chars!', id, payload)),
  ),
  fails(
    'job: payload changed after signing',
    'ForeignJobError',
    open({ ...job({}), payload: job({ cellTimeoutSeconds: 1 }).payload }),
  ),
  fails('job: signed for another job id', 'ForeignJobError', open(signJob(secret, jobIdOf(other), payload))),
  fails(
    'job: a signed job under another cell id',
    'RejectedError',
    open(signJob(secret, jobIdOf(other), payload), jobIdOf(other)),
  ),
  fails(
    'job: signed text that is not JSON',
    'RejectedError',
    open({ run, payload: '{', mac: signResultLike('job', '{') }),
  ),
  fails('job: a signed array', 'RejectedError', () =>
    openJob(secret, id, { run, payload: '[]', mac: signResultLike('job', '[]') }, { run }),
  ),
  fails('job: no cell', 'RejectedError', open(job({ cell: undefined }))),
  fails('job: cell key with a slash', 'RejectedError', open(cellWith({ key: '../x' }))),
  fails('job: cell key empty', 'RejectedError', open(cellWith({ key: '' }))),
  fails('job: cell without a plan label', 'RejectedError', open(cellWith({ plan: { method: 'aequitas' } }))),
  fails('job: cell without a method', 'RejectedError', open(cellWith({ plan: { label: 'A' } }))),
  fails('job: cell seed 1.5', 'RejectedError', open(cellWith({ seed: 1.5 }))),
  fails('job: cell without a budget', 'RejectedError', open(cellWith({ budget: null }))),
  fails('job: cellTimeoutSeconds 0', 'RejectedError', open(job({ cellTimeoutSeconds: 0 }))),
  fails('job: cellTimeoutSeconds -5', 'RejectedError', open(job({ cellTimeoutSeconds: -5 }))),
  fails('job: cellTimeoutSeconds null (NaN)', 'RejectedError', open(job({ cellTimeoutSeconds: null }))),
  fails(
    'job: cellTimeoutSeconds beyond the timer limit',
    'RejectedError',
    open(job({ cellTimeoutSeconds: 3e6 })),
  ),
  fails('job: no code fingerprint', 'RejectedError', open(job({ code: undefined }))),
  // Replayed, foreign and expired jobs: refused by name, before anything runs.
  fails('job: a job of an earlier run, put back', 'ReplayedJobError', open(job({ run: 'run-0' }))),
  fails(
    'job: a job of another study run, signed with the same secret',
    'ReplayedJobError',
    open(signJob(secret, id, { ...payload, run: 'other-study-run' })),
  ),
  fails('job: expired a second ago', 'ExpiredJobError', open(job({ expiresAt: Date.now() - 1000 }))),
  fails('job: expiresAt missing', 'RejectedError', open(job({ expiresAt: undefined }))),
  fails('job: expiresAt a string', 'RejectedError', open(job({ expiresAt: '2999-01-01' }))),
  fails('job: no run named', 'ForeignJobError', open({ ...job({}), run: undefined })),
  fails('job: a run id with a slash', 'ForeignJobError', open({ ...job({}), run: '../run-1' })),
  fails(
    'job: signed for run-0, relabelled run-1',
    'ForeignJobError',
    open({ ...job({ run: 'run-0' }), run: 'run-1' }),
  ),
  fails(
    'job: signed with the queue secret itself, not the run key',
    'ForeignJobError',
    open({ run, payload: JSON.stringify(payload), mac: signResultLike('raw', JSON.stringify(payload)) }),
  ),
  fails('run record: signed with another secret', 'RejectedError', () =>
    openRun(secret, 'q', signRun('another secret of thirty-two chars!', 'q', { run, code: 'c' })),
  ),
  fails('run record: of another queue', 'RejectedError', () =>
    openRun(secret, 'q', signRun(secret, 'other-queue', { run, code: 'c' })),
  ),
  fails('run record: a run id with spaces', 'RejectedError', () =>
    openRun(secret, 'q', signRun(secret, 'q', { run: 'a b', code: 'c' })),
  ),
  returns(
    'run record: signed for the queue',
    () => openRun(secret, 'q', signRun(secret, 'q', { run, code: 'c' })),
    (r) => unless(r.run === run && r.code === 'c', JSON.stringify(r)),
  ),
  returns('job: signed by the coordinator', open(job({})), (p) =>
    unless(p.cell.key === cell.key && p.cellTimeoutSeconds === 60, 'payload'),
  ),

  fails('result: null', 'RejectedError', read(null)),
  fails('result: an unsigned record', 'RejectedError', read(done)),
  fails('result: a key-only record', 'RejectedError', read({ key: cell.key })),
  fails('result: a signed key-only record', 'RejectedError', read(signResult(secret, id, { key: cell.key }))),
  fails(
    'result: signed with another secret',
    'RejectedError',
    read(signResult('a guessed secret of sufficient length', id, done)),
  ),
  fails('result: signed for another job', 'RejectedError', read(signResult(secret, jobIdOf(other), done))),
  fails('result: the record of another cell', 'RejectedError', read(result({ key: other.key }))),
  fails('result: status "maybe"', 'RejectedError', read(result({ status: 'maybe' }))),
  fails('result: done with an error', 'RejectedError', read(result({ error: 'boom' }))),
  fails('result: done without metrics', 'RejectedError', read(result({ metrics: null }))),
  fails('result: metrics a string', 'RejectedError', read(result({ metrics: 'fine' }))),
  fails('result: wallSeconds -1', 'RejectedError', read(result({ wallSeconds: -1 }))),
  fails('result: wallSeconds "3"', 'RejectedError', read(result({ wallSeconds: '3' }))),
  fails('result: implicated not a list', 'RejectedError', read(result({ implicated: 'sex=1' }))),
  fails('result: implicated holding numbers', 'RejectedError', read(result({ implicated: [1] }))),
  fails('result: no dataset', 'RejectedError', read(result({ dataset: null }))),
  fails(
    'result: a signed payload swapped in',
    'RejectedError',
    read({ ...result({}), payload: JSON.stringify({ ...done, metrics: { dsn: 999 } }) }),
  ),
  returns('result: a signed record of the cell', read(result({})), (r) =>
    unless(r.key === cell.key && r.status === 'done', 'record'),
  ),
  returns(
    'result: a signed failure',
    read(signResult(secret, id, failedRecord(cell, 'OptionsError: x', 0.1))),
    (r) => unless(r.status === 'failed' && r.error === 'OptionsError: x', 'record'),
  ),

  fails('secret: missing', 'QueueSecretError', () => queueSecret(undefined)),
  fails('secret: empty', 'QueueSecretError', () => queueSecret('')),
  fails('secret: 31 characters', 'QueueSecretError', () => queueSecret('x'.repeat(31))),
  returns(
    'secret: a file with a final line break',
    () => queueSecret(`${'a'.repeat(64)}\n`),
    (s) => unless(s.length === 64, `${s.length}`),
  ),
  fails('redis URL: http', 'RedisUrlError', () => redisOptions('http://queue.lab')),
  fails('redis URL: no scheme', 'RedisUrlError', () => redisOptions('queue.lab:6379')),
  fails('redis URL: database "x"', 'RedisUrlError', () => redisOptions('redis://queue.lab/x')),
  fails('redis URL: database -1', 'RedisUrlError', () => redisOptions('redis://queue.lab/-1')),
  fails('redis URL: socket without a path', 'RedisUrlError', () => redisOptions('unix://')),
  fails('redis URL: socket database "x"', 'RedisUrlError', () => redisOptions('unix:///run/redis.sock?db=x')),
  returns(
    'redis URL: rediss with credentials',
    () => redisOptions('rediss://bench:p%40ss@10.0.0.5:6380/2'),
    (o) =>
      unless(
        o.tls && o.password === 'p@ss' && o.username === 'bench' && o.port === 6380 && o.db === 2,
        JSON.stringify(o),
      ),
  ),
  failsOrReturns(
    'redis URL: socket with a password',
    'RedisUrlError',
    () => redisOptions('unix:///run/redis.sock?password=s%20t'),
    (o) => unless(o.password === 's t' && o.path === '/run/redis.sock', JSON.stringify(o)),
  ),
];

/**
 * A mac over any text, to build signed oddities: `job` as the coordinator signs a job, `raw` as an
 * HMAC under the queue secret itself (what a signature without the run key looks like).
 */
function signResultLike(purpose, text) {
  const key = purpose === 'job' ? runKey(secret, run) : secret;
  return createHmac('sha256', key).update(`fairbench-job\0${id}\0${text}`).digest('hex');
}
