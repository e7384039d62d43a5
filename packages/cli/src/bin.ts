#!/usr/bin/env node
import { audit, CALIBRATE_USAGE, calibrateCommand, USAGE } from './cli.js';
import { UsageError } from './errors.js';

const io = {
  stdout: (s: string) => process.stdout.write(s),
  stderr: (s: string) => process.stderr.write(s),
  isTTY: process.stderr.isTTY === true,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'audit' && command !== 'calibrate') {
    throw new UsageError(`unknown command "${command}"\n\n${USAGE}\n${CALIBRATE_USAGE}`);
  }
  if (rest.includes('--help')) {
    io.stdout(command === 'audit' ? USAGE : CALIBRATE_USAGE);
    return 0;
  }
  // The first Ctrl-C stops the running detector and writes a partial report; a second one exits.
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    io.stderr('\ninterrupted: finishing with what was found so far (Ctrl-C again to quit)\n');
    controller.abort();
  });
  return command === 'audit'
    ? audit(rest, io, controller.signal)
    : calibrateCommand(rest, io, controller.signal);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const code = (e as { code?: unknown }).code;
    const usage = e instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
    if (usage) io.stderr(`fairbench: ${(e as Error).message}\n`);
    // Typed errors of the packages (SchemaError, DataError, ModelError...) name what is wrong.
    else if (typeof code === 'string') io.stderr(`fairbench: ${code}: ${(e as Error).message}\n`);
    else io.stderr(`fairbench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(usage ? 2 : 1);
  },
);
