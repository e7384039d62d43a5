/** A command line that cannot run as given: the message says what to change. Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode = 2;
}
