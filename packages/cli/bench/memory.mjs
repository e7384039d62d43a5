#!/usr/bin/env node
// Peak memory of `fairbench audit` on a generated CSV of --rows rows (default 1,000,000): the CLI's
// default methods, a logistic regression trained on the file, --time 30. The CSV goes to a temporary
// folder that is removed afterwards. Peak RSS is the kernel's high-water mark (VmHWM) of the audit's
// process, read until it exits. Exits 1 when the peak exceeds --max-mb (default 400).
// Usage: node bench/memory.mjs [--rows 1000000] [--max-mb 400] [--time 30]   (after pnpm build)
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rows = arg('rows', 1_000_000);
const maxMb = arg('max-mb', 400);
const seconds = arg('time', 30);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'fb-memory-'));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

try {
  // Rows like the tests' synthetic CSV: an identifier, two protected attributes, planted bias.
  const file = path.join(dir, 'people.csv');
  const fd = openSync(file, 'w');
  let s = 12345;
  const u = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const educations = ['Primary', 'HS-grad', 'Bachelors', 'Masters', 'Doctorate'];
  writeSync(fd, 'person_id,sex,race,age,education,hours,income\n');
  let lines = [];
  for (let i = 0; i < rows; i++) {
    const sex = u() < 0.5 ? 'Female' : 'Male';
    const e = Math.floor(u() * 5);
    const hours = Math.round(10 + 60 * u());
    let p = 0.1 + 0.15 * e + (hours - 10) / 150;
    if (sex === 'Female' && e < 3) p -= 0.35;
    const race = 'ABC'[Math.floor(u() * 3)];
    lines.push(
      `id-${i},${sex},${race},${18 + Math.floor(u() * 63)},${educations[e]},${hours},${u() < p ? 'yes' : 'no'}`,
    );
    if (lines.length === 10_000) {
      writeSync(fd, `${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length > 0) writeSync(fd, `${lines.join('\n')}\n`);
  closeSync(fd);

  const args = ['audit', file, '--protected', 'sex,race', '--outcome', 'income=yes', '--train', 'lr'];
  args.push('--time', String(seconds), '--quiet', '--out', path.join(dir, 'report'));
  console.log(`fairbench ${args.slice(0, 7).join(' ')} ... on ${rows} rows; load average ${load()}`);
  const started = performance.now();
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  let peakKb = 0;
  const sample = () => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      // The process is gone.
    }
  };
  const timer = setInterval(sample, 50);
  const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c)));
  clearInterval(timer);
  const mb = peakKb / 1024;
  console.log(
    `exit ${code}; ${((performance.now() - started) / 1000).toFixed(1)} s; peak RSS ${mb.toFixed(0)} MB (limit ${maxMb} MB); load average ${load()}`,
  );
  process.exitCode = code === 0 && mb > 0 && mb <= maxMb ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
