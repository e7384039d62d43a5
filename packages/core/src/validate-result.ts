import type { ValidateFunction } from 'ajv';
import { describeErrors, makeAjv } from './ajv.js';
import { ResultError } from './errors.js';
import { discoveryResultSchema } from './result-schema.js';
import type { DiscoveryResult } from './result-types.js';

let compiled: ValidateFunction | null = null;

function validator(): ValidateFunction {
  // Compiled once, on first use.
  compiled ??= makeAjv(false).compile(discoveryResultSchema);
  return compiled;
}

/** Whether `value` is a valid DiscoveryResult; on failure `errors` lists each problem. */
export function checkResult(value: unknown): { valid: boolean; errors: string } {
  const validate = validator();
  if (!(validate(value) as boolean)) return { valid: false, errors: describeErrors(validate.errors) };
  // Every discriminatory sample is a tested one; subgroups, which overlap, may outnumber the rows.
  const r = value as DiscoveryResult;
  if (r.findings.kind === 'individual' && r.metrics.sur > 1) {
    return { valid: false, errors: '/metrics/sur: must be <= 1 in an individual result' };
  }
  return { valid: true, errors: '' };
}

/** Throw `ResultError` unless `value` is a valid DiscoveryResult. */
export function assertValidResult(value: unknown): asserts value is DiscoveryResult {
  const { valid, errors } = checkResult(value);
  if (!valid) throw new ResultError('RESULT_INVALID', `invalid DiscoveryResult: ${errors}`);
}

/**
 * Parse a stored result (a JSON string or parsed object). Results written by any 1.x version are
 * readable; a different major version is refused with a clear error.
 */
export function readResult(json: string | unknown): DiscoveryResult {
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (e) {
      throw new ResultError('RESULT_INVALID', `a stored result is not valid JSON: ${(e as Error).message}`);
    }
  }
  const version = (value as { schemaVersion?: unknown })?.schemaVersion;
  if (typeof version === 'string' && !version.startsWith('1.')) {
    throw new ResultError(
      'RESULT_INVALID',
      `result schema version ${version} is not readable by this version (1.x)`,
    );
  }
  assertValidResult(value);
  return value;
}
