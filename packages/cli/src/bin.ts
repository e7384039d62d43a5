#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { audit, CALIBRATE_USAGE, calibrateCommand, USAGE } from './cli.js';
import { UsageError } from './errors.js';
import { onInterrupt, watchInterruptPipe } from './interrupt.js';

const io = {
  stdout: (s: string) => process.stdout.write(s),
  stderr: (s: string) => process.stderr.write(s),
  isTTY: process.stderr.isTTY === true,
};

/** Set in the auditing process: the pipe on which its parent relays each Ctrl-C. */
const INTERRUPT_FD = 'FAIRBENCH_INTERRUPT_FD';

/**
 * A model behind `--endpoint` or `--model` is queried by blocking the main thread on `Atomics.wait`,
 * where no signal handler runs. Such an audit runs in a child process; this one stays free to see
 * Ctrl-C and relays it through a pipe that a worker thread of the child reads, which ends the wait.
 */
function relayed(argv: string[]): boolean {
  return (
    process.env[INTERRUPT_FD] === undefined &&
    argv[0] === 'audit' &&
    argv.some(
      (a) => a === '--endpoint' || a === '--model' || a.startsWith('--endpoint=') || a.startsWith('--model='),
    )
  );
}

function relay(argv: string[]): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...argv], {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: { ...process.env, [INTERRUPT_FD]: '3' },
  });
  const pipe = child.stdio[3] as NodeJS.WritableStream & { on: (e: string, f: () => void) => void };
  pipe.on('error', () => {});
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts++;
    if (interrupts > 1) {
      child.kill('SIGKILL');
      process.exit(130);
    }
    pipe.write('i');
  });
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  return new Promise((resolve) => {
    child.on('error', (e) => {
      io.stderr(`fairbench: cannot start the audit: ${e.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
  });
}

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
  if (relayed(argv)) return relay(argv);
  // The first Ctrl-C stops the running detector and writes a partial report; a second one exits.
  const controller = new AbortController();
  const interrupt = () => {
    io.stderr('\ninterrupted: finishing with what was found so far (Ctrl-C again to quit)\n');
    controller.abort();
  };
  const fd = process.env[INTERRUPT_FD];
  if (fd !== undefined) {
    // Ctrl-C reaches this process through the parent's pipe (a terminal's own SIGINT is left to it).
    process.on('SIGINT', () => {});
    onInterrupt(interrupt);
    watchInterruptPipe(Number(fd));
  } else {
    process.on('SIGINT', () => {
      if (controller.signal.aborted) process.exit(130);
      interrupt();
    });
  }
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
