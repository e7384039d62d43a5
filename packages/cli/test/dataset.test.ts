import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { audit, calibrateCommand, UsageError } from '../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const HAS_GERMAN = existsSync(path.join(dataDir, 'german-credit/german.data.gz'));
const quiet = { stdout: () => {}, stderr: () => {}, isTTY: false };
/** German credit from `dataDir`, a logistic regression, the `methods` given, then `rest`. */
const germanArgs = (methods: string, ...rest: string[]) => [
  '--dataset',
  'german',
  '--data-dir',
  dataDir,
  '--train',
  'lr',
  '--methods',
  methods,
  ...rest,
];

if (!HAS_GERMAN)
  console.warn(
    `dataset.test: German skipped, no german-credit/german.data.gz in ${dataDir} (set FB_DATA_DIR)`,
  );

describe('--dataset', () => {
  it('names the known datasets when given another', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'fb-ds-')), 'out');
    await expect(
      audit(
        ['--dataset', 'iris', '--data-dir', dataDir, '--train', 'lr', '--out', out],
        quiet,
        new AbortController().signal,
      ),
    ).rejects.toThrow(/"iris" is not a named dataset \(adult, compas, german, bank\)/);
    await expect(
      audit(
        ['x.csv', '--data-dir', dataDir, '--train', 'lr', '--out', out],
        quiet,
        new AbortController().signal,
      ),
    ).rejects.toThrow(UsageError);
  });

  it.skipIf(!HAS_GERMAN)(
    "audits German credit with its codebook's labels and states the row set",
    async () => {
      const out = path.join(mkdtempSync(path.join(tmpdir(), 'fb-ds-')), 'out');
      const code = await audit(
        germanArgs('sliceline,rowflips', '--time', '4', '--out', out),
        quiet,
        new AbortController().signal,
      );
      expect(code).toBe(0);
      const json = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
      // The dataset's own outcome and protected attributes.
      expect(json.schema.outcome.name).toBe('credit');
      expect(
        json.schema.attributes
          .filter((a: { protected: boolean }) => a.protected)
          .map((a: { name: string }) => a.name),
      ).toEqual(['sex', 'age', 'foreign_worker']);
      const checking = json.schema.attributes.find((a: { name: string }) => a.name === 'checking_status');
      expect(checking.categories).toEqual([
        '< 0 DM',
        '0 to < 200 DM',
        '>= 200 DM or salary assigned',
        'no checking account',
      ]);
      const property = json.schema.attributes.find((a: { name: string }) => a.name === 'property');
      expect(property.categories[0]).toBe('real estate');
      expect(json.data.dataset.rowSet).toMatch(/all 1,000 rows/);
      expect(json.data.rowsRead).toBe(1000);
      const html = readFileSync(path.join(out, 'report.html'), 'utf8');
      expect(html).toContain('Row set of <code>--dataset german</code>');
      // No A-code is left in any finding.
      const text =
        JSON.stringify(json.topSubgroups) +
        JSON.stringify(readFileSync(path.join(out, 'findings-rowflips.csv'), 'utf8'));
      expect(text).not.toMatch(/\bA\d{2,3}\b/);
    },
  );
});

describe('calibrate --dataset', () => {
  it('names the known datasets when given another, and wants --dataset with --data-dir', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'fb-ds-')), 'out');
    await expect(
      calibrateCommand(
        ['--dataset', 'iris', '--data-dir', dataDir, '--out', out],
        quiet,
        new AbortController().signal,
      ),
    ).rejects.toThrow(/"iris" is not a named dataset \(adult, compas, german, bank\)/);
    await expect(
      calibrateCommand(['x.csv', '--data-dir', dataDir, '--out', out], quiet, new AbortController().signal),
    ).rejects.toThrow(/--data-dir goes with --dataset/);
  });

  it.skipIf(!HAS_GERMAN)(
    "calibrates on German credit with its codebook's labels and states the row set",
    async () => {
      const out = path.join(mkdtempSync(path.join(tmpdir(), 'fb-ds-')), 'out');
      const said: string[] = [];
      const io = { stdout: () => {}, stderr: (s: string) => said.push(s), isTTY: false };
      const code = await calibrateCommand(
        germanArgs('sliceline', '--trials', '1', '--pairs', '1', '--time', '2', '--out', out),
        io,
        new AbortController().signal,
      );
      expect(code).toBe(0);
      const json = JSON.parse(readFileSync(path.join(out, 'calibration.json'), 'utf8'));
      expect(json.dataset.name).toBe('german');
      expect(json.dataset.rowSet).toMatch(/all 1,000 rows/);
      expect(json.dataset.provenance[0]).toMatch(/german\.data: .* SHA-256 [0-9a-f]{64} verified/);
      expect(json.trialsDone + json.failedTrials.length).toBe(2);
      expect(json.methods.map((m: { method: string }) => m.method)).toEqual(['sliceline']);
      const text = said.join('');
      expect(text).toContain('--dataset german: ');
      // The dataset's own outcome and protected attributes, decoded with the codebook.
      expect(text).toContain('credit  outcome  [bad, good], favourable: good');
      expect(text).toMatch(/\* sex .*\n/);
      expect(text).toContain('< 0 DM');
      // No A-code is left in the schema the generator is fitted to (the row set names A9 itself).
      expect(text.slice(text.indexOf('schema (* = protected)'))).not.toMatch(/\bA\d{2,3}\b/);
    },
  );
});
