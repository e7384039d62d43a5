import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkResult } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { syntheticCsv } from './synthetic.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

// A slow model (favourable for men, or for hours > 40): 1.5 s over its first answer (the whole data, for
// the group metrics) and a minute over every later one (the detectors'); it prints a line when a request
// arrives, so that the test can interrupt while an answer is awaited.
const SLOW_SERVER = `
let served = 0;
require('node:http').createServer((req, res) => {
  const delay = ++served === 1 ? 1500 : 60000;
  let text = '';
  req.on('data', (c) => (text += c));
  req.on('end', () => {
    const body = JSON.parse(text);
    const sex = body.columns.indexOf('sex');
    const hours = body.columns.indexOf('hours');
    process.stdout.write('request\\n');
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({
        probabilities: body.rows.map((r) => (r[sex] === 'Male' || r[hours] > 40 ? [0.2, 0.8] : [0.7, 0.3])),
      }));
    }, delay);
  });
}).listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); });
`;

describe('fairbench audit interrupted', () => {
  it('SIGINT while a slow model answer is awaited writes a valid partial report without awaiting it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fb-interrupt-'));
    const data = path.join(dir, 'people.csv');
    writeFileSync(data, syntheticCsv(600));
    const out = path.join(dir, 'report');
    const server = spawn(process.execPath, ['-e', SLOW_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    let requests = 0;
    let onRequest = () => {};
    const port = await new Promise<number>((resolve) => {
      let port = 0;
      server.stdout.on('data', (d: Buffer) => {
        for (const line of String(d).split('\n').filter(Boolean)) {
          if (port === 0) resolve((port = Number(line)));
          else {
            requests++;
            onRequest();
          }
        }
      });
    });
    try {
      const args = ['audit', data, '--protected', 'sex', '--outcome', 'income=yes'];
      args.push('--endpoint', `http://127.0.0.1:${port}/`, '--time', '120', '--out', out);
      const audit = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let stdout = '';
      audit.stdout.on('data', (d) => (stdout += d));
      let detecting = false;
      const detectorStarted = new Promise<void>((resolve) =>
        audit.stderr.on('data', (d) => {
          stderr += d;
          if (!detecting && /\[1\/\d\] \w+: running/.test(stderr)) {
            detecting = true;
            resolve();
          }
        }),
      );
      const exited = new Promise<number | null>((resolve) => audit.on('exit', (code) => resolve(code)));
      // Interrupt on the first request a detector sends, 300 ms into its minute-long answer.
      await detectorStarted;
      const before = requests;
      await new Promise<void>((resolve) => {
        onRequest = () => {
          if (requests > before) setTimeout(resolve, 300);
        };
      });
      const sent = performance.now();
      audit.kill('SIGINT');
      const code = await exited;
      const seconds = (performance.now() - sent) / 1000;
      console.log(`the audit ended ${seconds.toFixed(2)} s after SIGINT`);

      expect({ code, stderr }).toMatchObject({ code: 130 });
      // About 0.3 s on an idle machine and 2 s with the whole test suite running beside it on two cores:
      // far from the minute an awaited answer would take.
      expect(seconds).toBeLessThan(15);
      expect(stdout).toMatch(/^partial report: /);
      const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
      expect(report.partial).toBe(true);
      expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('This audit was interrupted');
      // The group metrics are whole (the model answered for every row before the detectors ran).
      expect(report.groupMetrics.overall.size).toBe(600);
      const statuses = report.methods.map((m: { status: string }) => m.status);
      expect(statuses[0]).toBe('interrupted');
      expect(statuses.slice(1).every((s: string) => s === 'interrupted' || s === 'skipped')).toBe(true);
      // What the interrupted method returned, if anything, is a valid result marked aborted.
      for (const result of report.results) {
        expect(checkResult(result).errors).toEqual([]);
        expect(result.run.aborted).toBe(true);
      }
      expect(existsSync(path.join(out, 'fairbench-manifest.json'))).toBe(true);
    } finally {
      server.kill();
    }
  });
});
