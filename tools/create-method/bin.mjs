#!/usr/bin/env node
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { UsageError } from './src/names.mjs';
import { applyPlan, nextSteps, planMethod } from './src/scaffold.mjs';

const USAGE = `usage: pnpm new:method <individual|subgroup> <name> [--dry-run]

Creates packages/<kind>-<name> (a working placeholder detector that passes the conformance kit),
registers it in apps/bench and writes its changeset.

  --dry-run     print the files that would be written and change nothing
  --root <dir>  repository root (default: the one this tool lives in)`;

function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'dry-run': { type: 'boolean', default: false },
        root: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    throw new UsageError(e.message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 2)
    throw new UsageError(`expected <kind> and <name>, got ${positionals.length} arguments`);
  const [kind, name] = positionals;
  const root = resolve(values.root ?? fileURLToPath(new URL('../..', import.meta.url)));
  const plan = planMethod({ root, kind, name });
  const dry = values['dry-run'];
  if (!dry) applyPlan(root, plan);
  console.log(dry ? 'Would create:' : 'Created:');
  for (const f of plan.create) console.log(`  ${f.path}`);
  console.log(dry ? 'Would modify:' : 'Modified:');
  for (const f of plan.modify) console.log(`  ${f.path}`);
  if (dry) {
    console.log('Dry run: nothing was written.');
    return;
  }
  console.log(`\n${nextSteps(plan.names).join('\n')}`);
}

try {
  main(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  console.error(`create-method: ${e.message}\n\n${USAGE}`);
  process.exitCode = 1;
}
