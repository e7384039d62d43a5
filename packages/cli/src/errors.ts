import { OptionsError } from '@fb/core';

/**
 * A command line that cannot run as given: the message says what to change. Exit code 2. It is an
 * `OptionsError` (code `OPTIONS_INVALID`), so callers of the API can catch it like any typed error.
 */
export class UsageError extends OptionsError {
  override readonly name: string = 'UsageError';
  readonly exitCode = 2;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('OPTIONS_INVALID', message, details);
  }
}

/**
 * `--out` names a place the command will not write into: a file, a folder holding files it did not
 * write, or a folder holding an input of this audit. Exit code 2.
 */
export class OutputRefusedError extends UsageError {
  override readonly name = 'OutputRefusedError';
}
