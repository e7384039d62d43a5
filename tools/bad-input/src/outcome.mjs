import { FairbenchError } from '@fb/core';
import { BUDGET_GRACE_SECONDS } from './cases.mjs';

/**
 * Error classes of the apps that are typed (named for what is wrong) without being FairbenchErrors:
 * the queue's refusals and URL errors, the store's lock.
 */
const APP_ERRORS = new Set([
  'RejectedError',
  'ForeignJobError',
  'ReplayedJobError',
  'ExpiredJobError',
  'QueueSecretError',
  'RedisUrlError',
  'RedisUnreachableError',
  'StoreInUseError',
]);

/** `{ name, code }` of a typed error, or null for anything else (a crash). */
export function typedError(e) {
  if (e instanceof FairbenchError) return { name: e.name, code: e.code };
  if (e instanceof Error && APP_ERRORS.has(e.name) && e.constructor.name === e.name) {
    return { name: e.name, code: e.name };
  }
  return null;
}

/**
 * Run one case and classify it:
 * - `typed-error`: it threw the typed error it expects (by code, or class name for app errors);
 * - `correct`: it returned and its check found the value right;
 * - `wrong-error`: a typed error, but not the one expected;
 * - `crash`: an untyped error (TypeError, RangeError, a raw Node error...);
 * - `silent-wrong`: it returned where an error was expected, or its check found the value wrong;
 * - `overrun`: a case with a time budget (`maxSeconds`) that ended more than `BUDGET_GRACE_SECONDS`
 *   past it, whatever else it did.
 * Hangs are caught by the caller's watchdog.
 */
export async function runCase(c) {
  if (c.maxSeconds === undefined) return classify(c);
  const started = performance.now();
  const result = await classify(c);
  const past = (performance.now() - started) / 1000 - c.maxSeconds;
  if (past <= BUDGET_GRACE_SECONDS) return result;
  return {
    outcome: 'overrun',
    detail: `ended ${past.toFixed(1)} s past its ${c.maxSeconds} s budget (${result.outcome}${result.detail ? `: ${result.detail}` : ''})`,
  };
}

async function classify(c) {
  let value;
  try {
    value = await c.run();
  } catch (e) {
    const typed = typedError(e);
    const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    if (!typed) return { outcome: 'crash', detail: message };
    if (c.error === undefined) return { outcome: 'wrong-error', detail: `expected a result, got ${message}` };
    const expected = Array.isArray(c.error) ? c.error : [c.error];
    return expected.includes(typed.code)
      ? { outcome: 'typed-error', detail: message }
      : { outcome: 'wrong-error', detail: `expected ${expected.join(' or ')}, got ${message}` };
  }
  if (!c.check) return { outcome: 'silent-wrong', detail: `expected ${c.error}, got a result` };
  let problem;
  try {
    problem = await c.check(value);
  } catch (e) {
    problem = `its check threw ${e instanceof Error ? e.message : String(e)}`;
  }
  return problem ? { outcome: 'silent-wrong', detail: problem } : { outcome: 'correct', detail: '' };
}
